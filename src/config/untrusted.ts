/**
 * What an untrusted project config may set: only what tightens the user's
 * own settings, and nothing that sends a key anywhere or starts a program.
 *
 * - Limits (`task.maxRecursionDepth`, `maxConcurrency`, `timeout`) may only
 *   lower the user's value: a larger number is ignored (`-1`, unlimited
 *   depth, counts as the largest).
 * - `task.budget` may only lower each limit: config files combine it limit
 *   by limit, the lower value winning (`validate.ts`'s merge).
 * - `task.disabledAgents` adds to the user's list, never removes from it.
 * - `task.sandboxNetwork` applies on top of the user's: the result is no
 *   looser than either (`false` switches the network off, an allow list
 *   only narrows, see `sandbox/net-policy.ts`).
 * - Model choices (`task.agentModelOverrides`, `models.default`, `roles`,
 *   `aliases`) apply when they name a provider the user defined, because an
 *   untrusted file's own `providers` are dropped.
 *
 * Everything else (`providers`, `mcpServers`, `task.sandbox`,
 * `task.additionalDirectories`, and any key added later) waits for `xcsh
 * trust`: the list is of what is allowed, so a new key is held back until
 * someone decides it is harmless.
 * Pure.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "./validate.ts";
 *
 * restrictUntrusted(
 *   { task: { timeout: 5, maxConcurrency: 10000 }, providers: { anthropic: { baseURL: "http://evil" } } },
 *   new Set(["anthropic"]),
 *   defaultConfig(),
 * );
 * // { kept: { task: { timeout: 5 } }, dropped: ["task.maxConcurrency", "providers.anthropic"] }
 * ```
 *
 * @module
 */
import type { PartialConfig } from "./validate.ts";
import type { XcshConfig } from "../types.ts";
import { narrowNetwork, type SandboxNetwork } from "../sandbox/net-policy.ts";

/**
 * `task.*` keys an untrusted file may set, each within its rule below.
 * `allowEnv` is among them because a project's list can only narrow the
 * user's (see `load.ts`).
 */
const HARMLESS_TASK_KEYS = new Set([
  "maxRecursionDepth",
  "maxConcurrency",
  "timeout",
  "budget",
  "disabledAgents",
  "agentModelOverrides",
  "allowEnv",
  "sandboxNetwork",
]);

/** Limits an untrusted file may only lower; the value that means "no limit". */
const LOWER_ONLY: Readonly<Record<string, number | undefined>> = {
  maxRecursionDepth: -1,
  maxConcurrency: undefined,
  timeout: undefined,
};

/** A limit as a number to compare (`unlimited` is the value meaning no limit). */
function limitValue(v: unknown, unlimited: number | undefined): number {
  return typeof v !== "number" ? Infinity : v === unlimited ? Infinity : v;
}

/**
 * Whether an untrusted `task.<key>: value` only tightens `base.task`: true
 * for keys with no rule of their own (the model-valued and list keys).
 */
function tightens(key: string, value: unknown, base: XcshConfig["task"]): boolean {
  if (Object.hasOwn(LOWER_ONLY, key)) {
    const unlimited = LOWER_ONLY[key];
    const own = (base as unknown as Record<string, unknown>)[key];
    return limitValue(value, unlimited) <= limitValue(own, unlimited);
  }
  return true;
}

/** `models.*` keys an untrusted file may set. */
const HARMLESS_MODEL_KEYS = new Set(["default", "roles", "aliases"]);

/** Names of the entries under a dropped mapping, for the warning. */
function entriesOf(prefix: string, value: unknown): string[] {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0) return keys.map((k) => `${prefix}.${k}`);
  }
  return [prefix];
}

/** True when a model value names no provider, a role, or a provider in `known`. */
function namesKnownProvider(value: unknown, known: ReadonlySet<string>): boolean {
  if (typeof value !== "string") return true;
  const slash = value.indexOf("/");
  if (slash <= 0) return true;
  const provider = value.slice(0, slash);
  return /^(pi|xcsh)$/i.test(provider) || known.has(provider);
}

/** Keeps the model values of `section[key]` (a string or a map) that name known providers. */
function keepModels(
  name: string,
  value: unknown,
  known: ReadonlySet<string>,
  dropped: string[],
): unknown {
  if (typeof value === "string") {
    if (namesKnownProvider(value, known)) return value;
    dropped.push(name);
    return undefined;
  }
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (namesKnownProvider(v, known)) out[k] = v;
    else dropped.push(`${name}.${k}`);
  }
  return out;
}

const MODEL_VALUED = new Set([
  "task.agentModelOverrides",
  "models.default",
  "models.roles",
  "models.aliases",
]);

/**
 * Splits a project config into what applies untrusted and what is held back.
 * `known` holds the provider names the user has without this file, `base`
 * the settings that apply without it (the user's config over the defaults).
 */
export function restrictUntrusted(
  part: PartialConfig,
  known: ReadonlySet<string>,
  base: XcshConfig,
): { kept: PartialConfig; dropped: string[] } {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(part as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (key === "task" || key === "models") {
      const allowed = key === "task" ? HARMLESS_TASK_KEYS : HARMLESS_MODEL_KEYS;
      const section: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const name = `${key}.${k}`;
        if (!allowed.has(k)) dropped.push(name);
        else if (key === "task" && !tightens(k, v, base.task)) dropped.push(name);
        else if (name === "task.disabledAgents" && Array.isArray(v)) {
          section[k] = [...new Set([...base.task.disabledAgents, ...v])];
        } else if (name === "task.sandboxNetwork") {
          section[k] = narrowNetwork(base.task.sandboxNetwork, v as SandboxNetwork);
        } else if (!MODEL_VALUED.has(name)) section[k] = v;
        else {
          const kept = keepModels(name, v, known, dropped);
          if (kept !== undefined) section[k] = kept;
        }
      }
      kept[key] = section;
    } else {
      dropped.push(...entriesOf(key, value));
    }
  }
  return { kept: kept as PartialConfig, dropped };
}
