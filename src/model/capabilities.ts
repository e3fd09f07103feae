/**
 * What each model takes: the one table that decides, per provider and model,
 * which thinking/reasoning parameter a request carries and which values it
 * has, what an agent's `thinkingLevel` becomes on that model, the output
 * token limit, and whether the provider may be asked to force a tool call.
 * No other module names a reasoning parameter. Pure: what a server said
 * about a model (Ollama's `/api/show`) and the parameters a server refused
 * earlier in the task are passed in.
 *
 * Rules, each with its source:
 * - OpenAI (Responses API): `reasoning.effort`, from the model family's set
 *   (OpenAI's reasoning guide and model pages; the same sets as the model
 *   catalogue of `@ai-sdk/openai`): gpt-5 `minimal low medium high`,
 *   gpt-5.1 `none low medium high`, gpt-5.2 to 5.5 `none … xhigh`, gpt-5.6
 *   and later 5.x `none … xhigh max`, gpt-6 `low … max`, o-series
 *   `low medium high`; gpt-4 models, `-chat` models and ids the table does
 *   not know get no reasoning parameter. Reasoning summaries are never asked
 *   for (`reasoning.summary` needs a verified organisation; the SDK adds
 *   `detailed` whenever an effort is set unless told not to). The effort is
 *   sent through the SDK's portable `reasoning` call option.
 * - Anthropic (extended thinking docs; `@ai-sdk/anthropic` model runtime):
 *   Claude 4.6 and later take adaptive thinking with `output_config.effort`
 *   (`low medium high`, `xhigh` from 4.7, `max`); Claude 3.7 to 4.5 take a
 *   `budget_tokens` that must stay below `max_tokens`, which must stay within
 *   the model's output limit (32 000 for Opus 4 / 4.1, 64 000 otherwise);
 *   older models do not think. A forced `tool_choice` is refused whenever
 *   thinking is on ("Thinking may not be enabled when tool_choice forces tool
 *   use"), and always by the models that cannot turn thinking off.
 * - Gemini (thinking docs): 1.x and 2.0 do not think; 2.5 takes
 *   `thinkingBudget` (Flash can turn it off with 0; Pro cannot, 128 to
 *   32 768); Gemini 3 Pro takes `thinkingLevel` `low high`, later Pro models
 *   `low medium high`, Gemini 3 Flash models `minimal low medium high`
 *   (`-latest` aliases and unknown ids are read as the newest generation);
 *   no Gemini 3 model can turn thinking off.
 * - Ollama (OpenAI compatibility docs; its error "must be high, medium, low,
 *   or none"): `reasoning_effort` `none low medium high`, and nothing for a
 *   model whose `/api/show` capabilities lack `thinking`.
 * - Other OpenAI-compatible servers: `reasoning_effort` with the level as
 *   is; a server that refuses it has it dropped (`droppable` below;
 *   `src/child/refused-parameter.ts` reads the refusal).
 * A level the model lacks becomes the nearest one it has: the closest lower
 * one, else the closest higher one (the rule of the AI SDK's
 * `mapReasoningToProviderEffort`); `off` becomes the model's way to turn
 * thinking off, else its lowest level.
 *
 * @example
 * ```ts
 * modelRequest({ type: "openai", provider: "openai", model: "gpt-5.4-mini", level: "minimal" }).sent;
 * // "reasoning.effort low (gpt-5.4-mini has no minimal)"
 * ```
 *
 * @module
 */
import type { ThinkingLevel } from "../types.ts";
import type { ProviderType } from "./providers.ts";

// deno-lint-ignore no-explicit-any
export type ProviderOptions = Record<string, Record<string, any>>;

/** The portable values of the SDK's `reasoning` call option. */
export type Effort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Output tokens to allow per model call (Anthropic thinking budgets come on top). */
export const MAX_OUTPUT_TOKENS = 16384;

/** The fewest answer tokens left beside an Anthropic thinking budget. */
export const MIN_ANSWER_TOKENS = 4096;

/** Anthropic thinking budgets in tokens (the API's minimum is 1024). */
export const ANTHROPIC_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, "off">, number>> = {
  minimal: 1024,
  low: 4000,
  medium: 8000,
  high: 16000,
  xhigh: 32000,
};

/** Gemini 2.5 thinking budgets in tokens. */
const GEMINI_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, "off">, number>> = {
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
};

/** How a model is asked to think: the one parameter, and its values. */
export type ThinkingParameter =
  /** The model does not think: no parameter is sent. */
  | { kind: "none"; why: string }
  /** OpenAI Responses `reasoning.effort`. */
  | { kind: "openai-effort"; efforts: readonly Effort[] }
  /** Anthropic adaptive thinking with `output_config.effort`. */
  | { kind: "anthropic-effort"; efforts: readonly Effort[]; canDisable: boolean }
  /** Anthropic `thinking.budget_tokens` below `max_tokens` ≤ `maxOutput`. */
  | { kind: "anthropic-budget"; maxOutput: number }
  /** Gemini 2.5 `thinkingConfig.thinkingBudget`. */
  | { kind: "gemini-budget"; canDisable: boolean }
  /** Gemini 3 `thinkingConfig.thinkingLevel`. */
  | { kind: "gemini-level"; levels: readonly Effort[] }
  /** Chat Completions `reasoning_effort` (OpenAI-compatible servers). */
  | { kind: "compatible-effort"; efforts: readonly Effort[] | "any" };

/** What a server said about a model (Ollama's `/api/show`). */
export interface ServerFacts {
  thinking?: boolean;
  tools?: boolean;
  /** The model's context window in tokens. */
  contextWindow?: number;
}

/** What {@link modelRequest} is asked about. */
export interface ModelRequestInput {
  type: ProviderType;
  /** The provider's name (keys an OpenAI-compatible provider's options). */
  provider: string;
  /** The model id, without `provider/`. */
  model: string;
  level: ThinkingLevel | undefined;
  /** What the server said about the model, when it was asked. */
  facts?: ServerFacts;
  /** Optional parameters the server refused earlier in this task. */
  dropped?: ReadonlySet<OptionalParameter>;
}

/** Optional parameters an OpenAI-compatible server may refuse (`child/refused-parameter.ts`). */
export type OptionalParameter =
  | "reasoning_effort"
  | "tool_choice"
  | "parallel_tool_calls"
  | "strict"
  | "stream_options";

/**
 * Whether a parameter a server refused can be left out: a forced tool choice
 * (when one was sent) on any provider; the others only on OpenAI-compatible
 * servers, and only those xcsh sends them (the reasoning effort, the stream
 * options). The tools themselves never are.
 */
export function droppable(type: ProviderType, p: OptionalParameter, forced: boolean): boolean {
  if (p === "tool_choice") return forced;
  return type === "openai-compatible" && (p === "reasoning_effort" || p === "stream_options");
}

/** The thinking part of one model call, and how it is shown. */
export interface ModelRequest {
  /** The SDK's portable `reasoning` call option, when it is the way to send the level. */
  reasoning?: Effort;
  providerOptions: ProviderOptions;
  maxOutputTokens: number;
  /** Whether the provider may be asked to force a tool call. */
  forcedToolChoice: boolean;
  /** What the request carries, for people (`agents show`, `--dry-run`). */
  sent: string;
}

/** The order of levels and efforts, from least to most thinking. */
const ORDER: readonly Effort[] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/**
 * The value of `offered` nearest to `level`: itself, else the closest lower
 * one (never `none`), else the closest higher one. `off` is `none` when
 * offered, else the lowest offered value.
 */
export function nearest(level: ThinkingLevel, offered: readonly Effort[]): Effort | undefined {
  if (offered.length === 0) return undefined;
  if (level === "off") return offered.includes("none") ? "none" : lowest(offered);
  const at = ORDER.indexOf(level);
  if (offered.includes(level)) return level;
  for (let i = at - 1; i >= 1; i--) if (offered.includes(ORDER[i])) return ORDER[i];
  for (let i = at + 1; i < ORDER.length; i++) if (offered.includes(ORDER[i])) return ORDER[i];
  return undefined;
}

function lowest(offered: readonly Effort[]): Effort {
  return ORDER.find((e) => e !== "none" && offered.includes(e)) ?? offered[0];
}

// ---- the table -------------------------------------------------------------------

/** OpenAI model ids: `gpt-<major>[.<minor>][-<variant>]`, `o<n>[-…]`. */
function openaiParameter(model: string): ThinkingParameter {
  const o = /^o(\d+)(?:-(.+))?$/.exec(model);
  if (o) {
    // o1-mini and o1-preview predate reasoning effort.
    if (o[1] === "1" && /^(mini|preview)/.test(o[2] ?? "")) {
      return { kind: "none", why: `${model} takes no reasoning effort` };
    }
    return { kind: "openai-effort", efforts: ["low", "medium", "high"] };
  }
  const g = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(model);
  if (!g) return { kind: "none", why: `${model} is not a known reasoning model` };
  const major = Number(g[1]);
  const minor = Number(g[2] ?? 0);
  const variant = g[3] ?? "";
  if (major < 5) return { kind: "none", why: `${model} does not reason` };
  if (/^chat/.test(variant)) return { kind: "none", why: `${model} takes no reasoning effort` };
  if (major >= 6) {
    return { kind: "openai-effort", efforts: ["low", "medium", "high", "xhigh", "max"] };
  }
  if (/^pro/.test(variant)) {
    // gpt-5-pro reasons at high only; later pro models at medium to xhigh.
    return {
      kind: "openai-effort",
      efforts: minor === 0 ? ["high"] : ["medium", "high", "xhigh"],
    };
  }
  if (/codex/.test(variant)) {
    return {
      kind: "openai-effort",
      efforts: minor >= 2 || /max/.test(variant)
        ? ["low", "medium", "high", "xhigh"]
        : ["low", "medium", "high"],
    };
  }
  if (minor === 0) return { kind: "openai-effort", efforts: ["minimal", "low", "medium", "high"] };
  if (minor === 1) return { kind: "openai-effort", efforts: ["none", "low", "medium", "high"] };
  if (minor < 6) {
    return { kind: "openai-effort", efforts: ["none", "low", "medium", "high", "xhigh"] };
  }
  return { kind: "openai-effort", efforts: ["none", "low", "medium", "high", "xhigh", "max"] };
}

/** A Claude id's version: `claude-<family>-<major>[-<minor>]…` or `claude-<major>-<minor>-<family>…`. */
export function claudeVersion(model: string): { major: number; minor: number } | undefined {
  const m = /^claude-(?:[a-z]+)-(\d+)(?:[-.](\d{1,2}))?(?=$|[-@.])/.exec(model) ??
    /^claude-(\d+)(?:[-.](\d{1,2}))?-[a-z]+/.exec(model);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0) };
}

/** Claude models that cannot turn thinking off (`@ai-sdk/anthropic` runtime rules). */
const CLAUDE_ALWAYS_THINKING = /claude-(sonnet-5-5|opus-5-5|fable-5-1|fable-5-2)/;

function anthropicParameter(model: string): ThinkingParameter {
  const v = claudeVersion(model);
  // Ids the table cannot read are taken as the newest generation.
  const at = v ? v.major * 100 + v.minor : 9999;
  if (at >= 406) {
    return {
      kind: "anthropic-effort",
      efforts: at >= 407
        ? ["low", "medium", "high", "xhigh", "max"]
        : ["low", "medium", "high", "max"],
      canDisable: !CLAUDE_ALWAYS_THINKING.test(model),
    };
  }
  if (at >= 307) {
    const maxOutput = /^claude-opus-4(?:-[01])?(?=$|[-@])/.test(model) && at < 405 ? 32000 : 64000;
    return { kind: "anthropic-budget", maxOutput };
  }
  return { kind: "none", why: `${model} does not think` };
}

function geminiParameter(model: string): ThinkingParameter {
  const m = /^gemini-(\d+)(?:\.(\d+))?/.exec(model);
  if (m && (Number(m[1]) < 2 || (m[1] === "2" && (m[2] ?? "0") === "0"))) {
    return { kind: "none", why: `${model} does not think` };
  }
  if (m && m[1] === "2") return { kind: "gemini-budget", canDisable: /flash/.test(model) };
  if (/^gemini-3-pro(?:$|-)/.test(model)) return { kind: "gemini-level", levels: ["low", "high"] };
  if (/flash/.test(model) && !/latest/.test(model)) {
    return { kind: "gemini-level", levels: ["minimal", "low", "medium", "high"] };
  }
  return { kind: "gemini-level", levels: ["low", "medium", "high"] };
}

/** Whether an OpenAI-compatible provider is an Ollama server. */
export function isOllama(provider: string, baseURL: string): boolean {
  return provider === "ollama" || /:11434(\/|$)/.test(baseURL);
}

/**
 * The parameter `model` of a provider takes. `ollama` says whether the
 * OpenAI-compatible server is Ollama; `facts` is what it said of the model.
 */
export function thinkingParameter(
  type: ProviderType,
  model: string,
  ollama = false,
  facts?: ServerFacts,
): ThinkingParameter {
  switch (type) {
    case "openai":
      return openaiParameter(model);
    case "anthropic":
      return anthropicParameter(model);
    case "google":
      return geminiParameter(model);
    case "openai-compatible":
      if (facts?.thinking === false) {
        return { kind: "none", why: `the server says ${model} cannot think` };
      }
      return ollama
        ? { kind: "compatible-effort", efforts: ["none", "low", "medium", "high"] }
        : { kind: "compatible-effort", efforts: "any" };
  }
}

// ---- one request -----------------------------------------------------------------

function plain(maxOutputTokens = MAX_OUTPUT_TOKENS): Omit<ModelRequest, "sent"> {
  return { providerOptions: {}, maxOutputTokens, forcedToolChoice: true };
}

/** " (m has no L)" when the level was moved. */
function moved(model: string, level: ThinkingLevel, to: string): string {
  if (level === "off") return to === "none" ? "" : ` (${model} cannot turn thinking off)`;
  return level === to ? "" : ` (${model} has no ${level})`;
}

/**
 * The thinking part of a call to `model` at `level`: the options to send, the
 * output limit, whether a tool call may be forced, and a line saying what is
 * sent.
 */
export function modelRequest(i: ModelRequestInput, baseURL = ""): ModelRequest {
  const param = thinkingParameter(i.type, i.model, isOllama(i.provider, baseURL), i.facts);
  const { level, model } = i;
  if (level === undefined) {
    // Anthropic models that cannot turn thinking off still refuse a forced tool.
    const forced = !(param.kind === "anthropic-effort" && !param.canDisable);
    return { ...plain(), forcedToolChoice: forced, sent: "nothing (no thinking level)" };
  }
  switch (param.kind) {
    case "none":
      return { ...plain(), sent: `nothing (${param.why})` };
    case "openai-effort": {
      const effort = nearest(level, param.efforts) as Effort;
      return {
        ...plain(),
        reasoning: effort,
        // Summaries need a verified organisation; never ask for them.
        providerOptions: { openai: { reasoningSummary: null } },
        sent: `reasoning.effort ${effort}${moved(model, level, effort)}`,
      };
    }
    case "anthropic-effort": {
      if (level === "off" && param.canDisable) {
        return {
          ...plain(),
          providerOptions: { anthropic: { thinking: { type: "disabled" } } },
          sent: "thinking disabled",
        };
      }
      const effort = nearest(level, param.efforts) as Effort;
      return {
        ...plain(),
        providerOptions: { anthropic: { thinking: { type: "adaptive" }, effort } },
        forcedToolChoice: false,
        sent: `adaptive thinking, output_config.effort ${effort}${moved(model, level, effort)}`,
      };
    }
    case "anthropic-budget": {
      if (level === "off") {
        return {
          ...plain(),
          providerOptions: { anthropic: { thinking: { type: "disabled" } } },
          sent: "thinking disabled",
        };
      }
      // The SDK sends max_tokens = maxOutputTokens + budget; both stay within the model's limit.
      const budget = Math.min(ANTHROPIC_BUDGETS[level], param.maxOutput - MIN_ANSWER_TOKENS);
      const answer = Math.min(MAX_OUTPUT_TOKENS, param.maxOutput - budget);
      return {
        ...plain(answer),
        providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: budget } } },
        forcedToolChoice: false,
        sent: `thinking.budget_tokens ${budget} of max_tokens ${budget + answer}`,
      };
    }
    case "gemini-budget": {
      if (level === "off" && !param.canDisable) {
        return { ...plain(), sent: `nothing (${model} cannot turn thinking off)` };
      }
      const budget = level === "off" ? 0 : GEMINI_BUDGETS[level];
      return {
        ...plain(),
        providerOptions: {
          google: { thinkingConfig: { thinkingBudget: budget, includeThoughts: false } },
        },
        sent: `thinkingConfig.thinkingBudget ${budget}`,
      };
    }
    case "gemini-level": {
      const to = nearest(level, param.levels) as Effort;
      return {
        ...plain(),
        providerOptions: {
          google: { thinkingConfig: { thinkingLevel: to, includeThoughts: false } },
        },
        sent: `thinkingConfig.thinkingLevel ${to}${moved(model, level, to)}`,
      };
    }
    case "compatible-effort": {
      if (i.dropped?.has("reasoning_effort")) {
        return { ...plain(), sent: "nothing (the server refused reasoning_effort)" };
      }
      if (param.efforts === "any") {
        if (level === "off") return { ...plain(), sent: "nothing (thinking off)" };
        return {
          ...plain(),
          providerOptions: { [i.provider]: { reasoningEffort: level } },
          sent: `reasoning_effort ${level}`,
        };
      }
      const effort = nearest(level, param.efforts) as Effort;
      return {
        ...plain(),
        providerOptions: { [i.provider]: { reasoningEffort: effort } },
        sent: `reasoning_effort ${effort}${moved(model, level, effort)}${
          i.facts === undefined ? ", unless the server says the model cannot think" : ""
        }`,
      };
    }
  }
}

// ---- sampling settings ---------------------------------------------------------

/** An agent's sampling settings (Gemini CLI's `temperature`, `top_p`, `top_k`). */
export interface Sampling {
  temperature?: number;
  topP?: number;
  topK?: number;
}

/**
 * The sampling settings a call to `model` may carry, and a note naming what
 * is left out and why. Sources: Anthropic's extended thinking documentation
 * (while thinking, `temperature` and `top_k` cannot be set and `top_p` only
 * between 0.95 and 1); OpenAI's reasoning models (gpt-5, the o-series)
 * refuse `temperature` and `top_p`, and no OpenAI model takes `top_k`;
 * Gemini takes all three; an OpenAI-compatible server gets what was asked.
 *
 * @example
 * ```ts
 * samplingFor("openai", "gpt-5.5", "low", { temperature: 0.2 });
 * // { sampling: {}, note: "temperature left out: gpt-5.5 is a reasoning model, which takes none" }
 * ```
 */
export function samplingFor(
  type: ProviderType,
  model: string,
  level: ThinkingLevel | undefined,
  asked: Sampling,
): { sampling: Sampling; note?: string } {
  const out: Sampling = { ...asked };
  const left: string[] = [];
  const drop = (key: keyof Sampling, name: string) => {
    if (out[key] === undefined) return;
    delete out[key];
    left.push(name);
  };
  let why = "";
  const param = thinkingParameter(type, model);
  if (type === "anthropic") {
    const thinks = param.kind === "anthropic-effort" && !param.canDisable ||
      (param.kind !== "none" && level !== undefined && level !== "off");
    if (thinks) {
      drop("temperature", "temperature");
      drop("topK", "top_k");
      if (out.topP !== undefined && out.topP < 0.95) drop("topP", "top_p");
      why =
        `${model} thinks here, and a thinking Claude takes no sampling settings but top_p ≥ 0.95`;
    }
  } else if (type === "openai") {
    drop("topK", "top_k");
    why = `OpenAI takes no top_k`;
    if (param.kind === "openai-effort") {
      drop("temperature", "temperature");
      drop("topP", "top_p");
      why = `${model} is a reasoning model, which takes none`;
    }
  }
  return left.length === 0
    ? { sampling: out }
    : { sampling: out, note: `${left.join(", ")} left out: ${why}` };
}
