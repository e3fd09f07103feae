/**
 * How the CLI writes: diagnostics as `xcsh: warning: FILE: message` lines on
 * stderr (each once), JSON documents on stdout, and plain aligned tables.
 *
 * @module
 */
import process from "node:process";
import type { Diagnostic } from "../task/types.ts";

/** Formats one diagnostic as a single line a user can act on. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}: ` : "";
  const field = d.field && !d.message.includes(`'${d.field}'`) ? `${d.field}: ` : "";
  return `xcsh: ${d.level}: ${where}${field}${d.message}`;
}

/** Writes each distinct diagnostic once to stderr. */
export function reportDiagnostics(diags: readonly Diagnostic[]): void {
  const seen = new Set<string>();
  for (const d of diags) {
    const line = formatDiagnostic(d);
    if (seen.has(line)) continue;
    seen.add(line);
    process.stderr.write(line + "\n");
  }
}

/** Prints a value as indented JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export { displayPath } from "../home.ts";

/** Renders rows as left-aligned columns separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === cells.length - 1 ? c : c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}
