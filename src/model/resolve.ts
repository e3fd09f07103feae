/**
 * Which `provider/model` a child runs.
 *
 * Order: the envelope's `model` (the parent's `--model`) or `XCSH_MODEL`, then
 * `task.agentModelOverrides[agent]`, then the agent's own `model` list (the
 * first pattern that resolves), then `models.default` (the parent's model).
 * Patterns are classified by `classifyModelPattern`: `inherit`/`default` mean
 * `models.default`, roles come from `models.roles` (`default` is
 * `models.default`), ids must name a known provider. An explicit choice
 * (envelope, variable, override) that does not resolve is an error; an agent
 * pattern that does not resolve is skipped. Pure.
 *
 * @example
 * ```ts
 * const config = defaultConfig();
 * config.models.default = "anthropic/claude-sonnet-4-5";
 * config.models.roles.smol = "ollama/qwen3:1.7b";
 * resolveModel({ agentName: "explore", agentModels: ["xcsh/smol"], config });
 * // { ok: true, value: { id: "ollama/qwen3:1.7b", provider: "ollama", model: "qwen3:1.7b",
 * //   source: "agent" } }
 * ```
 *
 * @module
 */
import { classifyModelPattern } from "./patterns.ts";
import type { XcshConfig } from "../types.ts";
import { knownProviders, splitModelId } from "./providers.ts";

/** Where the chosen model came from. */
export type ModelSource = "envelope" | "XCSH_MODEL" | "override" | "agent" | "default";

export interface ModelChoice {
  /** `provider/model`. */
  id: string;
  provider: string;
  model: string;
  source: ModelSource;
}

export type ModelResult = { ok: true; value: ModelChoice } | { ok: false; error: string };

export interface ModelInputs {
  agentName: string;
  agentModels?: readonly string[];
  config: XcshConfig;
  /** The envelope's `model` field. */
  envelopeModel?: string | null;
  /** `XCSH_MODEL`. */
  envModel?: string;
  /** How errors name `envelopeModel` (the parent calls it `--model`). */
  envelopeLabel?: string;
}

type PatternResult = { ok: true; id: string } | { ok: false; reason: string };

/** Resolves one pattern to a `provider/model` id, following roles (bounded). */
export function resolvePattern(pattern: string, config: XcshConfig, depth = 0): PatternResult {
  if (depth > 4) return { ok: false, reason: `'${pattern}': roles refer to each other in a loop` };
  const p = classifyModelPattern(pattern, config.models.aliases);
  if (p.kind === "inherit") {
    if (!config.models.default) {
      return { ok: false, reason: `'${pattern}' means models.default, which is not set` };
    }
    return resolvePattern(config.models.default, config, depth + 1);
  }
  if (p.kind === "role") {
    // Own keys only: a role named "constructor" is simply not set.
    const target = p.role === "default"
      ? config.models.default
      : Object.hasOwn(config.models.roles, p.role)
      ? config.models.roles[p.role]
      : undefined;
    if (!target) {
      const key = p.role === "default" ? "models.default" : `models.roles.${p.role}`;
      return { ok: false, reason: `'${pattern}' names ${key}, which is not set` };
    }
    return resolvePattern(target, config, depth + 1);
  }
  const split = splitModelId(p.id);
  if (!split) {
    return {
      ok: false,
      reason: `'${p.id}' names no provider: write it as provider/model (e.g. openai/${p.id})`,
    };
  }
  const known = knownProviders(config);
  if (!known.includes(split.provider)) {
    return {
      ok: false,
      reason: `unknown provider '${split.provider}' in '${p.id}'. Known providers: ${
        known.join(", ")
      }`,
    };
  }
  return { ok: true, id: p.id };
}

function choice(id: string, source: ModelSource): ModelResult {
  const split = splitModelId(id)!;
  return { ok: true, value: { id, provider: split.provider, model: split.model, source } };
}

/**
 * Picks the model for one child run, or explains why none could be chosen.
 */
export function resolveModel(inputs: ModelInputs): ModelResult {
  const { config } = inputs;
  const explicit: [string | null | undefined, ModelSource, string][] = [
    [inputs.envelopeModel, "envelope", inputs.envelopeLabel ?? "the envelope's model"],
    [inputs.envModel, "XCSH_MODEL", "XCSH_MODEL"],
    [
      Object.hasOwn(config.task.agentModelOverrides, inputs.agentName)
        ? config.task.agentModelOverrides[inputs.agentName]
        : undefined,
      "override",
      `task.agentModelOverrides.${inputs.agentName}`,
    ],
  ];
  for (const [value, source, label] of explicit) {
    if (value === undefined || value === null || value.trim() === "") continue;
    const r = resolvePattern(value, config);
    if (!r.ok) return { ok: false, error: `${label}: ${r.reason}` };
    return choice(r.id, source);
  }
  const skipped: string[] = [];
  for (const pattern of inputs.agentModels ?? []) {
    const r = resolvePattern(pattern, config);
    if (r.ok) return choice(r.id, "agent");
    skipped.push(r.reason);
  }
  if (config.models.default) {
    const r = resolvePattern(config.models.default, config);
    if (!r.ok) return { ok: false, error: `models.default: ${r.reason}` };
    return choice(r.id, "default");
  }
  const tried = skipped.length
    ? ` (agent '${inputs.agentName}' asked for: ${skipped.join("; ")})`
    : "";
  return {
    ok: false,
    error: `no model to run agent '${inputs.agentName}'${tried}: set models.default in ` +
      "~/.xcsh/agent/config.yml, or XCSH_MODEL, or pass --model",
  };
}
