/**
 * Whether a call starts a spare child, and with what environment: the
 * environment every child of the call starts from (this process's, without
 * the key variables the config names: keys travel in the envelope), with the
 * depth counter one deeper. A call starts none when it is a dry run, when
 * its tasks get worktrees of their own (`--isolation worktree`), or when a
 * launcher starts them elsewhere (the call's, or the config's): the spare
 * could serve none of them. Whether the spare then serves the first task
 * is `spareServes`'s (`spare-child.ts`); a spare nothing takes exits.
 *
 * `xcsh run` starts its spare before it reads the config, from what the
 * flags and the environment say ({@link earlySpareSetting}: the built-in
 * providers' key variables left out, as under every config). Once the
 * config is read, {@link spareSetting} decides again; the early spare is the
 * call's only when it started in the same folder with the same environment,
 * whole (`spareFor`, `spare-child.ts`). Otherwise it is released, and a
 * spare the config allows starts then: a key variable the config names, or
 * a launcher it sets, never reaches a child that way.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../../config/validate.ts";
 *
 * spareSetting({
 *   config: defaultConfig(),
 *   depth: 0,
 *   env: { PATH: "/usr/bin", ANTHROPIC_API_KEY: "sk-…" },
 *   call: {},
 * });
 * // { env: { PATH: "/usr/bin", XCSH_TASK_DEPTH: "1" } }
 * ```
 *
 * @module
 */
import { builtinKeyVariables, keyVariables } from "../../model/providers.ts";
import { chooseLauncher } from "../../plan/launcher-choice.ts";
import { TASK_DEPTH } from "../../protocol/variables.ts";
import type { TaskRequest, XcshConfig } from "../../types.ts";

/** The environment every child of a call starts from: `env` without the key variables `config` names. */
export function childBaseEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  config: XcshConfig,
): Record<string, string> {
  return without(env, keyVariables(config));
}

/** The variables `env` sets, but for those in `names`. */
function without(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const dropped = new Set(names);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !dropped.has(k)) base[k] = v;
  }
  return base;
}

/** What decides a call's spare child. */
export interface SpareInputs {
  config: XcshConfig;
  /** The caller's depth (0: a top-level call). */
  depth: number;
  /** This process's environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** The call's own isolation and launcher. */
  call: Pick<TaskRequest, "isolation" | "launcher">;
  dryRun?: boolean;
}

/** The environment of the call's spare child, or undefined when the call starts none. Pure. */
export function spareSetting(i: SpareInputs): { env: Record<string, string> } | undefined {
  return setting(i, i.config.task, keyVariables(i.config));
}

/** What is known of a call's spare before the config is read. */
export type EarlySpareInputs = Omit<SpareInputs, "config">;

/**
 * The environment of a spare started before the config is read, or
 * undefined when the flags already say the call can use none: as
 * {@link spareSetting} decides under a config that names no launcher and
 * no key variable of its own. The config may still rule the spare out or
 * change its environment; {@link spareSetting} then decides. Pure.
 */
export function earlySpareSetting(
  i: EarlySpareInputs,
): { env: Record<string, string> } | undefined {
  return setting(i, {}, builtinKeyVariables());
}

function setting(
  i: EarlySpareInputs,
  task: Pick<XcshConfig["task"], "launcher" | "launchers">,
  keys: readonly string[],
): { env: Record<string, string> } | undefined {
  if (i.dryRun || i.call.isolation === "worktree") return undefined;
  const launched = chooseLauncher(task, i.depth, {
    ...(i.call.launcher !== undefined ? { call: i.call.launcher } : {}),
  });
  if (!launched.ok || launched.plan) return undefined;
  return { env: { ...without(i.env, keys), [TASK_DEPTH]: String(i.depth + 1) } };
}
