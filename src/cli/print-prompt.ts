/**
 * The prompt of `xcsh -p`, as Claude Code's headless mode reads it: the
 * argument's words, then what came on stdin, one line apart; either alone
 * is the whole prompt. Pure.
 *
 * @example
 * ```ts
 * printPrompt(["summarize"], "log line\n"); // "summarize\nlog line\n"
 * printPrompt([], "explain this");          // "explain this"
 * ```
 *
 * @module
 */

/** The words and stdin joined; `""` when both are empty. */
export function printPrompt(words: readonly string[], stdin: string): string {
  return [words.join(" "), stdin].filter((s) => s.trim() !== "").join("\n");
}
