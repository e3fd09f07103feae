/**
 * The model of an `openai-compatible` provider: a streamed Chat Completions
 * call (`POST {baseURL}/chat/completions`), spoken directly instead of
 * through the AI SDK's OpenAI-compatible package, whose schemas cost every
 * child several milliseconds of CPU to build and to check each chunk with.
 * The body is `chat-completions-request.ts`'s, the answer is read by
 * `chat-completions-stream.ts`. The key goes as `Authorization: Bearer`.
 *
 * A failed call throws the provider interface's `APICallError`, as the SDK
 * does, so that retries and refused parameters are decided the same way
 * (`model/retry.ts`, `child/refused-parameter.ts`): an HTTP error carries
 * its status, headers and body, and the message its JSON body names
 * (`{"error": {"message": …}}`, or Ollama's `{"error": "…"}`), else the
 * status text; a server that cannot be reached is retryable ("Cannot
 * connect to API: …"); an answer that breaks off while it is read carries
 * its 2xx status and the cause. An aborted call throws the abort's reason.
 *
 * @example
 * ```ts
 * const model = chatCompletionsModel({
 *   providerName: "ollama",
 *   baseURL: "http://127.0.0.1:11434/v1",
 *   model: "qwen3:8b",
 * });
 * model.modelId; // "qwen3:8b"
 * ```
 *
 * @module
 */
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { chatRequestBody } from "./chat-completions-request.ts";
import { ChatStreamReader } from "./chat-completions-stream.ts";

/** Where and how a provider's chat model is reached. */
export interface ChatModelSettings {
  /** The provider's name in the config (its options are `providerOptions[name]`). */
  providerName: string;
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Ask for usage in the stream (`stream_options`); false once the server refused it. */
  includeUsage?: boolean;
}

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** The message an error answer's body gives, else its status text. */
export function errorMessage(body: string, statusText: string): string {
  try {
    const doc = JSON.parse(body) as { error?: unknown; message?: unknown };
    const error = doc?.error;
    if (typeof error === "string" && error.trim() !== "") return error;
    if (typeof error === "object" && error !== null) {
      const message = (error as { message?: unknown }).message;
      if (typeof message === "string" && message.trim() !== "") return message;
    }
  } catch {
    // not JSON: the status text says it
  }
  return statusText || "the model server refused the call";
}

function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true ||
    (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError"));
}

/**
 * What a failed fetch or read of a call throws: the abort's reason when the
 * call was aborted, else a retryable call error saying `what` with the cause.
 */
function transportError(
  err: unknown,
  signal: AbortSignal | undefined,
  what: string,
  call: {
    url: string;
    requestBodyValues: unknown;
    statusCode?: number;
    responseHeaders?: Record<string, string>;
  },
): unknown {
  if (isAbort(err, signal)) return signal?.reason ?? err;
  const cause = err instanceof Error ? err : new Error(String(err));
  return new APICallError({
    message: `${what}: ${cause.message}`,
    cause,
    ...call,
    isRetryable: true,
  });
}

/** A chat model of an OpenAI-compatible server. */
export function chatCompletionsModel(s: ChatModelSettings): LanguageModelV4 {
  const url = `${s.baseURL.replace(/\/+$/, "")}/chat/completions`;
  const doStream = async (o: LanguageModelV4CallOptions) => {
    const body = chatRequestBody(s.model, o, {
      providerName: s.providerName,
      includeUsage: s.includeUsage ?? true,
    });
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}),
          ...o.headers,
        } as Record<string, string>,
        body: JSON.stringify(body),
        signal: o.abortSignal,
      });
    } catch (err) {
      throw transportError(err, o.abortSignal, "Cannot connect to API", {
        url,
        requestBodyValues: body,
      });
    }
    const responseHeaders = headersOf(res);
    if (!res.ok) {
      const text = await res.text().catch(() => "");
      throw new APICallError({
        message: errorMessage(text, res.statusText),
        url,
        requestBodyValues: body,
        statusCode: res.status,
        responseHeaders,
        responseBody: text,
      });
    }
    if (res.body === null) {
      throw new APICallError({
        message: "the model server's answer has no body",
        url,
        requestBodyValues: body,
        statusCode: res.status,
        responseHeaders,
      });
    }
    const source = res.body.getReader();
    const decoder = new TextDecoder();
    const reader = new ChatStreamReader();
    let started = false;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue({ type: "stream-start", warnings: [] });
        }
        for (;;) {
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await source.read();
          } catch (err) {
            throw transportError(err, o.abortSignal, "the answer broke off", {
              url,
              requestBodyValues: body,
              statusCode: res.status,
              responseHeaders,
            });
          }
          const parts = next.done
            ? [...reader.push(decoder.decode()), ...reader.end()]
            : reader.push(decoder.decode(next.value, { stream: true }));
          for (const p of parts) controller.enqueue(p);
          if (next.done) {
            controller.close();
            return;
          }
          if (parts.length > 0) return;
        }
      },
      cancel(reason) {
        return source.cancel(reason);
      },
    });
    return { stream, request: { body }, response: { headers: responseHeaders } };
  };
  return {
    specificationVersion: "v4",
    provider: `${s.providerName}.chat`,
    modelId: s.model,
    supportedUrls: {},
    doGenerate: () => {
      throw new Error("xcsh streams every call: doGenerate is not used");
    },
    doStream,
  };
}
