/**
 * Which endpoint, wire format and API key a `provider/model` id means.
 *
 * Decides the built-in providers (`anthropic`, `openai`, `google`, `ollama`),
 * how config `providers.<name>` entries add to or adjust them, which
 * environment variables move a built-in provider's base URL (so a proxy or a
 * local test server can stand in), which variable holds each key, and the
 * values a run under a config must hide (`runSecrets`). Pure:
 * the environment is passed in. Errors are one line a user can act on, and
 * never contain a key.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * resolveProvider("ollama", defaultConfig(), {});
 * // { ok: true, value: { name: "ollama", type: "openai-compatible",
 * //   baseURL: "http://127.0.0.1:11434/v1", apiKey: undefined, keyEnv: undefined } }
 * ```
 *
 * @module
 */
import type { ProviderConfig, XcshConfig } from "../types.ts";
import { secretsOf } from "../text/secrets.ts";

export type ProviderType = ProviderConfig["type"];

/** A built-in provider: its wire format, default endpoint and variables. */
export interface BuiltinProvider {
  type: ProviderType;
  baseURL: string;
  /** Variables that move the base URL, first set wins. */
  baseURLEnv: readonly string[];
  /** Variables that hold the key, first set wins. */
  keyEnv: readonly string[];
  /** False for local servers that take no key. */
  keyRequired: boolean;
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  anthropic: {
    type: "anthropic",
    baseURL: "https://api.anthropic.com/v1",
    baseURLEnv: ["ANTHROPIC_BASE_URL"],
    keyEnv: ["ANTHROPIC_API_KEY"],
    keyRequired: true,
  },
  openai: {
    type: "openai",
    baseURL: "https://api.openai.com/v1",
    baseURLEnv: ["OPENAI_BASE_URL"],
    keyEnv: ["OPENAI_API_KEY"],
    keyRequired: true,
  },
  google: {
    type: "google",
    baseURL: "https://generativelanguage.googleapis.com/v1beta",
    baseURLEnv: ["GEMINI_BASE_URL", "GOOGLE_GENERATIVE_AI_BASE_URL"],
    keyEnv: ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
    keyRequired: true,
  },
  ollama: {
    type: "openai-compatible",
    baseURL: "http://127.0.0.1:11434/v1",
    baseURLEnv: ["OLLAMA_BASE_URL"],
    keyEnv: ["OLLAMA_API_KEY"],
    keyRequired: false,
  },
};

/** Everything needed to talk to one provider. */
export interface ResolvedProvider {
  name: string;
  type: ProviderType;
  baseURL: string;
  /** The key, when one is configured; never print it. */
  apiKey?: string;
  /** The variable the key came from (safe to print). */
  keyEnv?: string;
}

export type ProviderResult =
  | { ok: true; value: ResolvedProvider }
  /** `missingKey`: the variable to set, when a missing key is the only problem. */
  | { ok: false; error: string; missingKey?: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Names of every provider available with this config, sorted. */
export function knownProviders(config: XcshConfig): string[] {
  return [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...Object.keys(config.providers)])]
    .sort();
}

/**
 * The wire type of the provider named `name`: its config entry's, else the
 * built-in's of that name (a config entry for a built-in may set only some
 * fields); undefined when neither says.
 */
export function providerTypeNamed(
  name: string,
  config: Pick<XcshConfig, "providers">,
): ProviderType | undefined {
  const custom = Object.hasOwn(config.providers, name) ? config.providers[name] : undefined;
  const builtin = Object.hasOwn(BUILTIN_PROVIDERS, name) ? BUILTIN_PROVIDERS[name] : undefined;
  return custom?.type ?? builtin?.type;
}

/**
 * Adds the API version path a bare host lacks: `ANTHROPIC_BASE_URL` and
 * `OLLAMA_BASE_URL` are often given as `http://host:port` (the convention of
 * other tools), while the SDK wants the versioned root.
 */
export function normalizeBaseURL(url: string, type: ProviderType): string {
  const trimmed = url.trim().replace(/\/+$/, "");
  let path = "";
  try {
    path = new URL(trimmed).pathname;
  } catch {
    return trimmed;
  }
  if (path !== "" && path !== "/") return trimmed;
  return trimmed + (type === "google" ? "/v1beta" : "/v1");
}

function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== "") return { name, value: value.trim() };
  }
  return undefined;
}

/**
 * Resolves a provider name against the built-ins, config and environment.
 * A config entry with a built-in name adjusts that provider (for example a
 * different `baseURL`); base URL variables of built-ins win over config.
 */
export function resolveProvider(name: string, config: XcshConfig, env: Env): ProviderResult {
  const builtin = Object.hasOwn(BUILTIN_PROVIDERS, name) ? BUILTIN_PROVIDERS[name] : undefined;
  const custom = Object.hasOwn(config.providers, name) ? config.providers[name] : undefined;
  if (!builtin && !custom) {
    return {
      ok: false,
      error: `unknown provider '${name}'. Known providers: ${
        knownProviders(config).join(", ")
      } (add others under 'providers' in ~/.xcsh/agent/config.yml)`,
    };
  }
  const type = custom?.type ?? builtin?.type;
  if (!type) {
    return {
      ok: false,
      error: `provider '${name}' has no 'type' in config: set providers.${name}.type to one of ` +
        "openai-compatible, anthropic, openai, google",
    };
  }
  const envURL = builtin ? firstSet(env, builtin.baseURLEnv) : undefined;
  const rawURL = envURL?.value ?? custom?.baseURL ?? builtin?.baseURL;
  if (!rawURL) {
    return {
      ok: false,
      error: `provider '${name}' has no base URL: set providers.${name}.baseURL in config`,
    };
  }
  const baseURL = normalizeBaseURL(rawURL, type);

  if (custom?.apiKeyEnv) {
    const key = firstSet(env, [custom.apiKeyEnv]);
    if (!key) {
      return {
        ok: false,
        error:
          `${custom.apiKeyEnv} is not set: export ${custom.apiKeyEnv}=<your key> to use provider '${name}'`,
        missingKey: custom.apiKeyEnv,
      };
    }
    return { ok: true, value: { name, type, baseURL, apiKey: key.value, keyEnv: key.name } };
  }
  if (builtin) {
    const key = firstSet(env, builtin.keyEnv);
    if (!key && builtin.keyRequired) {
      const names = builtin.keyEnv.join(" or ");
      return {
        ok: false,
        error: `${names} is not set: export ${
          builtin.keyEnv[0]
        }=<your key> to use provider '${name}'`,
        missingKey: builtin.keyEnv[0],
      };
    }
    return { ok: true, value: { name, type, baseURL, apiKey: key?.value, keyEnv: key?.name } };
  }
  return { ok: true, value: { name, type, baseURL } };
}

/** The first provider with no `type` that is not a built-in one, if any. */
export function untypedProvider(config: XcshConfig): string | undefined {
  return Object.entries(config.providers).find(([name, p]) =>
    !p.type && !Object.hasOwn(BUILTIN_PROVIDERS, name)
  )?.[0];
}

/** The message for {@link untypedProvider}'s finding. */
export function untypedProviderMessage(name: string): string {
  return `'providers.${name}.type' is required: one of openai-compatible, anthropic, openai, google`;
}

/** Splits `provider/model` at the first slash (model ids may contain more). */
export function splitModelId(id: string): { provider: string; model: string } | undefined {
  const i = id.indexOf("/");
  if (i <= 0 || i === id.length - 1) return undefined;
  return { provider: id.slice(0, i), model: id.slice(i + 1) };
}

/**
 * The provider keys set in `env` under this config, by variable name: what a
 * parent hands its child in the envelope.
 */
export function providerKeys(config: XcshConfig, env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of keyVariables(config)) {
    const v = env[name];
    if (v !== undefined && v.trim() !== "") out[name] = v;
  }
  return out;
}

/** Every base URL this config and environment may use (their credentials are secrets). */
export function baseURLs(config: XcshConfig, env: Env): string[] {
  return [
    ...Object.values(config.providers).map((p) => p.baseURL ?? ""),
    ...Object.values(BUILTIN_PROVIDERS).flatMap((b) => b.baseURLEnv.map((n) => env[n] ?? "")),
  ].filter(Boolean);
}

/**
 * The values a run under this config must hide from everything it shows or
 * writes, longest first: its keys (by value, whatever their names), every
 * secret variable of `env` and the credentials inside base URLs, as
 * `text/secrets.ts` decides. `env` holds the keys the run was handed.
 */
export function runSecrets(config: XcshConfig, env: Env): string[] {
  return secretsOf(env, keyVariables(config), baseURLs(config, env));
}

/** Every variable that may hold a provider key (or the search key) under this config. */
export function keyVariables(config: XcshConfig): string[] {
  const names = new Set<string>();
  for (const p of Object.values(BUILTIN_PROVIDERS)) for (const k of p.keyEnv) names.add(k);
  for (const p of Object.values(config.providers)) if (p.apiKeyEnv) names.add(p.apiKeyEnv);
  // The web search provider's key travels and is hidden like a model key.
  if (config.search) names.add(config.search.apiKeyEnv);
  return [...names];
}
