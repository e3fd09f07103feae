/**
 * Which form `xcsh run` prints its outcome in: `text` (the default: a task's
 * data or text), `json` (one document at the end; `--json` is its short
 * form) or `stream-json` (JSON Lines as the run goes, see stream-json.ts).
 * Pure.
 *
 * @example
 * ```ts
 * outputFormat(undefined, true);          // { ok: true, value: "json" }
 * outputFormat("stream-json", undefined); // { ok: true, value: "stream-json" }
 * outputFormat("yaml", undefined).ok;     // false
 * ```
 *
 * @module
 */

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/** `--output-format` and `--json` together: one format, or why not. */
export function outputFormat(
  flag: string | undefined,
  json: boolean | undefined,
): { ok: true; value: OutputFormat } | { ok: false; message: string } {
  if (flag === undefined) return { ok: true, value: json ? "json" : "text" };
  if (!(OUTPUT_FORMATS as readonly string[]).includes(flag)) {
    return {
      ok: false,
      message: `--output-format: expected ${OUTPUT_FORMATS.join(", ")}, got "${flag}"`,
    };
  }
  if (json && flag !== "json") {
    return { ok: false, message: `--json means --output-format json; it cannot go with ${flag}` };
  }
  return { ok: true, value: flag as OutputFormat };
}
