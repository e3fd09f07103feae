/**
 * How the CLI writes: diagnostics as `xcsh: warning: FILE: message` lines on
 * stderr (each once), JSON documents on stdout, and plain aligned tables
 * whose columns (all but the last) are at most {@link MAX_COLUMN_WIDTH} wide.
 *
 * @module
 */
import { writeErr, writeOut, writeOutRaw } from "../text/stdio.ts";
import { namesTail, shownName } from "../text/nearest-names.ts";
import { EXIT_USAGE } from "./errors.ts";
import type { Diagnostic } from "../types.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { warningSummary } from "../text/warnings.ts";

export { isVerbose } from "../text/warnings.ts";

/** Writes each distinct diagnostic once to stderr. */
export function reportDiagnostics(diags: readonly Diagnostic[]): void {
  const seen = new Set<string>();
  for (const d of diags) {
    const line = formatDiagnostic(d);
    if (seen.has(line)) continue;
    seen.add(line);
    writeErr(line + "\n");
  }
}

/** Discovery warnings: every one with `verbose`, else one summary line. */
export function reportDiscoveryWarnings(
  diags: readonly Diagnostic[],
  verbose: boolean,
  kind: "agent" | "command" | "skill" = "agent",
): void {
  if (verbose) return reportDiagnostics(diags);
  const line = warningSummary(diags, kind);
  if (line) writeErr(line + "\n");
}

/** Prints a value as indented JSON on stdout. */
export function printJson(value: unknown): void {
  // JSON escapes control characters itself; the data stays exactly as it is.
  writeOutRaw(JSON.stringify(value, null, 2) + "\n");
}

import { displayPath } from "../fs/home.ts";

export { displayPath };

/**
 * The widest a padded table column gets: a longer cell (a 10 000-character
 * agent name from some repository) is cut with an ellipsis instead of
 * widening every row. `--json` has the full values.
 */
export const MAX_COLUMN_WIDTH = 60;

/**
 * `text` cut to `width` characters with `…`: a path or URL (no spaces, a
 * `/`) keeps its end, where the file name is; anything else its start.
 * Pure.
 *
 * @example
 * ```ts
 * fitCell("abcdefgh", 5);         // "abcd…"
 * fitCell("/a/b/c/agent.md", 10); // "…/agent.md"
 * ```
 */
export function fitCell(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (!/\s/.test(text) && text.includes("/")) return "…" + chars.slice(-(width - 1)).join("");
  return chars.slice(0, width - 1).join("") + "…";
}

/**
 * Renders rows as left-aligned columns separated by two spaces; every
 * column but the last is at most {@link MAX_COLUMN_WIDTH} wide.
 */
export function formatTable(header: string[], rows: string[][]): string {
  const last = header.length - 1;
  const fitted = rows.map((r) => r.map((c, i) => (i < last ? fitCell(c, MAX_COLUMN_WIDTH) : c)));
  const widths = header.map((h, i) =>
    Math.max([...h].length, ...fitted.map((r) => [...(r[i] ?? "")].length))
  );
  const line = (cells: string[]) =>
    cells.map((c, i) => i === cells.length - 1 ? c : c + " ".repeat(widths[i] - [...c].length))
      .join("  ").trimEnd();
  return [line(header), ...fitted.map(line)].join("\n") + "\n";
}

/** A definition found by discovery: agents and workflow commands alike. */
interface Listed {
  name: string;
  source: string;
  family: string;
  plugin?: string;
  filePath?: string;
}

/** Where a definition lives, for tables: `~/…` or `(built in)`. */
export function whereLabel(d: Listed): string {
  return displayPath(d.filePath) || "(built in)";
}

/** The family column: `plugin <id>` for plugin definitions. */
export function familyLabel(d: Listed): string {
  return d.plugin ? `plugin ${d.plugin}` : d.family;
}

/**
 * Table rows for a listing: one per winner and, with `all`, each definition
 * it hides right below it, its last column saying who hides it.
 */
export function listingRows<T extends Listed>(
  winners: readonly T[],
  shadowed: readonly { agent: T; shadowedBy: T }[],
  all: boolean,
  last: (d: T) => string,
): string[][] {
  const rows: string[][] = [];
  for (const w of winners) {
    rows.push([w.name, w.source, familyLabel(w), whereLabel(w), last(w)]);
    if (!all) continue;
    for (const s of shadowed.filter((x) => x.shadowedBy === w)) {
      const d = s.agent;
      rows.push([d.name, d.source, familyLabel(d), whereLabel(d), `shadowed by ${whereLabel(w)}`]);
    }
  }
  return rows;
}

/** The `--json` document of a listing: winners, and with `all` the hidden ones with who hides them. */
export function listingDocument<T>(
  key: string,
  winners: readonly T[],
  shadowed: readonly { agent: T; shadowedBy: T }[],
  all: boolean,
  summary: (d: T) => Record<string, unknown>,
  ref: (d: T) => Record<string, unknown>,
): Record<string, unknown> {
  const doc: Record<string, unknown> = { version: 1, [key]: winners.map(summary) };
  if (all) {
    doc.shadowed = shadowed.map((s) => ({ ...summary(s.agent), shadowedBy: ref(s.shadowedBy) }));
  }
  return doc;
}

/**
 * Prints a listing whose last column is each definition's description
 * (`xcsh skills`, `xcsh commands`): its `--json` document, or its table.
 */
export function printDescribedListing<T extends Listed & { description: string }>(
  key: string,
  winners: readonly T[],
  shadowed: readonly { agent: T; shadowedBy: T }[],
  o: { all: boolean; json: boolean; summary: (d: T) => Record<string, unknown> },
): void {
  if (o.json) {
    printJson(listingDocument(key, winners, shadowed, o.all, o.summary, o.summary));
    return;
  }
  const rows = listingRows(winners, shadowed, o.all, (d) => d.description);
  writeOut(formatTable(["NAME", "SOURCE", "FAMILY", "FILE", "DESCRIPTION"], rows));
}

/**
 * Says that no `noun` is named `name`, with the nearest of `names` and how
 * to list them (`xcsh PLURAL`), and gives the usage exit code.
 */
export function unknownNameExit(
  noun: string,
  plural: string,
  name: string,
  names: readonly string[],
): number {
  const tail = namesTail(name, names, plural, `\`xcsh ${plural}\` lists them all`);
  writeErr(`xcsh: unknown ${noun} "${shownName(name)}". ${tail}\n`);
  return EXIT_USAGE;
}
