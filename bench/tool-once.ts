/**
 * One call of a search tool in a fresh process, for the bench: loads the
 * tool, times its first `run` and prints `{ "ms": …, "ok": …, "summary": …,
 * "lines": … }` on stdout, so the figure includes a cold start of the code
 * as in a real child.
 *
 *   bun bench/tool-once.ts grep|find CWD ARGS_JSON
 *
 * @module
 */
import process from "node:process";
import { unavailableTaskRunner } from "../src/tools/task.ts";

const [name, cwd, argsJson] = process.argv.slice(2);
const tools = {
  grep: async () => (await import("../src/tools/search/grep.ts")).grepTool,
  find: async () => (await import("../src/tools/search/find.ts")).findTool,
};
if (!(name in tools) || !cwd || !argsJson) {
  console.error("usage: bun bench/tool-once.ts grep|find CWD ARGS_JSON");
  process.exit(2);
}
const tool = await tools[name as keyof typeof tools]();
const ctx = {
  cwd,
  signal: new AbortController().signal,
  env: {},
  findings: [],
  runTask: unavailableTaskRunner,
};
const t0 = performance.now();
const r = await tool.run(JSON.parse(argsJson), ctx);
const ms = performance.now() - t0;
console.log(
  JSON.stringify({ ms, ok: r.ok, summary: r.summary, lines: r.output.split("\n").length }),
);
