/**
 * Where each built-in tool lives, loaded on first need: a child loads the
 * modules of the tools its plan names and no other (a plan with only
 * `read` never loads the command runner, the web tools or the search
 * engine). The same specs as `registry.ts`'s.
 *
 * @example
 * ```ts
 * const read = await loadBuiltinTool("read"); // the read tool's spec
 * await loadBuiltinTool("submit_result"); // undefined: the loop handles it
 * ```
 *
 * @module
 */
import type { ToolName } from "../discovery/tool-catalogue.ts";
import type { ToolSpec } from "./tool-spec.ts";

type Loaded = Exclude<ToolName, "submit_result" | "web_search">;

const LOADERS: Readonly<Record<Loaded, () => Promise<ToolSpec>>> = {
  read: async () => (await import("./read.ts")).readTool,
  grep: async () => (await import("./search/grep.ts")).grepTool,
  find: async () => (await import("./search/find.ts")).findTool,
  ls: async () => (await import("./ls.ts")).lsTool,
  bash: async () => (await import("./bash.ts")).bashTool,
  edit: async () => (await import("./edit.ts")).editTool,
  write: async () => (await import("./write.ts")).writeTool,
  task: async () => (await import("./task.ts")).taskTool,
  report_finding: async () => (await import("./report-finding.ts")).reportFindingTool,
  web_fetch: async () => (await import("./web/web-fetch.ts")).webFetchTool,
  todo: async () => (await import("./todo.ts")).todoTool,
  skill: async () => (await import("./skill.ts")).skillTool,
};

/** The built-in spec named `name`, loaded, if there is one (never an inherited property). */
export async function loadBuiltinTool(name: string): Promise<ToolSpec | undefined> {
  return Object.hasOwn(LOADERS, name) ? await LOADERS[name as Loaded]() : undefined;
}
