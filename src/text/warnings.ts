/**
 * How much of discovery's warnings a command shows: all of them with
 * `--verbose` or `XCSH_VERBOSE`, else one line saying how many files have
 * warnings and where to see them. Shared by the CLI and the MCP server. Pure.
 *
 * @example
 * ```ts
 * warningSummary([{ level: "warning", file: "a.md", message: "…" }], "agent");
 * // "xcsh: 1 agent file has warnings (xcsh agents check)"
 * ```
 *
 * @module
 */
import type { Diagnostic } from "../types.ts";

/** Whether warnings are shown in full: the `--verbose` flag, or `XCSH_VERBOSE` set (not `0`). */
export function isVerbose(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const v = env.XCSH_VERBOSE?.trim();
  return flag === true || (v !== undefined && v !== "" && v !== "0");
}

/**
 * The one line that stands for discovery warnings when they are not shown in
 * full, or undefined when there are none: how many files have them and where
 * to see them.
 */
export function warningSummary(
  diags: readonly Diagnostic[],
  kind: "agent" | "command" | "skill",
): string | undefined {
  if (diags.length === 0) return undefined;
  const files = new Set(diags.map((d) => d.file ?? d.message)).size;
  const see = kind === "agent"
    ? "xcsh agents check"
    : kind === "command"
    ? "xcsh commands --verbose"
    : "xcsh skills --verbose";
  return `xcsh: ${files} ${kind} file${files === 1 ? " has" : "s have"} warnings (${see})`;
}
