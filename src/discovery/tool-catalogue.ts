/**
 * What each built-in tool is, as far as choosing a tool set needs: whether
 * it only looks (`readOnly`: it changes no file, starts no process and
 * records nothing), and the file-reading core every read-only agent keeps.
 * The tool specs in `tools/` take their `readOnly` from here, so the rule
 * that picks a child's tools (`protocol/tool-set-rule.ts`) and the tools
 * themselves never disagree. Pure data.
 *
 * @module
 */
import type { ToolName } from "../types.ts";

/** True for the tools whose calls only look. */
export const TOOL_READ_ONLY: Readonly<Record<ToolName, boolean>> = {
  read: true,
  grep: true,
  find: true,
  ls: true,
  bash: false,
  edit: false,
  write: false,
  submit_result: true,
  task: false,
  report_finding: false,
  web_fetch: true,
  web_search: true,
  todo: true,
  skill: true,
};

/**
 * The file-reading tools a read-only agent always has (plan mode, a Codex
 * `sandbox_mode = "read-only"` agent).
 */
export const READ_ONLY_CORE = ["read", "grep", "find", "ls"] as const;
