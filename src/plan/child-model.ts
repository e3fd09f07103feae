/**
 * Which model a call's children run on: the call's (`--model`), the
 * `XCSH_MODEL` variable, the config's override for the agent, the agent's
 * own `model:`, else the inherited one (the calling session's model, else
 * the config's default). Keys handed down in an envelope count as set.
 *
 * @module
 */
import { resolveModel } from "../model/resolve.ts";
import { modelVariable } from "../protocol/variables.ts";
import type { AgentDefinition, TaskRequest, XcshConfig } from "../types.ts";

/** What the model of a call's children is decided from. */
export interface ChildModelInputs {
  config: XcshConfig;
  /** The environment of this process. */
  env: Readonly<Record<string, string | undefined>>;
  /** Keys handed down in an envelope (a child's own environment has none). */
  keys?: Record<string, string>;
  /** The calling session's model, inherited by agents that ask for it. */
  parentModel?: string | null;
  /** The flag that picks a model, named in hints (`--model`). */
  modelFlag?: string;
}

/** The model `agent`'s children run on for `req`, or why none can be. */
export function childModel(req: TaskRequest, agent: AgentDefinition, i: ChildModelInputs) {
  const { config, env } = i;
  const inherited = i.parentModel ?? config.models.default;
  return resolveModel({
    agentName: agent.name,
    agentModels: agent.model,
    config: { ...config, models: { ...config.models, default: inherited ?? undefined } },
    envelopeModel: req.model,
    envelopeLabel: "--model",
    envModel: modelVariable(env),
    env: { ...env, ...i.keys },
    modelFlag: i.modelFlag,
  });
}
