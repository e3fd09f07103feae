/**
 * How things read in one line: a diagnostic as `xcsh: warning: FILE: message`
 * and a tool call as its name with its most telling argument. Shared by the
 * CLI's stderr output and the MCP server's messages and progress.
 *
 * @example
 * ```ts
 * toolLabel("read", { path: "src/a.ts" }); // "read src/a.ts"
 * ```
 *
 * @module
 */
import type { Diagnostic } from "../types.ts";
import { cleanText } from "./clean-text.ts";

/** Formats one diagnostic as a single line a user can act on. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}: ` : "";
  const field = d.field && !d.message.includes(`'${d.field}'`) ? `${d.field}: ` : "";
  return cleanText(`xcsh: ${d.level}: ${where}${field}${d.message}`);
}

/** Shortens a value to one line of at most `max` characters. */
export function oneLine(value: unknown, max = 60): string {
  const s = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  const one = cleanText(s).replace(/\s+/g, " ");
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/** Describes a tool call briefly: its name and its most telling argument. */
export function toolLabel(tool: string, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  const key = ["path", "pattern", "command", "agent", "query"].find((k) =>
    typeof a[k] === "string"
  );
  return key ? `${tool} ${oneLine(a[key], 50)}` : tool;
}
