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
import { keyVariables } from "../../model/providers.ts";
import { chooseLauncher } from "../../plan/launcher-choice.ts";
import { TASK_DEPTH } from "../../protocol/variables.ts";
import type { TaskRequest, XcshConfig } from "../../types.ts";

/** The environment every child of a call starts from: `env` without the key variables `config` names. */
export function childBaseEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  config: XcshConfig,
): Record<string, string> {
  const keyVars = new Set(keyVariables(config));
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !keyVars.has(k)) base[k] = v;
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
  if (i.dryRun || i.call.isolation === "worktree") return undefined;
  const launched = chooseLauncher(i.config.task, i.depth, {
    ...(i.call.launcher !== undefined ? { call: i.call.launcher } : {}),
  });
  if (!launched.ok || launched.plan) return undefined;
  return {
    env: { ...childBaseEnvironment(i.env, i.config), [TASK_DEPTH]: String(i.depth + 1) },
  };
}
