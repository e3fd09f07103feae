/**
 * The cold raw-I/O floor as a program of its own, compiled like dist/xcsh
 * for the discovery section: reads what discovery reads for the tree
 * described in TREE.json (bench/floor.ts) and exits.
 *
 *   floor-once TREE.json
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { rawFloor } from "./floor.ts";

const tree = JSON.parse(readFileSync(process.argv[2], "utf8"));
// No top-level await: a bytecode build compiles this file as CommonJS.
rawFloor(tree).catch((err) => {
  console.error(err);
  process.exit(1);
});
