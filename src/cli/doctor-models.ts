/**
 * The model part of `xcsh doctor`: each model setting and whether it resolves
 * to a usable provider here, each provider with its endpoint and key status
 * (never the key), and whether any model at all can run. Pure: config and
 * environment are passed in.
 *
 * @module
 */
import { BUILTIN_PROVIDERS, knownProviders, resolveProvider } from "../model/providers.ts";
import { resolvePattern, usableModel } from "../model/resolve.ts";
import { builtinModel, isBuiltinRole } from "../model/builtin-defaults.ts";
import { exampleModel } from "../model/families.ts";
import type { XcshConfig } from "../types.ts";
import { hideUrlCredentials } from "../text/redact.ts";
import { MODEL, modelVariable } from "../protocol/variables.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface ModelRow {
  name: string;
  value?: string;
  /** The `provider/model` it resolves to. */
  resolved?: string;
  problem?: string;
}

export interface ProviderRow {
  name: string;
  type: string;
  baseURL: string;
  status: string;
  usable: boolean;
}

/** Each model setting and whether it resolves to a provider that can be used. */
export function modelReport(config: XcshConfig, env: Env): ModelRow[] {
  const rows: ModelRow[] = [];
  const add = (name: string, value: string | undefined, role?: string) => {
    if (value === undefined) {
      // An unset default or role: what a built-in provider with a key stands in with.
      const stand = role !== undefined && isBuiltinRole(role)
        ? builtinModel(role, (provider) => usableModel(`${provider}/x`, config, env).ok)
        : undefined;
      return rows.push(stand ? { name, resolved: `${stand} (built-in)` } : { name });
    }
    const r = resolvePattern(value, config);
    if (!r.ok) return rows.push({ name, value, problem: r.reason });
    const usable = usableModel(r.id, config, env);
    rows.push({
      name,
      value,
      resolved: r.id,
      ...(usable.ok ? {} : { problem: usable.short }),
    });
  };
  add(MODEL, modelVariable(env) || undefined);
  add("models.default", config.models.default, "default");
  for (const role of ["smol", "slow", "plan", ...Object.keys(config.models.roles)]) {
    if (!rows.some((r) => r.name === `roles.${role}`)) {
      add(
        `roles.${role}`,
        Object.hasOwn(config.models.roles, role) ? config.models.roles[role] : undefined,
        config.models.default ? undefined : role,
      );
    }
  }
  for (const [name, value] of Object.entries(config.models.aliases)) add(`aliases.${name}`, value);
  return rows.filter((r) => r.value !== undefined || r.name !== MODEL);
}

/** Each provider, its endpoint, and whether its key is set (never the key). */
export function providerReport(config: XcshConfig, env: Env): ProviderRow[] {
  return knownProviders(config).map((name) => {
    const r = resolveProvider(name, config, env);
    if (!r.ok) {
      const b = Object.hasOwn(BUILTIN_PROVIDERS, name) ? BUILTIN_PROVIDERS[name] : undefined;
      return {
        name,
        type: config.providers[name]?.type ?? b?.type ?? "?",
        baseURL: hideUrlCredentials(config.providers[name]?.baseURL ?? b?.baseURL ?? ""),
        status: r.missingKey ? `not usable: ${r.missingKey} not set` : `not usable: ${r.error}`,
        usable: false,
      };
    }
    const p = r.value;
    return {
      name,
      type: p.type,
      baseURL: hideUrlCredentials(p.baseURL),
      status: p.keyEnv ? `key from ${p.keyEnv}` : "no key needed",
      usable: true,
    };
  });
}

/**
 * Why no model at all can run here, or undefined when one can: a configured
 * model that resolves to a usable provider, or a key for a provider whose
 * models agent files name directly (`claude-…`, `gpt-…`, `gemini-…`, `sonnet`).
 */
export function noUsableModel(
  models: readonly ModelRow[],
  providers: readonly ProviderRow[],
): string | undefined {
  if (models.some((m) => m.resolved && !m.problem)) return undefined;
  const keyed = providers.filter((p) =>
    p.usable && Object.hasOwn(BUILTIN_PROVIDERS, p.name) && BUILTIN_PROVIDERS[p.name].keyRequired
  );
  if (keyed.length > 0) return undefined;
  return "no model is usable here: no model setting resolves to a usable provider and no " +
    "provider key is set. Export ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, or set " +
    `models.default in ~/.xcsh/agent/config.yml (e.g. 'models.default: ${exampleModel("ollama")}')`;
}
