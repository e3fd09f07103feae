/**
 * Whether a failed model call is the provider saying the request passed the
 * model's context window, by the status and the text each API answers with:
 * - Anthropic: 400 `prompt is too long: 208000 tokens > 200000 maximum`, or
 *   "input length and `max_tokens` exceed context limit: …";
 * - OpenAI (Chat Completions and Responses): code `context_length_exceeded`
 *   ("This model's maximum context length is …" / "Your input exceeds the
 *   context window of this model");
 * - Gemini: 400 `The input token count (N) exceeds the maximum number of
 *   tokens allowed (M).`;
 * - vLLM and other OpenAI-compatible servers: 400 "This model's maximum
 *   context length is N tokens" or "… longer than the maximum model length
 *   … `max_model_len` …".
 * Ollama truncates silently instead and never answers with an error.
 *
 * @example
 * ```ts
 * isContextOverflow({ statusCode: 400, message: "prompt is too long: 208000 tokens > 200000 maximum" }); // true
 * isContextOverflow({ statusCode: 429, message: "rate limited" }); // false
 * ```
 *
 * @module
 */

const OVERFLOW_TEXTS: readonly RegExp[] = [
  /prompt is too long: \d+ tokens > \d+ maximum/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /context_length_exceeded/,
  /exceeds the context window of this model/i,
  /input token count \(?\d*\)? ?exceeds the maximum number of tokens allowed/i,
  /maximum context length is \d+ tokens/i,
  /longer than the maximum model length/i,
  /max_model_len/,
];

/**
 * True when `err` (an API call error: status, message, response body), or
 * the error it wraps (`cause`), is a context overflow.
 */
export function isContextOverflow(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as {
    statusCode?: unknown;
    message?: unknown;
    responseBody?: unknown;
    cause?: unknown;
  };
  if (e.statusCode !== 400 && e.statusCode !== 413) return isContextOverflow(e.cause, depth + 1);
  const text = `${typeof e.message === "string" ? e.message : ""}\n${
    typeof e.responseBody === "string" ? e.responseBody : ""
  }`;
  return OVERFLOW_TEXTS.some((re) => re.test(text));
}
