/**
 * What an Ollama server says about one of its models: `POST /api/show`
 * answers `capabilities` (`completion`, `tools`, `thinking`, …), which tell
 * whether the model can think and call tools, and `model_info` with the
 * model's context window (`<family>.context_length`). The answer is kept per server
 * and model for the life of the process; a server that does not answer (or
 * is not Ollama) tells nothing, and the run goes on without the facts.
 *
 * @example
 * ```ts
 * await ollamaFacts("http://127.0.0.1:11434/v1", "llama3.2"); // { thinking: false, tools: true }
 * ```
 *
 * @module
 */
import type { ServerFacts } from "./capabilities.ts";

/** The facts in an `/api/show` answer; undefined when it lists no capabilities and no window. */
export function factsFromShow(body: unknown): ServerFacts | undefined {
  const caps = (body as { capabilities?: unknown } | null)?.capabilities;
  const window = windowFromShow(body);
  const withWindow = window !== undefined ? { contextWindow: window } : {};
  if (!Array.isArray(caps) || !caps.every((c) => typeof c === "string")) {
    return window !== undefined ? withWindow : undefined;
  }
  return { thinking: caps.includes("thinking"), tools: caps.includes("tools"), ...withWindow };
}

/** The server's root: the OpenAI-compatible base URL without its `/v1`. */
export function ollamaRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

const known = new Map<string, Promise<ServerFacts | undefined>>();

/** Asks the server once per process; resolves undefined when it cannot tell. */
export function ollamaFacts(
  baseURL: string,
  model: string,
  opts: { apiKey?: string; timeoutMs?: number } = {},
): Promise<ServerFacts | undefined> {
  const root = ollamaRoot(baseURL);
  const key = `${root}\n${model}`;
  let found = known.get(key);
  if (!found) {
    found = fetch(`${root}/api/show`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    }).then(
      async (res) => (res.ok ? factsFromShow(await res.json().catch(() => undefined)) : undefined),
      () => undefined,
    );
    known.set(key, found);
  }
  return found;
}

/** The context window in an `/api/show` answer (`model_info.<family>.context_length`). */
export function windowFromShow(body: unknown): number | undefined {
  const info = (body as { model_info?: unknown } | null)?.model_info;
  if (!info || typeof info !== "object") return undefined;
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith(".context_length") && typeof value === "number" && value > 0) return value;
  }
  return undefined;
}
