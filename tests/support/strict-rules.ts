/**
 * What the scripted model server refuses, as the real APIs refuse it: per
 * wire format, the request rules of each provider, each with its source,
 * answered with the provider's own error text (HTTP 400). The rules are
 * written from the providers' documentation and API types, on purpose not
 * from xcsh's own capability table (`src/model/capabilities.ts`): the tests
 * compare two statements of the same facts.
 *
 * Also the opaque tokens a provider issues and wants back unchanged:
 * Anthropic thinking signatures, OpenAI encrypted reasoning, Gemini thought
 * signatures. {@link StrictState} remembers what was issued; a request that
 * sends one back altered, or one never issued, is refused.
 *
 * Tool calls paired with their results are checked by `strict-pairing.ts`.
 *
 * Sources, by short name in the comments below:
 * - [anthropic-api]: Anthropic Messages API reference (POST /v1/messages) and
 *   the request types of the official `@anthropic-ai/sdk` (MessageCreateParams).
 * - [anthropic-thinking]: Anthropic's "Building with extended thinking" guide
 *   (budgets, max_tokens, tool_choice limits, signatures) and "Effort".
 * - [anthropic-caching]: Anthropic's "Prompt caching" guide (at most 4 breakpoints).
 * - [openai-responses]: OpenAI's OpenAPI document, CreateResponse, and its
 *   reasoning guide (efforts per model, encrypted reasoning with store:false).
 * - [openai-chat]: OpenAI's OpenAPI document, CreateChatCompletionRequest.
 * - [ollama]: Ollama's API docs (/api/show capabilities; OpenAI compatibility)
 *   and its error texts.
 * - [gemini-api]: Gemini API reference, models.generateContent
 *   (GenerateContentRequest, GenerationConfig, ThinkingConfig, Schema).
 * - [gemini-thinking]: Gemini's "Thinking" and "Thought signatures" guides.
 * - [anthropic-tools]: Anthropic's "How to implement tool use" guide (tool
 *   names, `tool_result` placement and `is_error`) and the Messages API's
 *   request schema (`tool_use.id` pattern `^[a-zA-Z0-9_-]+$`, text blocks).
 * - [openai-function-calling]: OpenAI's function-calling guide and the
 *   OpenAPI document (function names `^[a-zA-Z0-9_-]{1,64}$`, `call_id` at
 *   most 64 characters, item ids `fc_…`/`rs_…`, reasoning items followed by
 *   their output item, reasoning models refusing `temperature`/`top_p`).
 * - [gemini-functions]: Gemini's "Function calling" guide and the
 *   FunctionDeclaration / FunctionCallingConfig reference (names,
 *   `allowedFunctionNames` with mode ANY, `parameters` xor
 *   `parametersJsonSchema`).
 * - [openai-verbosity]: `text.verbosity` as measured against the Responses
 *   API: enricoros/big-AGI issues #947 (each model of /v1/models sent low,
 *   medium and high) and #930 (the `-chat-latest` models), and
 *   theopenco/llmgateway PR #2989 (the Codex models); the refusal's wording
 *   is the API's, as quoted there.
 * - [context-limits]: each provider's answer to a request past the model's
 *   context window (see {@link contextWindowRefusal}).
 *
 * @module
 */

export type WireFormat = "openai" | "anthropic" | "google" | "responses";

/** A refusal: the HTTP status and the provider's error fields. */
export interface Refusal {
  status: number;
  message: string;
  /** OpenAI's `param`, when the provider names one. */
  param?: string;
  /** OpenAI's `code`. */
  code?: string;
}

/** An Ollama-shaped model the server knows: what `/api/show` answers. */
export interface OllamaModel {
  capabilities: string[];
  /** `model_info.<family>.context_length`. */
  contextLength?: number;
}

/** How strict the server is. */
export interface StrictOptions {
  /** The OpenAI organisation is verified (reasoning summaries allowed). Default false. */
  verifiedOrganization?: boolean;
  /** Models served the Ollama way, by id: `/api/show` answers them, and
   * chat requests for them follow Ollama's rules. */
  ollama?: Record<string, OllamaModel>;
  /** The model's context window: a longer request is refused ({@link contextWindowRefusal}). */
  contextWindow?: ContextWindowRule;
}

/** A context window the server enforces; `server: "vllm"` answers an OpenAI-format request as vLLM does. */
export interface ContextWindowRule {
  tokens: number;
  server?: "vllm";
}

/** The opaque tokens issued so far. */
export class StrictState {
  /** Anthropic thinking signature → the thinking text it signs. */
  readonly thinking = new Map<string, string>();
  /** Anthropic redacted_thinking data issued. */
  readonly redacted = new Set<string>();
  /** OpenAI reasoning item id → its encrypted_content. */
  readonly encrypted = new Map<string, string>();
  /** Gemini thought signatures issued. */
  readonly thoughts = new Set<string>();
  private n = 0;

  /** A fresh opaque token (base64, like the real ones). */
  token(kind: string): string {
    const raw = `${kind}:${++this.n}:${Math.random().toString(36).slice(2)}:${Date.now()}`;
    return Buffer.from(raw).toString("base64");
  }
}

// deno-lint-ignore no-explicit-any
type Json = any;

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The refusal for the first failing rule, or undefined when the request passes. */
export function strictRefusal(
  format: WireFormat,
  body: Json,
  model: string,
  state: StrictState,
  opts: StrictOptions,
): Refusal | undefined {
  if (!isObject(body)) return { status: 400, message: "the request body must be a JSON object" };
  switch (format) {
    case "anthropic":
      return anthropicRules(body, state);
    case "responses":
      return responsesRules(body, state, opts);
    case "openai":
      return chatRules(body, opts);
    case "google":
      return geminiRules(body, model, state);
  }
}

// ---- Anthropic Messages ---------------------------------------------------------

/** [anthropic-api] MessageCreateParams fields. */
const ANTHROPIC_FIELDS = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "stream",
  "metadata",
  "stop_sequences",
  "temperature",
  "top_k",
  "top_p",
  "output_config",
  "service_tier",
  "container",
  "mcp_servers",
  "context_management",
  "inference_geo",
  "cache_control",
]);

/** `claude-<family>-<major>[-<minor>]` or `claude-<major>-<minor>-<family>`, as one number (4.6 → 406). */
function claudeAt(model: string): number | undefined {
  const m = /^claude-[a-z]+-(\d+)(?:-(\d{1,2}))?(?=$|[-@])/.exec(model) ??
    /^claude-(\d+)-(\d{1,2})-[a-z]+/.exec(model);
  return m ? Number(m[1]) * 100 + Number(m[2] ?? 0) : undefined;
}

/** [anthropic-api] models overview: the most output tokens of the models named there. */
function claudeMaxOutput(model: string): number | undefined {
  const at = claudeAt(model);
  if (at === undefined) return undefined;
  if (/^claude-opus-4(?:-[01])?(?=$|-)/.test(model) && at < 405) return 32000;
  if (at >= 406) return 128000;
  if (at >= 307) return 64000;
  return 8192;
}

function anthropicRules(body: Json, state: StrictState): Refusal | undefined {
  const bad = (message: string): Refusal => ({ status: 400, message });
  for (const k of Object.keys(body)) {
    if (!ANTHROPIC_FIELDS.has(k)) return bad(`${k}: Extra inputs are not permitted`);
  }
  if (body.max_tokens === undefined) return bad("max_tokens: Field required");
  // [anthropic-api] field types.
  if (!Number.isInteger(body.max_tokens)) return bad("max_tokens: Input should be a valid integer");
  if (body.max_tokens < 1) return bad("max_tokens: Input should be greater than or equal to 1");
  if (typeof body.model !== "string") return bad("model: Input should be a valid string");
  if (!Array.isArray(body.messages)) return bad("messages: Input should be a valid list");
  if (body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system)) {
    return bad("system: Input should be a valid string");
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    return bad("stream: Input should be a valid boolean");
  }
  if (
    body.tool_choice !== undefined &&
    !["auto", "any", "tool", "none"].includes(body.tool_choice?.type)
  ) {
    return bad(
      "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
    );
  }
  const model = String(body.model ?? "");
  const at = claudeAt(model);
  const limit = claudeMaxOutput(model);
  if (limit !== undefined && body.max_tokens > limit) {
    return bad(
      `max_tokens: ${body.max_tokens} > ${limit}, which is the maximum allowed number of ` +
        `output tokens for ${model}`,
    );
  }
  const thinking = body.thinking;
  const thinkingOn = isObject(thinking) &&
    (thinking.type === "enabled" || thinking.type === "adaptive");
  if (isObject(thinking)) {
    if (!["enabled", "disabled", "adaptive"].includes(thinking.type)) {
      return bad(
        "thinking: Input tag does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'",
      );
    }
    if (thinking.type === "enabled") {
      // [anthropic-thinking] budget_tokens ≥ 1024 and below max_tokens.
      if (!Number.isInteger(thinking.budget_tokens) || thinking.budget_tokens < 1024) {
        return bad("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
      }
      if (thinking.budget_tokens >= body.max_tokens) {
        return bad(
          "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our " +
            "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size",
        );
      }
    }
    // [anthropic-thinking] adaptive thinking came with Claude Opus 4.6 / Sonnet 4.6.
    if (thinking.type === "adaptive" && at !== undefined && at < 406) {
      return bad(`adaptive thinking is not supported on this model (${model})`);
    }
  }
  const effort = body.output_config?.effort;
  if (effort !== undefined) {
    // [anthropic-thinking] Effort: low, medium, high, max; xhigh from Claude Opus 4.7.
    const efforts = [
      "low",
      "medium",
      "high",
      "max",
      ...(at === undefined || at >= 407 ? ["xhigh"] : []),
    ];
    if (!efforts.includes(effort)) {
      return bad(
        `output_config.effort: Input should be ${efforts.map((e) => `'${e}'`).join(", ")}`,
      );
    }
    if (at !== undefined && at < 405) {
      return bad(`This model does not support the effort parameter.`);
    }
  }
  // [anthropic-thinking] "Tool use with thinking only supports tool_choice auto or none."
  if (thinkingOn && isObject(body.tool_choice) && ["any", "tool"].includes(body.tool_choice.type)) {
    return bad("Thinking may not be enabled when tool_choice forces tool use.");
  }
  // [anthropic-caching] at most four cache_control breakpoints per request.
  const marks = countKey(body.tools, "cache_control") + countKey(body.system, "cache_control") +
    countKey(body.messages, "cache_control") + (body.cache_control ? 1 : 0);
  if (marks > 4) {
    return bad(`A maximum of 4 blocks with cache_control may be provided. Found ${marks}.`);
  }
  // [anthropic-thinking] thinking blocks go back exactly as they came, signature included.
  const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]?.content;
    if (!Array.isArray(content)) continue;
    for (let j = 0; j < content.length; j++) {
      const block = content[j];
      if (block?.type === "thinking") {
        if (state.thinking.get(block.signature) !== block.thinking) {
          return bad(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
        }
      } else if (block?.type === "redacted_thinking" && !state.redacted.has(block.data)) {
        return bad(`messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
    }
  }
  const problem = anthropicToolNames(body) ?? anthropicIds(messages) ??
    anthropicTextBlocks(body.system, messages) ?? anthropicToolResults(messages) ??
    anthropicSamplingWithThinking(body, thinkingOn) ??
    anthropicLeadingThinking(messages, thinking?.type === "enabled");
  return problem === undefined ? undefined : bad(problem);
}

/** [anthropic-tools] custom tool names match `^[a-zA-Z0-9_-]{1,128}$`. */
function anthropicToolNames(body: Json): string | undefined {
  const tools: Json[] = Array.isArray(body.tools) ? body.tools : [];
  for (let i = 0; i < tools.length; i++) {
    const name = tools[i]?.name;
    if (typeof name !== "string" || !/^[a-zA-Z0-9_-]{1,128}$/.test(name)) {
      return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    }
  }
  return undefined;
}

/** [anthropic-tools] `tool_use.id` and `tool_result.tool_use_id` match `^[a-zA-Z0-9_-]+$`. */
function anthropicIds(messages: Json[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const content = Array.isArray(messages[i]?.content) ? messages[i].content : [];
    for (let j = 0; j < content.length; j++) {
      const b = content[j];
      const [field, id] = b?.type === "tool_use"
        ? ["tool_use.id", b.id]
        : b?.type === "tool_result"
        ? ["tool_result.tool_use_id", b.tool_use_id]
        : [undefined, undefined];
      if (field && (typeof id !== "string" || !/^[a-zA-Z0-9_-]+$/.test(id))) {
        return `messages.${i}.content.${j}.${field}: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      }
    }
  }
  return undefined;
}

/**
 * [anthropic-api] text blocks, in messages (tool results' content included)
 * and in the system prompt, hold non-whitespace text.
 */
function anthropicTextBlocks(system: Json, messages: Json[]): string | undefined {
  const check = (blocks: Json[], at: string): string | undefined => {
    for (const b of blocks) {
      if (b?.type !== "text") continue;
      if (typeof b.text !== "string" || b.text === "") {
        return `${at}: text content blocks must be non-empty`;
      }
      if (b.text.trim() === "") {
        return `${at}: text content blocks must contain non-whitespace text`;
      }
    }
    return undefined;
  };
  if (typeof system === "string" && system.trim() === "" && system !== "") {
    return "system: text content blocks must contain non-whitespace text";
  }
  const inSystem = Array.isArray(system) ? check(system, "system") : undefined;
  if (inSystem) return inSystem;
  for (const m of messages) {
    if (typeof m?.content === "string") {
      if (m.content.trim() === "") {
        return "messages: text content blocks must contain non-whitespace text";
      }
      continue;
    }
    const content: Json[] = Array.isArray(m?.content) ? m.content : [];
    const own = check(content, "messages");
    if (own) return own;
    for (const b of content) {
      if (b?.type === "tool_result" && Array.isArray(b.content)) {
        const inner = check(b.content, "messages");
        if (inner) return inner;
      }
    }
  }
  return undefined;
}

/**
 * [anthropic-tools] in a user message, `tool_result` blocks come before any
 * other block; an `is_error` result carries content.
 */
function anthropicToolResults(messages: Json[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const content: Json[] = Array.isArray(messages[i]?.content) ? messages[i].content : [];
    let other = false;
    for (let j = 0; j < content.length; j++) {
      const b = content[j];
      if (b?.type !== "tool_result") {
        other = true;
        continue;
      }
      if (other) {
        return `messages.${i}.content.${j}: tool_result blocks must come first in the ` +
          "content array, before any other block";
      }
      const empty = b.content === undefined || b.content === "" ||
        (Array.isArray(b.content) && b.content.length === 0);
      if (b.is_error === true && empty) {
        return `messages.${i}.content.${j}: content cannot be empty if \`is_error\` is true`;
      }
    }
  }
  return undefined;
}

/**
 * [anthropic-thinking] thinking is not compatible with `temperature` or
 * `top_k` changes; `top_p` may only be set between 0.95 and 1.
 */
function anthropicSamplingWithThinking(body: Json, thinkingOn: boolean): string | undefined {
  if (!thinkingOn) return undefined;
  if (body.temperature !== undefined && body.temperature !== 1) {
    return "`temperature` may only be set to 1 when thinking is enabled. Please consult our " +
      "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility";
  }
  if (body.top_k !== undefined) {
    return "`top_k` is not supported when thinking is enabled. Please consult our " +
      "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility";
  }
  if (body.top_p !== undefined && (body.top_p < 0.95 || body.top_p > 1)) {
    return "`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled. " +
      "Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility";
  }
  return undefined;
}

/**
 * [anthropic-thinking] "Toggling thinking modes in conversations": with
 * budget thinking on, a request that ends inside a tool loop (its last
 * message holds `tool_result` blocks) wants the last assistant message,
 * whoever wrote it, to start with a thinking block. Adaptive thinking
 * (interleaved) does not ask this.
 */
function anthropicLeadingThinking(messages: Json[], budget: boolean): string | undefined {
  if (!budget) return undefined;
  const last = messages.at(-1);
  const results = last?.role === "user" && Array.isArray(last.content) &&
    last.content.some((b: Json) => b?.type === "tool_result");
  if (!results) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const content: Json[] = Array.isArray(m.content) ? m.content : [];
    if (!content.some((b) => b?.type === "tool_use")) return undefined;
    const first = content[0]?.type;
    if (first === "thinking" || first === "redacted_thinking") return undefined;
    return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, ` +
      `but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message ` +
      "must start with a thinking block (preceeding the lastmost set of `tool_use` and " +
      "`tool_result` blocks). We recommend you include thinking blocks from previous turns. To " +
      "avoid this requirement, disable `thinking`. Please consult our documentation at " +
      "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
  }
  return undefined;
}

/** How many objects under `v` carry `key`. */
function countKey(v: unknown, key: string): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countKey(x, key), 0);
  if (!isObject(v)) return 0;
  let n = key in v ? 1 : 0;
  for (const [k, x] of Object.entries(v)) if (k !== key) n += countKey(x, key);
  return n;
}

// ---- OpenAI Responses -----------------------------------------------------------

/** [openai-responses] CreateResponse fields. */
const RESPONSES_FIELDS = new Set([
  "background",
  "context_management",
  "conversation",
  "include",
  "input",
  "instructions",
  "max_output_tokens",
  "max_tool_calls",
  "metadata",
  "model",
  "parallel_tool_calls",
  "previous_response_id",
  "prompt",
  "prompt_cache_key",
  "prompt_cache_retention",
  "reasoning",
  "safety_identifier",
  "service_tier",
  "store",
  "stream",
  "stream_options",
  "temperature",
  "text",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "truncation",
  "user",
]);

const ALL_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"];

/**
 * [openai-responses] reasoning guide and model pages: the efforts of the
 * models named there; undefined for an id they do not name (any effort of
 * the enum passes), `null` for a model that does not reason.
 */
function openaiEfforts(model: string): string[] | null | undefined {
  if (/^gpt-4/.test(model) || /^gpt-5(?:\.\d+)?-chat/.test(model)) return null;
  if (/^o[34](?:-mini)?$/.test(model) || /^o1$/.test(model)) return ["low", "medium", "high"];
  if (/^gpt-5(?:-mini|-nano)?$/.test(model)) return ["minimal", "low", "medium", "high"];
  if (/^gpt-5\.1(?:-mini)?$/.test(model)) return ["none", "low", "medium", "high"];
  if (/^gpt-5\.[2-5](?:-mini|-nano)?$/.test(model)) {
    return ["none", "low", "medium", "high", "xhigh"];
  }
  return undefined;
}

const VERBOSITIES = ["low", "medium", "high"];

/**
 * [openai-verbosity] `text.verbosity` is one of low, medium and high. The
 * GPT-5 models take all three (gpt-5, -mini, -nano, -pro, gpt-5.1 and later,
 * gpt-5.1-chat-latest and gpt-5.2-chat-latest among them); gpt-5-chat-latest,
 * the Codex models before gpt-5.3 and every model before GPT-5 (gpt-4.1,
 * gpt-4o, o3, …) take only medium and refuse the others.
 */
function responsesVerbosity(text: Json, model: string): Refusal | undefined {
  const v = isObject(text) ? text.verbosity : undefined;
  if (v === undefined || v === null) return undefined;
  if (!VERBOSITIES.includes(v)) {
    return {
      status: 400,
      message: `Invalid value: '${v}'. Supported values are: ${listed(VERBOSITIES)}.`,
      param: "text.verbosity",
      code: "invalid_value",
    };
  }
  const everyValue = /^gpt-(?:[5-9]|\d{2,})/.test(model) && !/^gpt-5-chat/.test(model) &&
    !/^gpt-5(?:\.[12])?-codex/.test(model);
  if (v === "medium" || everyValue) return undefined;
  return {
    status: 400,
    message: `Unsupported value: '${v}' is not supported with the '${model}' model. ` +
      "Supported values are: 'medium'.",
    param: "text.verbosity",
    code: "unsupported_value",
  };
}

/** OpenAI's answer to a field of the wrong JSON type, for the first such field. */
function openAITypes(
  body: Json,
  types: Record<string, "integer" | "boolean" | "string">,
): { message: string; param: string } | undefined {
  const kind = (v: unknown) =>
    Number.isInteger(v)
      ? "integer"
      : typeof v === "number"
      ? "number"
      : Array.isArray(v)
      ? "array"
      : v === null
      ? "null"
      : typeof v;
  for (const [field, want] of Object.entries(types)) {
    const v = body[field];
    if (v === undefined) continue;
    if (kind(v) !== want) {
      return {
        message:
          `Invalid type for '${field}': expected ${want === "integer" ? "an" : "a"} ${want}, ` +
          `but got ${kind(v) === "integer" || kind(v) === "array" ? "an" : "a"} ${
            kind(v)
          } instead.`,
        param: field,
      };
    }
  }
  return undefined;
}

/** "'a', 'b', and 'c'" as OpenAI lists supported values. */
function listed(values: string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length < 2 ? q.join("") : `${q.slice(0, -1).join(", ")}, and ${q[q.length - 1]}`;
}

function responsesRules(body: Json, state: StrictState, opts: StrictOptions): Refusal | undefined {
  const bad = (message: string, param?: string, code?: string): Refusal => ({
    status: 400,
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
  for (const k of Object.keys(body)) {
    if (!RESPONSES_FIELDS.has(k)) return bad(`Unknown parameter: '${k}'.`, k, "unknown_parameter");
  }
  // [openai-responses] field types; max_output_tokens is at least 16.
  const typed = openAITypes(body, {
    max_output_tokens: "integer",
    store: "boolean",
    stream: "boolean",
    prompt_cache_key: "string",
    model: "string",
  });
  if (typed) return bad(typed.message, typed.param, "invalid_type");
  if (body.max_output_tokens !== undefined && body.max_output_tokens < 16) {
    return bad(
      "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got " +
        `${body.max_output_tokens} instead.`,
      "max_output_tokens",
      "integer_below_min_value",
    );
  }
  const model = String(body.model ?? "");
  const reasoning = body.reasoning;
  if (reasoning !== undefined && reasoning !== null) {
    for (const k of Object.keys(reasoning)) {
      if (!["effort", "summary", "generate_summary"].includes(k)) {
        return bad(`Unknown parameter: 'reasoning.${k}'.`, `reasoning.${k}`, "unknown_parameter");
      }
    }
    const efforts = openaiEfforts(model);
    if (efforts === null) {
      return bad(
        "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
        "reasoning.effort",
        "unsupported_parameter",
      );
    }
    const effort = reasoning.effort;
    if (effort !== undefined && effort !== null && !(efforts ?? ALL_EFFORTS).includes(effort)) {
      return bad(
        efforts
          ? `Unsupported value: '${effort}' is not supported with the '${model}' model. ` +
            `Supported values are: ${listed(efforts)}.`
          : `Invalid value: '${effort}'. Supported values are: ${listed(ALL_EFFORTS)}.`,
        "reasoning.effort",
        "unsupported_value",
      );
    }
    // [openai-responses] reasoning summaries need a verified organisation.
    if ((reasoning.summary ?? reasoning.generate_summary) && !opts.verifiedOrganization) {
      return bad(
        "Your organization must be verified to generate reasoning summaries. Please go to: " +
          "https://platform.openai.com/settings/organization/general and click on Verify " +
          "Organization. If you just verified, it can take up to 15 minutes for access to propagate.",
        "reasoning.summary",
        "unsupported_value",
      );
    }
  }
  const verbosity = responsesVerbosity(body.text, model);
  if (verbosity) return verbosity;
  if (typeof body.prompt_cache_key === "string" && body.prompt_cache_key.length > 64) {
    return bad(
      "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, " +
        `but got a string with length ${body.prompt_cache_key.length} instead.`,
      "prompt_cache_key",
      "string_above_max_length",
    );
  }
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (tool?.type === "function" && tool.strict === true) {
      const problem = strictSchemaProblem(tool.parameters, "()") ??
        strictSchemaLimits(tool.parameters);
      if (problem) {
        return bad(
          `Invalid schema for function '${tool.name}': ${problem}`,
          "tools",
          "invalid_function_parameters",
        );
      }
    }
  }
  // [openai-responses] with store:false nothing is kept: a reasoning item comes
  // back with the encrypted content it was issued with, unchanged.
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  for (const item of input) {
    if (item?.type !== "reasoning") continue;
    const issued = state.encrypted.get(item.id);
    if (body.store === false && item.encrypted_content === undefined) {
      return bad(
        `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to ` +
          "false. Try again with `store` set to true, or remove this item from your input.",
        "input",
      );
    }
    if (item.encrypted_content !== undefined && item.encrypted_content !== issued) {
      return bad(
        `The encrypted content for item ${item.id} could not be verified.`,
        "input",
        "invalid_encrypted_content",
      );
    }
  }
  return openaiToolNames(body.tools, "tools", (t) => t?.name) ??
    openaiSamplingOnReasoning(body, model) ?? responsesItems(input);
}

/** [openai-function-calling] function names match `^[a-zA-Z0-9_-]{1,64}$`. */
function openaiToolNames(
  tools: Json,
  at: string,
  name: (t: Json) => unknown,
): Refusal | undefined {
  const list: Json[] = Array.isArray(tools) ? tools : [];
  for (let i = 0; i < list.length; i++) {
    if (list[i]?.type !== "function") continue;
    const n = name(list[i]);
    if (typeof n !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(n)) {
      return {
        status: 400,
        message: `Invalid '${at}[${i}].name': string does not match pattern. Expected a string ` +
          "that matches the pattern '^[a-zA-Z0-9_-]+$'.",
        param: `${at}[${i}].name`,
        code: "invalid_value",
      };
    }
  }
  return undefined;
}

/** [openai-function-calling] reasoning models refuse `temperature` and `top_p`. */
function openaiSamplingOnReasoning(body: Json, model: string): Refusal | undefined {
  const reasons = /^o\d/.test(model) || (/^gpt-5/.test(model) && !/-chat/.test(model));
  if (!reasons) return undefined;
  for (const p of ["temperature", "top_p"]) {
    if (body[p] !== undefined) {
      return {
        status: 400,
        message: `Unsupported parameter: '${p}' is not supported with this model.`,
        param: p,
        code: "unsupported_parameter",
      };
    }
  }
  return undefined;
}

/** An OpenAI `call_id` longer than 64 characters, as the API words it. */
function callIdTooLong(id: unknown, at: string): Refusal | undefined {
  if (typeof id !== "string" || id.length <= 64) return undefined;
  return {
    status: 400,
    message: `Invalid '${at}': string too long. Expected a string with maximum length 64, ` +
      `but got a string with length ${id.length} instead.`,
    param: at,
    code: "string_above_max_length",
  };
}

/**
 * [openai-function-calling] Responses input items: `call_id` at most 64
 * characters; a function call's item id begins with `fc`, a reasoning
 * item's with `rs`; a reasoning item is followed by the item it led to.
 */
function responsesItems(input: Json[]): Refusal | undefined {
  const prefix: Record<string, string> = { function_call: "fc", reasoning: "rs" };
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (item?.type === "function_call" || item?.type === "function_call_output") {
      const long = callIdTooLong(item.call_id, `input[${i}].call_id`);
      if (long) return long;
    }
    const want = prefix[item?.type];
    if (want && item.id !== undefined && !String(item.id).startsWith(want)) {
      return {
        status: 400,
        message:
          `Invalid 'input[${i}].id': '${item.id}'. Expected an ID that begins with '${want}'.`,
        param: `input[${i}].id`,
        code: "invalid_value",
      };
    }
    if (item?.type === "reasoning") {
      const next = input[i + 1];
      if (!next || next.type === "reasoning" || next.role === "user") {
        return {
          status: 400,
          message: `Item '${item.id}' of type 'reasoning' was provided without its required ` +
            "following item.",
          param: "input",
        };
      }
    }
  }
  return undefined;
}

/** [openai-responses] Structured Outputs: keywords strict mode refuses. */
const STRICT_REFUSED_KEYWORDS = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
  "prefixItems",
  "unevaluatedItems",
  "contains",
  "dependentRequired",
  "dependentSchemas",
];

/**
 * [openai-responses] Structured Outputs, "Supported schemas": no keyword of
 * {@link STRICT_REFUSED_KEYWORDS}; at most 5000 object properties in all, 10
 * levels of object nesting and 1000 enum values in all.
 */
function strictSchemaLimits(schema: Json): string | undefined {
  let properties = 0;
  let enums = 0;
  let deepest = 0;
  let keyword: string | undefined;
  const walk = (node: Json, depth: number): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth));
    if (!isObject(node)) return;
    keyword ??= STRICT_REFUSED_KEYWORDS.find((k) => k in node);
    if (Array.isArray(node.enum)) enums += node.enum.length;
    const props = isObject(node.properties) ? node.properties : undefined;
    const level = props ? depth + 1 : depth;
    deepest = Math.max(deepest, level);
    if (props) properties += Object.keys(props).length;
    for (const [k, v] of Object.entries(node)) {
      if (k === "properties" && props) Object.values(props).forEach((p) => walk(p, level));
      else if (k !== "enum" && k !== "const") walk(v, level);
    }
  };
  walk(schema, 0);
  if (keyword) return `In context=(), '${keyword}' is not permitted.`;
  if (properties > 5000) {
    return `The schema has ${properties} object properties; at most 5000 are permitted.`;
  }
  if (deepest > 10) return `The schema has ${deepest} levels of nesting; at most 10 are permitted.`;
  if (enums > 1000) return `The schema has ${enums} enum values; at most 1000 are permitted.`;
  return undefined;
}

/**
 * [openai-responses] Structured Outputs, "Supported schemas": in strict mode
 * every object sets `additionalProperties: false` and lists every property
 * in `required`.
 */
function strictSchemaProblem(schema: Json, at: string): string | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.type === "object" || isObject(schema.properties)) {
    if (schema.additionalProperties !== false) {
      return `In context=${at}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const props = Object.keys(schema.properties ?? {});
    const required: string[] = Array.isArray(schema.required) ? schema.required : [];
    const missing = props.find((p) => !required.includes(p));
    if (missing !== undefined) {
      return `In context=${at}, 'required' is required to be supplied and to be an array ` +
        `including every key in properties. Missing '${missing}'.`;
    }
    for (const p of props) {
      const inner = strictSchemaProblem(
        schema.properties[p],
        `${at.slice(0, -1)}${at === "()" ? "" : ", "}'properties', '${p}')`,
      );
      if (inner) return inner;
    }
  }
  for (const k of ["items", "anyOf", "$defs", "definitions"]) {
    const sub = schema[k];
    const subs = Array.isArray(sub)
      ? sub
      : isObject(sub)
      ? (k === "items" ? [sub] : Object.values(sub))
      : [];
    for (const s of subs) {
      const inner = strictSchemaProblem(s, at);
      if (inner) return inner;
    }
  }
  return undefined;
}

// ---- Chat Completions (OpenAI-compatible, Ollama) -------------------------------

/** [openai-chat] CreateChatCompletionRequest fields. */
const CHAT_FIELDS = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "reasoning_effort",
  "response_format",
  "seed",
  "stop",
  "user",
  "n",
  "frequency_penalty",
  "presence_penalty",
  "logprobs",
  "top_logprobs",
  "logit_bias",
  "metadata",
  "store",
  "service_tier",
  "prompt_cache_key",
  "modalities",
  "audio",
  "prediction",
  "verbosity",
  "web_search_options",
  "safety_identifier",
]);

function chatRules(body: Json, opts: StrictOptions): Refusal | undefined {
  const bad = (message: string, param?: string): Refusal => ({
    status: 400,
    message,
    ...(param ? { param } : {}),
  });
  for (const k of Object.keys(body)) {
    if (!CHAT_FIELDS.has(k)) return bad(`Unrecognized request argument supplied: ${k}`, k);
  }
  // [openai-chat] field types.
  const typed = openAITypes(body, {
    max_tokens: "integer",
    max_completion_tokens: "integer",
    stream: "boolean",
    model: "string",
  });
  if (typed) return bad(typed.message, typed.param);
  if (!Array.isArray(body.messages)) {
    return bad("Invalid type for 'messages': expected an array of objects.", "messages");
  }
  const model = String(body.model ?? "");
  const ollama = opts.ollama?.[model];
  const effort = body.reasoning_effort;
  if (ollama) {
    // [ollama] a model without the "thinking" capability refuses any think setting;
    // one with it takes high, medium, low or none.
    if (effort !== undefined && !ollama.capabilities.includes("thinking")) {
      return bad(`"${model}" does not support thinking`);
    }
    if (effort !== undefined && !["high", "medium", "low", "none"].includes(effort)) {
      return bad(
        `invalid reasoning value: '${effort}' (must be "high", "medium", "low", or "none")`,
      );
    }
    if (
      Array.isArray(body.tools) && body.tools.length > 0 && !ollama.capabilities.includes("tools")
    ) {
      return bad(`registry.ollama.ai/library/${model}:latest does not support tools`);
    }
    return undefined;
  }
  if (effort !== undefined && effort !== null && !ALL_EFFORTS.includes(effort)) {
    return bad(
      `Invalid value: '${effort}'. Supported values are: ${listed(ALL_EFFORTS)}.`,
      "reasoning_effort",
    );
  }
  return openaiToolNames(body.tools, "tools", (t) => t?.function?.name) ??
    chatCallIds(body.messages);
}

/** [openai-function-calling] chat tool-call ids at most 64 characters, calls and answers. */
function chatCallIds(messages: Json[]): Refusal | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const calls: Json[] = Array.isArray(m?.tool_calls) ? m.tool_calls : [];
    for (let j = 0; j < calls.length; j++) {
      const long = callIdTooLong(calls[j]?.id, `messages[${i}].tool_calls[${j}].id`);
      if (long) return long;
    }
    if (m?.role === "tool") {
      const long = callIdTooLong(m.tool_call_id, `messages[${i}].tool_call_id`);
      if (long) return long;
    }
  }
  return undefined;
}

// ---- Gemini generateContent -------------------------------------------------------

/** [gemini-api] GenerateContentRequest fields. */
const GEMINI_FIELDS = new Set([
  "contents",
  "tools",
  "toolConfig",
  "safetySettings",
  "systemInstruction",
  "generationConfig",
  "cachedContent",
  "labels",
  "serviceTier",
]);

/** [gemini-api] GenerationConfig fields. */
const GENERATION_FIELDS = new Set([
  "stopSequences",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "responseModalities",
  "candidateCount",
  "maxOutputTokens",
  "temperature",
  "topP",
  "topK",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
  "responseLogprobs",
  "logprobs",
  "enableEnhancedCivicAnswers",
  "speechConfig",
  "thinkingConfig",
  "imageConfig",
  "mediaResolution",
]);

/** [gemini-api] the OpenAPI Schema subset `parameters` and `responseSchema` take. */
const GEMINI_SCHEMA_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/**
 * [gemini-thinking] the thinking levels each model takes: Gemini 3 Pro low
 * and high (medium came with 3.1 Pro); Flash models also minimal. undefined:
 * the model takes no level (Gemini 2.x takes a budget).
 */
function geminiLevels(model: string): string[] | undefined {
  if (/^gemini-[12]\./.test(model)) return undefined;
  if (/^gemini-3-pro/.test(model)) return ["low", "high"];
  if (/flash/.test(model)) return ["minimal", "low", "medium", "high"];
  return ["low", "medium", "high"];
}

/**
 * [gemini-thinking] the `thinkingBudget` range of each 2.5 model (-1 is
 * dynamic; 0, off, is judged above): Pro 128–32768, Flash 1–24576,
 * Flash-Lite 512–24576.
 */
function geminiBudgetRange(model: string): [number, number] | undefined {
  if (/^gemini-2\.5-pro/.test(model)) return [128, 32768];
  if (/^gemini-2\.5-flash-lite/.test(model)) return [512, 24576];
  if (/^gemini-2\.5-flash/.test(model)) return [1, 24576];
  return undefined;
}

/** Gemini 3 and later want thought signatures back on their function calls. */
const wantsThoughtSignatures = (model: string) => !/^gemini-[12]\./.test(model);

function geminiRules(body: Json, model: string, state: StrictState): Refusal | undefined {
  const bad = (message: string): Refusal => ({ status: 400, message });
  for (const k of Object.keys(body)) {
    if (!GEMINI_FIELDS.has(k)) {
      return bad(`Invalid JSON payload received. Unknown name "${k}": Cannot find field.`);
    }
  }
  const gc = body.generationConfig ?? {};
  for (const k of Object.keys(gc)) {
    if (!GENERATION_FIELDS.has(k)) {
      return bad(
        `Invalid JSON payload received. Unknown name "${k}" at 'generation_config': Cannot find field.`,
      );
    }
  }
  // [gemini-api] GenerationConfig.maxOutputTokens is an int32.
  if (gc.maxOutputTokens !== undefined && !Number.isInteger(gc.maxOutputTokens)) {
    return bad(
      `Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), ${
        JSON.stringify(gc.maxOutputTokens)
      }`,
    );
  }
  const tc = gc.thinkingConfig;
  if (isObject(tc)) {
    for (const k of Object.keys(tc)) {
      if (!["includeThoughts", "thinkingBudget", "thinkingLevel"].includes(k)) {
        return bad(
          `Invalid JSON payload received. Unknown name "${k}" at 'generation_config.thinking_config': Cannot find field.`,
        );
      }
    }
    if (tc.thinkingBudget !== undefined && tc.thinkingLevel !== undefined) {
      return bad("You can only set only one of thinking budget and thinking level.");
    }
    if (tc.thinkingLevel !== undefined) {
      const levels = geminiLevels(model);
      const level = String(tc.thinkingLevel).toLowerCase();
      if (!levels) return bad("Thinking level is not supported for this model.");
      if (!levels.includes(level)) {
        return bad(`Thinking level ${level.toUpperCase()} is not supported for this model.`);
      }
    }
    // [gemini-thinking] 2.5 Pro cannot turn thinking off.
    if (tc.thinkingBudget === 0 && /^gemini-2\.5-pro/.test(model)) {
      return bad("Budget 0 is invalid. This model only works in thinking mode.");
    }
    const range = geminiBudgetRange(model);
    const b = tc.thinkingBudget;
    if (range && typeof b === "number" && b !== -1 && b !== 0 && (b < range[0] || b > range[1])) {
      return bad(
        `The thinking budget ${b} is invalid. Please choose a value between ` +
          `${range[0]} and ${range[1]}.`,
      );
    }
  }
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    for (const d of tool?.functionDeclarations ?? []) {
      const problem = geminiSchemaProblem(
        d.parameters,
        `function_declarations[${d.name}].parameters`,
      );
      if (problem) return bad(problem);
    }
  }
  const rs = geminiSchemaProblem(gc.responseSchema, "generation_config.response_schema");
  if (rs) return bad(rs);
  const fn = geminiFunctions(body);
  if (fn) return bad(fn);
  // [gemini-thinking] "Thought signatures": only the current turn is
  // validated — the model contents after the last user content that is not
  // function responses. There, signatures come back unchanged, and Gemini 3
  // wants the first function call of each step to carry its signature.
  const contents: Json[] = Array.isArray(body.contents) ? body.contents : [];
  for (const content of contents.slice(currentTurnStart(contents))) {
    if (content?.role !== "model") continue;
    const parts: Json[] = Array.isArray(content.parts) ? content.parts : [];
    let first = true;
    for (let p = 0; p < parts.length; p++) {
      const part = parts[p];
      if (
        part?.thoughtSignature !== undefined && !state.thoughts.has(part.thoughtSignature) &&
        !GEMINI_DUMMY_SIGNATURES.includes(part.thoughtSignature)
      ) {
        return bad("Corrupted thought signature.");
      }
      if (part?.functionCall) {
        if (first && wantsThoughtSignatures(model) && part.thoughtSignature === undefined) {
          return bad(
            "Function call is missing a thought_signature in functionCall parts. This is " +
              "required for tools to work correctly, and missing thought_signature may lead to " +
              "degraded model performance. Additional data, function call " +
              `\`default_api:${part.functionCall.name}\` , position ${p + 1}. Please refer to ` +
              "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
          );
        }
        first = false;
      }
    }
  }
  return undefined;
}

/**
 * [gemini-thinking] "Thought signatures", FAQ: the values a client may send
 * for a function call whose signature it does not have (history from another
 * model, or written by hand); validation is skipped for them.
 */
const GEMINI_DUMMY_SIGNATURES = [
  "context_engineering_is_the_way_to_go",
  "skip_thought_signature_validator",
];

/** Where the current turn begins: after the last user content with more than function responses. */
function currentTurnStart(contents: Json[]): number {
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i];
    if (c?.role !== "user") continue;
    const parts: Json[] = Array.isArray(c.parts) ? c.parts : [];
    if (parts.some((p) => !p?.functionResponse)) return i + 1;
  }
  return 0;
}

/**
 * [gemini-functions] function declarations: names start with a letter or
 * `_` and hold letters, digits, `_`, `.`, `:` and `-`, at most 64 (a Gemini
 * name of 128 is accepted by some models; the documented limit is kept);
 * `parameters` and `parametersJsonSchema` are exclusive, and a `$ref` in
 * `parametersJsonSchema` resolves within it; `allowedFunctionNames` only
 * with mode ANY.
 */
function geminiFunctions(body: Json): string | undefined {
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    for (const d of tool?.functionDeclarations ?? []) {
      if (typeof d?.name !== "string" || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(d.name)) {
        return `* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function ` +
          `name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), ` +
          `underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 64.`;
      }
      if (d.parameters !== undefined && d.parametersJsonSchema !== undefined) {
        return `function_declarations[${d.name}]: parameters and parameters_json_schema are ` +
          "mutually exclusive; set only one of them.";
      }
      const ref = unresolvedRef(d.parametersJsonSchema, d.parametersJsonSchema);
      if (ref !== undefined) {
        return `function_declarations[${d.name}].parameters_json_schema: $ref '${ref}' does ` +
          "not resolve within the schema.";
      }
    }
  }
  const fcc = body.toolConfig?.functionCallingConfig;
  if (isObject(fcc) && fcc.allowedFunctionNames !== undefined && fcc.mode !== "ANY") {
    return "* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names: " +
      "allowed_function_names can only be set when mode is ANY.";
  }
  return undefined;
}

/** The first `$ref` under `schema` that names no place within `root`. */
function unresolvedRef(schema: Json, root: Json): string | undefined {
  if (Array.isArray(schema)) {
    for (const s of schema) {
      const r = unresolvedRef(s, root);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === "string") {
    const ref: string = schema.$ref;
    let at: Json = root;
    if (!ref.startsWith("#")) return ref;
    for (const key of ref.slice(1).split("/").filter((k) => k !== "")) {
      at = isObject(at) ? at[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    }
    if (at === undefined) return ref;
  }
  for (const v of Object.values(schema)) {
    const r = unresolvedRef(v, root);
    if (r !== undefined) return r;
  }
  return undefined;
}

function geminiSchemaProblem(schema: Json, at: string): string | undefined {
  if (!isObject(schema)) return undefined;
  for (const k of Object.keys(schema)) {
    if (!GEMINI_SCHEMA_KEYS.has(k)) {
      return `Invalid JSON payload received. Unknown name "${k}" at '${at}': Cannot find field.`;
    }
  }
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const inner = geminiSchemaProblem(sub, `${at}.properties[${name}].value`);
    if (inner) return inner;
  }
  const items = geminiSchemaProblem(schema.items, `${at}.items`);
  if (items) return items;
  for (const [i, sub] of (Array.isArray(schema.anyOf) ? schema.anyOf : []).entries()) {
    const inner = geminiSchemaProblem(sub, `${at}.any_of[${i}]`);
    if (inner) return inner;
  }
  return undefined;
}

// ---- Context window ------------------------------------------------------------

/**
 * [context-limits] A request whose input (`tokens`, counted by the caller)
 * passes the window, answered with each provider's own status and text:
 * - Anthropic: 400 `invalid_request_error`, "prompt is too long: N tokens >
 *   M maximum"; and when input plus `max_tokens` passes it, "input length and
 *   `max_tokens` exceed context limit: N + K > M, decrease input length or
 *   `max_tokens` and try again" (Messages API errors, as the API answers).
 * - OpenAI Chat Completions: 400 code `context_length_exceeded`, param
 *   `messages`, "This model's maximum context length is M tokens. However,
 *   your messages resulted in N tokens. Please reduce the length of the
 *   messages."
 * - OpenAI Responses: 400 code `context_length_exceeded`, param `input`,
 *   "Your input exceeds the context window of this model. Please adjust your
 *   input and try again."
 * - Gemini: 400 `INVALID_ARGUMENT`, "The input token count (N) exceeds the
 *   maximum number of tokens allowed (M)."
 * - vLLM (OpenAI-compatible): 400, "The decoder prompt (length N) is longer
 *   than the maximum model length of M. Make sure that `max_model_len` is no
 *   smaller than the number of text tokens."
 * Ollama truncates the prompt instead and refuses nothing.
 */
export function contextWindowRefusal(
  format: WireFormat,
  body: Json,
  rule: ContextWindowRule,
  tokens: number,
): Refusal | undefined {
  const max = rule.tokens;
  if (format === "anthropic") {
    if (tokens > max) {
      return { status: 400, message: `prompt is too long: ${tokens} tokens > ${max} maximum` };
    }
    const out = typeof body?.max_tokens === "number" ? body.max_tokens : 0;
    if (tokens + out > max) {
      return {
        status: 400,
        message:
          `input length and \`max_tokens\` exceed context limit: ${tokens} + ${out} > ${max}, ` +
          "decrease input length or `max_tokens` and try again",
      };
    }
    return undefined;
  }
  if (tokens <= max) return undefined;
  switch (format) {
    case "openai":
      return rule.server === "vllm"
        ? {
          status: 400,
          message:
            `The decoder prompt (length ${tokens}) is longer than the maximum model length ` +
            `of ${max}. Make sure that \`max_model_len\` is no smaller than the number of text tokens.`,
        }
        : {
          status: 400,
          code: "context_length_exceeded",
          param: "messages",
          message: `This model's maximum context length is ${max} tokens. However, your messages ` +
            `resulted in ${tokens} tokens. Please reduce the length of the messages.`,
        };
    case "responses":
      return {
        status: 400,
        code: "context_length_exceeded",
        param: "input",
        message: "Your input exceeds the context window of this model. Please adjust your input " +
          "and try again.",
      };
    case "google":
      return {
        status: 400,
        message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed ` +
          `(${max}).`,
      };
  }
}
