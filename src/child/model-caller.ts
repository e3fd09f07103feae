/**
 * How the child's loop calls the model, one turn at a time: the request for
 * this provider and model (the plan's model settings as the provider's own:
 * thinking, the sampling settings the model takes, the verbosity; the cache
 * key; the parameters the server refused so far), the stream of one turn
 * with its text as `text` events, the retries of a failed call as `retry`
 * events, a parameter the server refuses dropped for the rest of the task,
 * and the turn's usage as a `usage` event. Every attempt first waits for the provider's rate limits
 * (`model/provider-gate.ts`). Every request's history is first made to fit the provider
 * (`sessions/target-rules.ts`: tool-call ids, blank text), and a budget-thinking
 * Anthropic request inside a tool loop its last assistant message began
 * without thinking is sent without thinking, as Anthropic's guide allows.
 *
 * @module
 */
import type { ResolvedProvider } from "../model/providers.ts";
import type { RetryPolicy } from "../model/retry.ts";
import {
  droppable,
  modelRequest,
  type OptionalParameter,
  samplingFor,
  type ServerFacts,
} from "../model/capabilities.ts";
import type { ModelSettings } from "../protocol/envelope.ts";
import type { Emit } from "../protocol/events.ts";
import type { LanguageModel, Message, ToolDefinition } from "./conversation.ts";
import { callModelWithRetries } from "./retries.ts";
import { providerGate } from "../model/provider-gate.ts";
import { learnedHere } from "../model/pause-relay.ts";
import { streamTurn, type TurnOutput } from "./turn.ts";
import { cacheOptions, mergeProviderOptions } from "./cache-breakpoints.ts";
import { refusedParameter } from "./refused-parameter.ts";
import { forTarget, openLoopWithoutThinking } from "../sessions/target-rules.ts";
import { type BudgetLink, BudgetRefused } from "../protocol/budget-link.ts";
import { estimateTokens } from "./compaction.ts";

/** What one task's model calls are made with. */
export interface ModelCallerOptions {
  /** The task's id, for its events. */
  id: string;
  provider: ResolvedProvider;
  /** The model's own name at the provider, and `provider/model` for messages. */
  model: { name: string; id: string; baseURL: string };
  /** What every call is sent, as the plan decided it (`plan/child-model-settings.ts`). */
  settings: ModelSettings;
  facts: ServerFacts | undefined;
  /** Builds the model (again, without usage reports, if the server refuses them). */
  makeModel: (options?: { includeUsage?: boolean }) => Promise<LanguageModel>;
  /** The model built for the first call. */
  first: LanguageModel;
  system: string;
  tools: ToolDefinition[];
  policy: RetryPolicy;
  /** Most output tokens a request asks for (a small window's share). */
  maxOutputTokens?: number;
  idleTimeoutMs: number;
  signal: AbortSignal;
  emit: Emit;
  log: (line: string) => void;
  /** The run's budget: each call (with its retries) is granted first and settled after. */
  budget?: BudgetLink;
}

/** One model call: `quiet` keeps its text out of the `text` events (a compaction's summary). */
export type CallModel = (
  messages: Message[],
  forceTool?: string,
  opts?: { quiet?: boolean },
) => Promise<TurnOutput>;

/** The output tokens a request reserves: its `maxOutputTokens` and any thinking budget. */
export function reservedOutput(
  call: { maxOutputTokens?: number; providerOptions?: Record<string, Record<string, unknown>> },
): number {
  const thinking = call.providerOptions?.anthropic?.thinking as
    | { budgetTokens?: unknown }
    | undefined;
  const budget = typeof thinking?.budgetTokens === "number" ? thinking.budgetTokens : 0;
  return (call.maxOutputTokens ?? 0) + budget;
}

/** The loop's `callModel` for one task, and the output its requests reserve. */
export function createModelCaller(
  o: ModelCallerOptions,
): { callModel: CallModel; reserve: () => number } {
  const { id, provider, emit, log, policy } = o;
  const { thinkingLevel, temperature, topP, topK, verbosity } = o.settings;
  // A sampling setting the model does not take is left out, and said once.
  const sampling = samplingFor(provider.type, o.model.name, thinkingLevel, {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined ? { topK } : {}),
  });
  if (sampling.note) log(`xcsh: ${o.model.id}: ${sampling.note}`);
  let model = o.first;
  const cacheKey = `xcsh-${crypto.randomUUID()}`;
  // Optional parameters the server refused: they stay off for the rest of the task.
  const dropped = new Set<OptionalParameter>();
  const request = (level = thinkingLevel) => {
    const r = modelRequest({
      type: provider.type,
      provider: provider.name,
      model: o.model.name,
      level,
      facts: o.facts,
      dropped,
    }, provider.baseURL);
    return {
      ...r,
      maxOutputTokens: Math.min(r.maxOutputTokens, o.maxOutputTokens ?? Infinity),
      providerOptions: mergeProviderOptions(
        mergeProviderOptions(r.providerOptions, cacheOptions(provider.type, cacheKey)),
        // The SDK sends it as the Responses API's `text.verbosity`.
        verbosity ? { openai: { textVerbosity: verbosity } } : {},
      ),
    };
  };
  let call = request();
  const target = { model: o.model.id, baseURL: o.model.baseURL };
  // Rate limits: every attempt waits for the provider; what it learns goes up
  // to the parent and down to this child's running sub-tasks.
  const gate = providerGate(provider, o.model.name, {
    onLearn: (news) => {
      emit({ type: "rate_limit", id, ...news });
      learnedHere(news.provider);
    },
    onWait: (ms) =>
      emit({ type: "waiting", id, reason: "rate_limit", provider: provider.name, ms }),
    maxWaitMs: policy.maxDelayMs,
  });

  // The first answer's start is said once: siblings waiting to share its cached prompt may go.
  let answered = false;
  const onAnswer = () => {
    if (answered) return;
    answered = true;
    emit({ type: "answering", id });
  };
  // The system prompt and tool definitions do not change during a task.
  let fixed: string | undefined;
  const callModel: CallModel = async (history, forceTool, opts) => {
    const messages = forTarget(history, provider.type).messages as Message[];
    const turn = (): Promise<TurnOutput> => {
      // A server that refused a forced tool gets none; a model that refuses one
      // (Anthropic while thinking) is offered that tool alone.
      const force = dropped.has("tool_choice") ? undefined : forceTool;
      const narrow = !call.forcedToolChoice;
      const sent = budgetThinking(call.providerOptions) && openLoopWithoutThinking(messages)
        ? request("off")
        : call;
      return streamTurn({
        model,
        system: o.system,
        messages,
        tools: o.tools,
        providerOptions: sent.providerOptions,
        reasoning: sent.reasoning,
        maxOutputTokens: sent.maxOutputTokens,
        signal: o.signal,
        idleTimeoutMs: o.idleTimeoutMs,
        onText: (delta) => {
          if (!opts?.quiet) emit({ type: "text", id, delta });
        },
        onAnswer,
        controls: { forceTool: force, narrow },
        breakpoints: provider.type === "anthropic",
        sampling: sampling.sampling,
      }).catch(async (err) => {
        const p = refusedParameter(err);
        const forced = force !== undefined && !narrow;
        if (!p || dropped.has(p) || !droppable(provider.type, p, forced)) throw err;
        dropped.add(p);
        if (p === "stream_options") model = await o.makeModel({ includeUsage: false });
        call = request();
        const reason = p === "tool_choice"
          ? "the server refuses a forced tool choice; reminding without it"
          : `the server refuses ${p}; trying again without it for the rest of the task`;
        log(`xcsh: ${target.model}: ${reason}`);
        emit({ type: "retry", id, attempt: 0, maxRetries: policy.maxRetries, delayMs: 0, reason });
        return turn();
      });
    };
    // The conversation as sent, measured once: the gate's pace counts its
    // tokens, and under a budget the call reserves its input estimate (the
    // fixed prompt too) and the output it may ask for.
    const sent = JSON.stringify(messages);
    let granted: string | undefined;
    if (o.budget) {
      fixed ??= o.system + JSON.stringify(o.tools);
      const input = estimateTokens(fixed + sent);
      const answer = await o.budget.request(o.model.id, input, reservedOutput(call));
      if (!answer.ok) throw new BudgetRefused(answer.reason);
      granted = answer.reqId;
    }
    const tokens = estimateTokens(sent);
    const gated = () => gate.run(turn, { signal: o.signal, tokens });
    const out = await callModelWithRetries(gated, {
      policy,
      signal: o.signal,
      target,
      onRetry: (attempt, delayMs, reason) => {
        emit({ type: "retry", id, attempt, maxRetries: policy.maxRetries, delayMs, reason });
        log(
          `xcsh: ${target.model}: ${reason}; retry ${attempt}/${policy.maxRetries} in ${
            (delayMs / 1000).toFixed(1)
          } s`,
        );
      },
    });
    emit({ type: "usage", id, ...out.usage });
    if (granted !== undefined) o.budget?.spent(granted, o.model.id, out.usage);
    return out;
  };
  return { callModel, reserve: () => reservedOutput(call) };
}

/** Whether a request's options turn on Anthropic's budget thinking. */
function budgetThinking(options: unknown): boolean {
  const anthropic = (options as { anthropic?: { thinking?: { type?: unknown } } } | undefined)
    ?.anthropic;
  return anthropic?.thinking?.type === "enabled";
}
