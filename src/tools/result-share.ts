/**
 * How much of one tool result the model reads inline. A result never takes
 * more than {@link RESULT_SHARE} of the model's context window (at
 * {@link CHARS_PER_TOKEN} characters a token; an unknown window counts as
 * {@link DEFAULT_WINDOW_TOKENS}), and never more than
 * {@link MAX_INLINE_CHARS} whatever the window. A longer result keeps its
 * head (two thirds of the room) and its tail (the rest: where a command's
 * errors are) around a notice naming the file that holds it whole, to be
 * read in parts with `read`. A result a tool already cut itself (bash keeps
 * head and tail, MCP results stop at 100 000 characters) gets the same
 * notice. Pure: the caller saves the file.
 *
 * @example
 * ```ts
 * inlineLimit(200_000); // 96000
 * cutToShare("x".repeat(10), 6, "/a/f.txt").text;
 * // "xxxx\n[… 4 of 10 characters cut: the whole result is in /a/f.txt; read it in parts with `read` (start_line, end_line) …]\nxx"
 * ```
 *
 * @module
 */

/** The share of the window one tool result may take. */
export const RESULT_SHARE = 0.12;
/** Characters counted per token. */
export const CHARS_PER_TOKEN = 4;
/** The window assumed when the model's is unknown. */
export const DEFAULT_WINDOW_TOKENS = 128_000;
/** The most any result is shown inline (the `read` tool's own cap). */
export const MAX_INLINE_CHARS = 256 * 1024;
/** The least room a result gets, however small the window. */
export const MIN_INLINE_CHARS = 2_000;

/** The characters one tool result may take inline for a window of `windowTokens`. */
export function inlineLimit(windowTokens: number | undefined): number {
  const tokens = windowTokens !== undefined && windowTokens > 0
    ? windowTokens
    : DEFAULT_WINDOW_TOKENS;
  const share = Math.floor(tokens * RESULT_SHARE * CHARS_PER_TOKEN);
  return Math.max(MIN_INLINE_CHARS, Math.min(MAX_INLINE_CHARS, share));
}

/** Whether a result must be kept whole elsewhere: over `limit`, or cut by its tool. */
export function needsSpill(output: string, limit: number, full?: string): boolean {
  return output.length > limit || (full !== undefined && full !== output);
}

/** Where the whole result went: its path, or why it could not be saved. */
export type Kept = { path: string } | { error: string };

function where(kept: Kept): string {
  return "path" in kept
    ? `the whole result is in ${kept.path}; read it in parts with \`read\` (start_line, end_line)`
    : `the whole result could not be kept (${kept.error})`;
}

/**
 * `output` as the model reads it: itself when it fits and nothing was cut
 * before; else at most `limit` characters of it (head and tail) and a
 * notice saying where the whole result is (`total`: its length).
 */
export function cutToShare(
  output: string,
  limit: number,
  kept: Kept | string,
  total = output.length,
): { text: string; cut: boolean } {
  const k: Kept = typeof kept === "string" ? { path: kept } : kept;
  if (output.length <= limit) {
    if (total === output.length) return { text: output, cut: false };
    return { text: `${output}\n[${total} characters in all: ${where(k)}]`, cut: true };
  }
  const head = Math.ceil(limit * 2 / 3);
  const tail = limit - head;
  const notice = `[… ${output.length - limit} of ${total} characters cut: ${where(k)} …]`;
  return {
    text: `${output.slice(0, head)}\n${notice}\n${
      tail > 0 ? output.slice(output.length - tail) : ""
    }`,
    cut: true,
  };
}
