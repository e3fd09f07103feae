/**
 * Which `provider/model` a child runs, and what to say when the agent's own
 * choice cannot be used.
 *
 * Order: the envelope's `model` (the parent's `--model`) or `XCSH_MODEL`, then
 * `task.agentModelOverrides[agent]`, then the agent's own `model` list (the
 * first pattern that resolves to a usable provider), then `models.default`
 * (the parent's model), else — with no `models.default` — the model a built-in
 * provider whose key is set offers for the role the agent asked for
 * (`builtin-defaults.ts`). Patterns are classified by `classifyModelPattern`:
 * `inherit`/`default` mean `models.default`; roles come from `models.roles`;
 * Claude's `sonnet`/`opus`/`haiku` go through `models.aliases`, then their
 * role when configured, then Anthropic's current model of the tier; an id
 * without `provider/` takes its provider from its family (`claude-…`,
 * `gpt-…`, `gemini-…`, …). A provider is usable when its key is set.
 *
 * An explicit choice (envelope, variable, override) that does not resolve or
 * whose key is missing is an error naming what to set: it never falls back.
 * An agent pattern that cannot be used is skipped; when `models.default` then
 * stands in, the choice carries a `note` saying so. Pure: config and
 * environment are passed in.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * const config = defaultConfig();
 * config.models.default = "ollama/qwen3:8b";
 * resolveModel({ agentName: "explore", agentModels: ["sonnet"], config, env: {} });
 * // { ok: true, value: { id: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b",
 * //   source: "default", note: "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/qwen3:8b" } }
 * ```
 *
 * @module
 */
import { builtinModel, isBuiltinRole } from "./builtin-defaults.ts";
import { CLAUDE_TIERS } from "./claude-tiers.ts";
import { EXAMPLE_MODELS, exampleModel, FAMILY_LIST, providerOfBareId } from "./families.ts";
import { classifyModelPattern } from "./patterns.ts";
import type { XcshConfig } from "../types.ts";
import { knownProviders, resolveProvider, splitModelId } from "./providers.ts";

/** Where the chosen model came from. */
export type ModelSource = "envelope" | "XCSH_MODEL" | "override" | "agent" | "default" | "builtin";

export interface ModelChoice {
  /** `provider/model`. */
  id: string;
  provider: string;
  model: string;
  source: ModelSource;
  /** Set when `models.default` stands in for the agent's own model: what happened, in one line. */
  note?: string;
}

export type ModelResult =
  | { ok: true; value: ModelChoice }
  /** `tried`: when nothing resolves, each pattern tried and why it could not be used. */
  | { ok: false; error: string; tried?: Tried[] };

type Env = Readonly<Record<string, string | undefined>>;

export interface ModelInputs {
  agentName: string;
  agentModels?: readonly string[];
  config: XcshConfig;
  /** Where the provider keys are looked up. */
  env: Env;
  /** The envelope's `model` field. */
  envelopeModel?: string | null;
  /** `XCSH_MODEL`. */
  envModel?: string;
  /** How errors name `envelopeModel` (the parent calls it `--model`). */
  envelopeLabel?: string;
  /** The flag that picks a model where the caller has one (`--model` on the command line). */
  modelFlag?: string;
}

/**
 * `unsetRole`: the pattern names a role config does not set (`models.default`,
 * or a built-in provider's model for that role, then stands in quietly).
 */
type PatternResult = { ok: true; id: string } | { ok: false; reason: string; unsetRole?: string };

/** The example model every "set a model" hint shows. */
const LOCAL_EXAMPLE = exampleModel("ollama");

/** Resolves one pattern to a `provider/model` id, following roles and aliases (bounded). */
export function resolvePattern(pattern: string, config: XcshConfig, depth = 0): PatternResult {
  if (depth > 4) return { ok: false, reason: `'${pattern}': roles refer to each other in a loop` };
  const p = classifyModelPattern(pattern, config.models.aliases);
  if (p.kind === "inherit") {
    if (!config.models.default) {
      return {
        ok: false,
        reason: `'${pattern}' means models.default, which is not set`,
        ...(depth === 0 ? { unsetRole: "default" } : {}),
      };
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
      return {
        ok: false,
        reason: `'${pattern}' names ${key}, which is not set`,
        ...(depth === 0 ? { unsetRole: p.role } : {}),
      };
    }
    return resolvePattern(target, config, depth + 1);
  }
  if (p.kind === "tier") {
    const tier = CLAUDE_TIERS[p.tier];
    const role = Object.hasOwn(config.models.roles, tier.role)
      ? config.models.roles[tier.role]
      : undefined;
    if (role) return resolvePattern(role, config, depth + 1);
    return { ok: true, id: `anthropic/${tier.model}` };
  }
  return resolveId(p.id, config);
}

/** A `provider/model` id, or a bare id placed by its family. */
function resolveId(id: string, config: XcshConfig): PatternResult {
  const split = splitModelId(id);
  if (!split) {
    if (id.endsWith("/") && id.length > 1) {
      const provider = id.slice(0, id.indexOf("/"));
      const example = Object.hasOwn(EXAMPLE_MODELS, provider)
        ? `e.g. ${EXAMPLE_MODELS[provider]}`
        : `MODEL being a model the provider serves, as in ${LOCAL_EXAMPLE}`;
      return {
        ok: false,
        reason: `'${id}' names provider '${provider}' but no model: write ${provider}/MODEL, ` +
          example,
      };
    }
    const family = id.includes("/") ? undefined : providerOfBareId(id);
    if (family) return { ok: true, id: `${family}/${id}` };
    return {
      ok: false,
      reason: `'${id}' names no provider and is not a known model family (${FAMILY_LIST}): ` +
        `write it as provider/model, e.g. ollama/${id.replace(/^\/+/, "") || "qwen3:8b"}`,
    };
  }
  const known = knownProviders(config);
  if (!known.includes(split.provider)) {
    return {
      ok: false,
      reason: `unknown provider '${split.provider}' in '${id}'. Known providers: ${
        known.join(", ")
      }`,
    };
  }
  return { ok: true, id };
}

type Usable = { ok: true } | { ok: false; short: string; error: string; missingKey?: string };

/** Whether the provider of `id` can be reached with this config and environment. */
export function usableModel(id: string, config: XcshConfig, env: Env): Usable {
  const split = splitModelId(id)!;
  const r = resolveProvider(split.provider, config, env);
  if (r.ok) return { ok: true };
  return {
    ok: false,
    short: r.missingKey ? `${r.missingKey} not set` : r.error,
    error: r.error,
    ...(r.missingKey ? { missingKey: r.missingKey } : {}),
  };
}

/** The pattern a tried entry stands for (`sonnet` of `sonnet → anthropic/…`). */
function patternOf(t: Tried): string {
  const arrow = t.what.indexOf(" → ");
  return arrow < 0 ? t.what : t.what.slice(0, arrow);
}

function choice(id: string, source: ModelSource, note?: string): ModelResult {
  const split = splitModelId(id)!;
  return {
    ok: true,
    value: { id, provider: split.provider, model: split.model, source, ...(note ? { note } : {}) },
  };
}

/** One pattern tried and why it could not be used. */
export interface Tried {
  what: string;
  why: string;
  missingKey?: string;
  /** A role config leaves unset: optional by design, so standing in for it needs no note. */
  unsetRole?: string;
}

/** The single error when nothing resolves: what was tried, then what to set. */
function nothingResolves(inputs: ModelInputs, tried: readonly Tried[]): string {
  const list = tried.map((t) => `${t.what} (${t.why})`).join("; ");
  const keys = [...new Set(tried.flatMap((t) => t.missingKey ? [t.missingKey] : []))];
  const fixes = [
    ...keys.map((k) => `export ${k}=<your key>`),
    `set models.default in ~/.xcsh/agent/config.yml (e.g. 'models.default: ${LOCAL_EXAMPLE}')`,
    `set XCSH_MODEL=${LOCAL_EXAMPLE}`,
    ...(inputs.modelFlag ? [`pass ${inputs.modelFlag} ${LOCAL_EXAMPLE}`] : []),
  ];
  return `no usable model for agent '${inputs.agentName}': tried ${list}. To fix: ${
    fixes.join(", or ")
  }`;
}

/**
 * Picks the model for one child run, or explains why none could be chosen.
 */
export function resolveModel(inputs: ModelInputs): ModelResult {
  const { config, env } = inputs;
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
    const usable = usableModel(r.id, config, env);
    if (!usable.ok) {
      // The variable to set comes first; the flag or setting that asked for the model after.
      const from = inputs.envelopeLabel || source !== "envelope" ? ` (${label} ${value})` : "";
      return { ok: false, error: `${usable.error}${from}` };
    }
    return choice(r.id, source);
  }
  const tried: Tried[] = [];
  for (const pattern of inputs.agentModels ?? []) {
    const r = resolvePattern(pattern, config);
    if (!r.ok) {
      tried.push({
        what: pattern,
        why: r.reason,
        ...(r.unsetRole ? { unsetRole: r.unsetRole } : {}),
      });
      continue;
    }
    const usable = usableModel(r.id, config, env);
    if (usable.ok) return choice(r.id, "agent");
    tried.push({
      what: pattern === r.id ? pattern : `${pattern} → ${r.id}`,
      why: usable.short,
      missingKey: usable.missingKey,
    });
  }
  if (!config.models.default) return builtinChoice(inputs, tried);
  const r = resolvePattern(config.models.default, config);
  if (!r.ok) return { ok: false, error: `models.default: ${r.reason}` };
  const usable = usableModel(r.id, config, env);
  if (!usable.ok) {
    const all = [
      ...tried,
      { what: `models.default ${r.id}`, why: usable.short, missingKey: usable.missingKey },
    ];
    return { ok: false, error: nothingResolves(inputs, all), tried: all };
  }
  // Said for the first model the agent asked for that could not be used; an
  // unset role (xcsh/smol with no models.roles.smol) means "the default" by design.
  const missed = tried.find((t) => !t.unsetRole);
  const note = missed
    ? `${patternOf(missed)} unavailable (${missed.why}); using ${r.id}`
    : undefined;
  return choice(r.id, "default", note);
}

/**
 * With no `models.default`: the model a built-in provider whose key is set
 * offers for the role the agent asked for (its first unset role, else
 * `default`), announced when the agent's own model could not be used.
 */
function builtinChoice(inputs: ModelInputs, tried: readonly Tried[]): ModelResult {
  const { config, env } = inputs;
  const asked = tried.find((t) => t.unsetRole)?.unsetRole;
  const role = asked !== undefined && isBuiltinRole(asked) ? asked : "default";
  const id = builtinModel(role, (provider) => usableModel(`${provider}/x`, config, env).ok);
  if (id === undefined) {
    const all = [...tried, {
      what: "models.default",
      why: "not set, and no built-in provider has its key (ANTHROPIC_API_KEY, OPENAI_API_KEY, " +
        "GEMINI_API_KEY)",
      missingKey: "ANTHROPIC_API_KEY",
    }];
    return { ok: false, error: nothingResolves(inputs, all), tried: all };
  }
  const missed = tried.find((t) => !t.unsetRole);
  const note = missed ? `${patternOf(missed)} unavailable (${missed.why}); using ${id}` : undefined;
  return choice(id, "builtin", note);
}
