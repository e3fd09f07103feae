/**
 * The bench's results: the rows of the table (value, baseline, ratio, target,
 * pass or fail), the details written to bench/results.json, and how the table
 * is printed.
 *
 * @example
 * ```ts
 * row("one task", "xcsh run", 48, 9, "ms", 4); // ratio 5.33×, FAIL
 * printTable();
 * ```
 *
 * @module
 */
import process from "node:process";

export interface Row {
  section: string;
  measurement: string;
  value: number;
  baseline: number;
  unit: string;
  /** value / baseline, or the figure the target applies to. */
  ratio: number;
  /** e.g. "≤ 1.25×"; "info" when there is no target. */
  target: string;
  pass: boolean | null;
}

export const rows: Row[] = [];
export const details: Record<string, unknown> = {};
/** Lines a section adds under the table (how a figure was taken). */
export const notes: string[] = [];

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function row(
  section: string,
  measurement: string,
  value: number,
  baseline: number,
  unit: string,
  limit: number | null,
): void {
  const ratio = value / baseline;
  rows.push({
    section,
    measurement,
    value,
    baseline,
    unit,
    ratio,
    target: limit === null ? "info" : `≤ ${limit}×`,
    pass: limit === null ? null : ratio <= limit,
  });
}

/** A row whose value is compared with an absolute limit (same unit as the value). */
export function limitRow(
  section: string,
  measurement: string,
  value: number,
  limit: number,
  unit: string,
) {
  rows.push({
    section,
    measurement,
    value,
    baseline: limit,
    unit,
    ratio: value / limit,
    target: `≤ ${limit} ${unit}`,
    pass: value <= limit,
  });
}

/** A row whose value must reach `floor` (same unit as the value). */
export function floorRow(
  section: string,
  measurement: string,
  value: number,
  floor: number,
  unit: string,
) {
  rows.push({
    section,
    measurement,
    value,
    baseline: floor,
    unit,
    ratio: value / floor,
    target: `≥ ${floor} ${unit}`,
    pass: value >= floor,
  });
}

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** The table's cells: a header and one row of strings per measurement. */
function cells(): { head: string[]; body: string[][] } {
  const head = ["section", "measurement", "value", "baseline", "ratio", "target", "result"];
  const body = rows.map((r) => [
    r.section,
    r.measurement,
    `${fmt(r.value)} ${r.unit}`,
    `${fmt(r.baseline)} ${r.unit}`,
    `${r.ratio.toFixed(2)}×`,
    r.target,
    r.pass === null ? "-" : r.pass ? "pass" : "FAIL",
  ]);
  return { head, body };
}

export function printTable(): void {
  const { head, body } = cells();
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(
      "  ",
    );
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const b of body) console.log(line(b));
}

/**
 * The table as the Markdown page bench/RESULTS.md: what ran, on what, and
 * every row. The bench writes it itself; nobody edits it by hand.
 */
export function resultsMarkdown(meta: {
  date: string;
  cpus: number;
  model?: string;
  bun?: string;
  seconds: number;
  sections: string[];
}): string {
  const { head, body } = cells();
  const esc = (c: string) => c.replace(/\|/g, "\\|").trim();
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand. Each ratio",
    "compares xcsh with a baseline measured in the same run; on a shared machine",
    "read the ratios, not the absolute milliseconds.",
    "",
    `- date: ${meta.date}`,
    `- machine: ${meta.cpus} cores${meta.model ? `, ${meta.model.trim()}` : ""}; Bun ${
      meta.bun ?? "?"
    }`,
    `- sections: ${meta.sections.join(", ")} (${meta.seconds.toFixed(0)} s)`,
    "",
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i >= 2 && i <= 4 ? "---:" : "---")).join("|")}|`,
    ...body.map((b) => `| ${b.map(esc).join(" | ")} |`),
    "",
    ...(notes.length > 0 ? [...notes.map((n) => `- ${n}`), ""] : []),
  ];
  return lines.join("\n");
}
