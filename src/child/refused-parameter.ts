/**
 * Which optional request parameter a failed model call says the server
 * refuses: an HTTP 400 whose message or body names it. `tool_choice` (or
 * "tool choice") on any provider: the loop then reminds without forcing. On
 * OpenAI-compatible servers also the reasoning effort (or thinking, as
 * Ollama words it for a model that cannot think), `parallel_tool_calls`,
 * `strict` and `stream_options`: the call is tried once more without it, and
 * it stays off for the rest of the task. The tools themselves are never
 * dropped. Pure.
 *
 * @example
 * ```ts
 * refusedParameter({ statusCode: 400, message: "tool_choice is not supported" }); // "tool_choice"
 * refusedParameter({ statusCode: 400, message: '"llama3.2" does not support thinking' });
 * // "reasoning_effort"
 * refusedParameter({ statusCode: 500, message: "tool_choice" });                  // undefined
 * ```
 *
 * @module
 */
import type { OptionalParameter } from "../model/capabilities.ts";

/** What names each parameter in an error text, most specific first. */
const NAMES: readonly [OptionalParameter, RegExp][] = [
  ["tool_choice", /tool[_ ]?choice/i],
  ["parallel_tool_calls", /parallel[_ ]?tool[_ ]?calls/i],
  ["stream_options", /stream[_ ]?options|include[_ ]?usage/i],
  [
    "reasoning_effort",
    /reasoning[_ ]?effort|reasoning value|support(?:s)? thinking|thinking is not supported|think(?:ing)? (?:is )?not supported/i,
  ],
  ["strict", /\bstrict\b/i],
];

/** The parameter a 400 names, when it names one. */
export function refusedParameter(err: unknown): OptionalParameter | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { statusCode?: unknown; message?: unknown; responseBody?: unknown };
  if (e.statusCode !== 400) return undefined;
  const text = `${typeof e.message === "string" ? e.message : ""} ${
    typeof e.responseBody === "string" ? e.responseBody : ""
  }`;
  return NAMES.find(([, re]) => re.test(text))?.[0];
}
