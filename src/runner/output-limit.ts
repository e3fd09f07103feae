/**
 * How much of a task's output goes into a summary.
 *
 * Decides the cut: text over 500 KB or 5 000 lines keeps its tail (the end of
 * a long output is where results and errors are) behind a one-line notice;
 * the full text is saved to an artifacts folder by the caller. Pure.
 *
 * @example
 * ```ts
 * truncateTail("a\nb\nc", { maxBytes: 100, maxLines: 2 });
 * // { text: "[… 1 line cut …]\nb\nc", truncated: true }
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";

export const MAX_SUMMARY_BYTES = 500 * 1024;
export const MAX_SUMMARY_LINES = 5000;

export interface Truncated {
  text: string;
  truncated: boolean;
}

/** Keeps the tail of `text` within both limits. */
export function truncateTail(
  text: string,
  limits: { maxBytes: number; maxLines: number } = {
    maxBytes: MAX_SUMMARY_BYTES,
    maxLines: MAX_SUMMARY_LINES,
  },
): Truncated {
  const bytes = Buffer.byteLength(text, "utf8");
  let lines = text.split("\n");
  if (bytes <= limits.maxBytes && lines.length <= limits.maxLines) {
    return { text, truncated: false };
  }
  const total = lines.length;
  if (lines.length > limits.maxLines) lines = lines.slice(lines.length - limits.maxLines);
  let kept = lines.join("\n");
  if (Buffer.byteLength(kept, "utf8") > limits.maxBytes) {
    const buf = Buffer.from(kept, "utf8");
    let start = buf.length - limits.maxBytes;
    while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
    kept = buf.subarray(start).toString("utf8");
    const nl = kept.indexOf("\n");
    if (nl >= 0 && nl < kept.length - 1) kept = kept.slice(nl + 1);
  }
  const cut = total - kept.split("\n").length;
  return {
    text: `[… ${cut} line${cut === 1 ? "" : "s"} cut; full output saved …]\n${kept}`,
    truncated: true,
  };
}
