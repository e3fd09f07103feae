/**
 * What a child's model calls are sent ({@link ModelSettings}, the
 * envelope's `modelSettings`), from the agent and the resolved model: its
 * thinking level and its sampling settings (`temperature`, `top_p`,
 * `top_k`) as the file asks (what a model does not take is left out where
 * the request is built, `model/capabilities.ts`), and its verbosity where
 * the model takes it, else none, with one warning saying why it was not
 * sent. A setting of the model call is decided here, once.
 *
 * The verbosity (Codex's `model_verbosity`), each rule with its source:
 * - Only OpenAI's own API (`openai` providers, the Responses API) has the
 *   setting, as `text.verbosity`; Codex sends it to the GPT-5 family alone
 *   (openai/codex PR #2108). Anthropic, Gemini and OpenAI-compatible
 *   servers have none.
 * - Measured against the API (enricoros/big-AGI issues #947 and #930,
 *   theopenco/llmgateway PR #2989): the GPT-5 family takes low, medium and
 *   high (gpt-5, -mini, -nano, -pro, gpt-5.1 and later, their
 *   `-chat-latest` models included), except `gpt-5-chat-latest` and the
 *   Codex models before gpt-5.3 (`gpt-5-codex`, `gpt-5.1-codex…`,
 *   `gpt-5.2-codex`); those and every model before GPT-5 (gpt-4.1, gpt-4o,
 *   o3, …) take only medium and refuse any other value (HTTP 400).
 * - `medium` is what a medium-only model does anyway: it is sent nothing,
 *   and nothing is said.
 *
 * @example
 * ```ts
 * import type { AgentDefinition, XcshConfig } from "../types.ts";
 *
 * verbosityFor("low", "openai", "gpt-5-mini"); // { send: "low" }
 * verbosityFor("low", "openai", "gpt-4.1"); // { why: "takes only medium" }
 * declare const agent: AgentDefinition; // temperature: 0.2, verbosity: "low"
 * declare const config: XcshConfig;
 * const model = { id: "openai/gpt-4.1", provider: "openai", model: "gpt-4.1" };
 * childModelSettings(agent, model, config);
 * // { temperature: 0.2 }, and a warning: gpt-4.1 takes only medium
 * ```
 *
 * @module
 */
import { type ProviderType, providerTypeNamed } from "../model/providers.ts";
import type { AgentDefinition, Diagnostic, Verbosity, XcshConfig } from "../types.ts";
import type { ModelSettings } from "../protocol/envelope.ts";

/** The resolved model a child runs (none: a dry run or a remote agent). */
type ResolvedModel = { id: string; provider: string; model: string } | undefined;

/**
 * What every model call of `agent`'s children is sent on `model`, warning
 * through `onWarnings` about a setting the model is not sent.
 */
export function childModelSettings(
  agent: AgentDefinition,
  model: ResolvedModel,
  config: XcshConfig,
  onWarnings?: (warnings: Diagnostic[]) => void,
): ModelSettings {
  const verbosity = childVerbosity(agent, model, config, onWarnings);
  return {
    ...(agent.thinkingLevel ? { thinkingLevel: agent.thinkingLevel } : {}),
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(agent.topP !== undefined ? { topP: agent.topP } : {}),
    ...(agent.topK !== undefined ? { topK: agent.topK } : {}),
    ...(verbosity ? { verbosity } : {}),
  };
}

/** What a model call is sent, or why nothing is. */
export type VerbosityDecision = { send: Verbosity; why?: undefined } | {
  send?: undefined;
  /** Why nothing is sent (none: `medium` on a model that only takes medium). */
  why?: string;
};

/** Whether an OpenAI model takes every verbosity (else only `medium`). */
function takesEveryVerbosity(model: string): boolean {
  const g = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(model);
  if (!g) return false;
  const major = Number(g[1]);
  const minor = Number(g[2] ?? 0);
  const variant = g[3] ?? "";
  if (major < 5) return false;
  if (major > 5) return true;
  if (minor === 0 && /^chat/.test(variant)) return false;
  if (minor <= 2 && /codex/.test(variant)) return false;
  return true;
}

/** The verbosity a call to `model` (of a provider of `type`) carries when `asked` for. */
export function verbosityFor(
  asked: Verbosity,
  type: ProviderType,
  model: string,
): VerbosityDecision {
  if (type !== "openai") return { why: "has no verbosity setting" };
  if (takesEveryVerbosity(model)) return { send: asked };
  return asked === "medium" ? {} : { why: "takes only medium" };
}

/**
 * The verbosity `agent`'s children are sent on `model` (the resolved
 * choice; none: a dry run or a remote agent, sent nothing), warning through
 * `onWarnings` when the agent asked for one the model is not sent.
 */
export function childVerbosity(
  agent: AgentDefinition,
  model: ResolvedModel,
  config: XcshConfig,
  onWarnings?: (warnings: Diagnostic[]) => void,
): Verbosity | undefined {
  if (!agent.verbosity || !model) return undefined;
  const type = providerTypeNamed(model.provider, config);
  if (!type) return undefined;
  const decided = verbosityFor(agent.verbosity, type, model.model);
  if (decided.why) {
    onWarnings?.([{
      level: "warning",
      ...(agent.filePath ? { file: agent.filePath } : {}),
      field: "model_verbosity",
      message:
        `agent '${agent.name}': 'model_verbosity' ${agent.verbosity} not sent: ${model.id} ${decided.why}`,
    }]);
  }
  return decided.send;
}
