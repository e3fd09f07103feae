/**
 * Whether a failed model call means the provider refuses a forced tool
 * choice: an HTTP 400 whose message or body mentions `tool_choice` (or
 * "tool choice"). The loop then sends its reminder without forcing, and does
 * not force again for the rest of the task. Pure.
 *
 * @example
 * ```ts
 * rejectsToolChoice({ statusCode: 400, message: "tool_choice is not supported" }); // true
 * rejectsToolChoice({ statusCode: 500, message: "tool_choice" });                  // false
 * ```
 *
 * @module
 */

/** True when `err` is the provider refusing a tool choice. */
export function rejectsToolChoice(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { statusCode?: unknown; message?: unknown; responseBody?: unknown };
  if (e.statusCode !== 400) return false;
  const text = `${typeof e.message === "string" ? e.message : ""} ${
    typeof e.responseBody === "string" ? e.responseBody : ""
  }`;
  return /tool[_ ]?choice/i.test(text);
}
