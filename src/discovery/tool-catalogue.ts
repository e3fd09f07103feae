/**
 * Every built-in tool by its canonical (xcsh) name, and what choosing a tool
 * set needs to know of it: whether it only looks (`readOnly`: it changes no
 * file, starts no process and records nothing), and the file-reading core
 * every read-only agent keeps. The tool specs in `tools/` take their
 * `readOnly` from here, so the rule that picks a child's tools
 * (`protocol/tool-set-rule.ts`) and the tools themselves never disagree.
 *
 * Adding a tool is its own file in `tools/`, one row here and one entry in
 * `tools/registry.ts`; the compiler names the ones missing. Pure data.
 *
 * @example
 * ```ts
 * TOOL_NAMES.filter((t) => TOOL_READ_ONLY[t]); // ["read", "grep", "find", "ls", …]
 * ```
 *
 * @module
 */

/** One row per tool, in the order tool sets list them. */
const CATALOGUE = {
  read: { readOnly: true },
  grep: { readOnly: true },
  find: { readOnly: true },
  ls: { readOnly: true },
  bash: { readOnly: false },
  edit: { readOnly: false },
  write: { readOnly: false },
  submit_result: { readOnly: true },
  task: { readOnly: false },
  report_finding: { readOnly: false },
  web_fetch: { readOnly: true },
  web_search: { readOnly: true },
  todo: { readOnly: true },
  skill: { readOnly: true },
} as const satisfies Record<string, { readOnly: boolean }>;

/** A built-in tool's canonical name. */
export type ToolName = keyof typeof CATALOGUE;

/** The tools a child can be given, by their canonical names, in the catalogue's order. */
export const TOOL_NAMES: readonly ToolName[] = Object.keys(CATALOGUE) as ToolName[];

/** True for the tools whose calls only look. */
export const TOOL_READ_ONLY: Readonly<Record<ToolName, boolean>> = Object.fromEntries(
  TOOL_NAMES.map((t) => [t, CATALOGUE[t].readOnly]),
) as Record<ToolName, boolean>;

/**
 * The file-reading tools a read-only agent always has (plan mode, a Codex
 * `sandbox_mode = "read-only"` agent).
 */
export const READ_ONLY_CORE = ["read", "grep", "find", "ls"] as const;
