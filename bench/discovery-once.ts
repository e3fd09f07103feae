/**
 * One cold call in a fresh process, for bench/run.ts: loads the code, then
 * times the first `discoverAgents` call (or the first raw-I/O floor pass) and
 * prints `{ "loadMs": …, "firstMs": …, "count": … }` on stdout. `discover`
 * runs without the definition cache on disk, `discover-cached` with it in
 * CACHE_DIR (the first such run writes it).
 *
 *   bun bench/discovery-once.ts discover|discover-cached|floor TREE.json [CACHE_DIR]
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import type { Tree } from "./generate.ts";

const [mode, treeFile, cacheDir] = process.argv.slice(2);
const tree = JSON.parse(readFileSync(treeFile, "utf8")) as Tree;

const t0 = performance.now();
let run: () => Promise<number>;
if (mode === "discover" || mode === "discover-cached") {
  const { discoverAgents } = await import("../src/discovery/discover.ts");
  const env = mode === "discover"
    ? { ...tree.env, XCSH_CACHE: "off" }
    : { ...tree.env, XCSH_CACHE_DIR: cacheDir };
  run = async () => (await discoverAgents({ cwd: tree.cwd, home: tree.home, env })).agents.length;
} else if (mode === "floor") {
  const { rawFloor } = await import("./floor.ts");
  run = () => rawFloor(tree);
} else {
  console.error(
    "usage: bun bench/discovery-once.ts discover|discover-cached|floor TREE.json [CACHE_DIR]",
  );
  process.exit(2);
}
const t1 = performance.now();
const count = await run();
const t2 = performance.now();
console.log(JSON.stringify({ loadMs: t1 - t0, firstMs: t2 - t1, count }));
