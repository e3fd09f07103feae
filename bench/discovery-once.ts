/**
 * One cold call in a fresh process, for bench/run.ts: loads the code, then
 * times the first `discoverAgents` call (or the first raw-I/O floor pass) and
 * prints `{ "loadMs": …, "firstMs": …, "count": … }` on stdout.
 *
 *   bun bench/discovery-once.ts discover|floor TREE.json
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import type { Tree } from "./generate.ts";

const [mode, treeFile] = process.argv.slice(2);
const tree = JSON.parse(readFileSync(treeFile, "utf8")) as Tree;

const t0 = performance.now();
let run: () => Promise<number>;
if (mode === "discover") {
  const { discoverAgents } = await import("../src/task/discovery.ts");
  run = async () =>
    (await discoverAgents({ cwd: tree.cwd, home: tree.home, env: tree.env })).agents.length;
} else if (mode === "floor") {
  const { rawFloor } = await import("./floor.ts");
  run = () => rawFloor(tree);
} else {
  console.error("usage: bun bench/discovery-once.ts discover|floor TREE.json");
  process.exit(2);
}
const t1 = performance.now();
const count = await run();
const t2 = performance.now();
console.log(JSON.stringify({ loadMs: t1 - t0, firstMs: t2 - t1, count }));
