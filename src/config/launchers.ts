/**
 * What the launcher settings of a config file mean: `task.launcher` (the
 * argument list put before every child command, or the name of an entry of
 * `task.launchers`), `task.launchers` (named argument lists; an empty list,
 * and the built-in name `local`, mean "start the child here") and
 * `task.launcherBinary` (the xcsh the far side runs). Placeholders in the
 * arguments are `{task}`, `{agent}`, `{session}`, `{cwd}` and `{job}`; any
 * other `{word}` is an error, so a typo never reaches a cluster. Pure: the
 * caller turns the message into a config error naming the key.
 *
 * @example
 * ```ts
 * checkLauncherArgs(["srun", "--job-name={job}", "--"], "task.launcher");
 * // { ok: true, value: ["srun", "--job-name={job}", "--"] }
 * checkLauncherArgs(["srun", "--chdir={dir}"], "task.launcher").ok; // false
 * ```
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { describeValue, isRecord } from "../formats/values.ts";

/** The placeholders a launcher argument may hold. */
export const LAUNCHER_PLACEHOLDERS = ["task", "agent", "session", "cwd", "job"] as const;
export type LauncherPlaceholder = typeof LAUNCHER_PLACEHOLDERS[number];

/** The launcher name that always means "start the child on this machine". */
export const LOCAL_LAUNCHER = "local";

/** A launcher name: a word a flag or an agent file can carry. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type LauncherCheck<T> = { ok: true; value: T } | { ok: false; message: string };

const known = LAUNCHER_PLACEHOLDERS.map((p) => `{${p}}`).join(", ");

/**
 * An argument list: strings, and non-empty unless `allowEmpty` (a named
 * launcher may be `[]`, "local"); each `{word}` a known placeholder.
 */
export function checkLauncherArgs(
  value: unknown,
  key: string,
  allowEmpty = false,
): LauncherCheck<string[]> {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    return {
      ok: false,
      message: `'${key}' must be a list of strings (a program and its arguments), got ${
        describeValue(value)
      }`,
    };
  }
  if (value.length === 0 && !allowEmpty) {
    return {
      ok: false,
      message: `'${key}' must not be empty: give the launcher's program and its arguments, ` +
        `or leave the key out to start children locally`,
    };
  }
  if (value.length > 0 && value[0].trim() === "") {
    return { ok: false, message: `'${key}' starts with an empty program name` };
  }
  for (const arg of value) {
    for (const m of arg.matchAll(/\{([^{}]*)\}/g)) {
      if (!(LAUNCHER_PLACEHOLDERS as readonly string[]).includes(m[1])) {
        return {
          ok: false,
          message: `'${key}' has an unknown placeholder {${m[1]}} in ${
            JSON.stringify(arg)
          } (known: ${known})`,
        };
      }
    }
  }
  return { ok: true, value: [...value] };
}

/** `true` when `name` can name a launcher. */
export function isLauncherName(name: string): boolean {
  return NAME.test(name);
}

/** The three launcher keys of a `task` mapping, checked. */
export interface LauncherKeys {
  launcher?: string[] | string;
  launchers?: Record<string, string[]>;
  launcherBinary?: string;
}

/** Checks `task.launcher`, `task.launchers` and `task.launcherBinary` of `raw`. */
export function checkLauncherKeys(raw: Record<string, unknown>): LauncherCheck<LauncherKeys> {
  const out: LauncherKeys = {};
  if (raw.launchers !== undefined) {
    if (!isRecord(raw.launchers)) {
      return {
        ok: false,
        message: `'task.launchers' must be a mapping of names to argument lists, got ${
          describeValue(raw.launchers)
        }`,
      };
    }
    const named: Record<string, string[]> = {};
    for (const [name, args] of Object.entries(raw.launchers)) {
      const key = `task.launchers.${name}`;
      if (!isLauncherName(name)) {
        return {
          ok: false,
          message: `'${key}': a launcher name is letters, digits, '.', '_', '-'`,
        };
      }
      const checked = checkLauncherArgs(args, key, true);
      if (!checked.ok) return checked;
      named[name] = checked.value;
    }
    out.launchers = named;
  }
  if (raw.launcher !== undefined) {
    if (typeof raw.launcher === "string") {
      const name = raw.launcher.trim();
      if (!isLauncherName(name)) {
        return {
          ok: false,
          message: `'task.launcher' must be a list of strings or the name of a launcher, got ${
            describeValue(raw.launcher)
          }`,
        };
      }
      out.launcher = name;
    } else {
      const checked = checkLauncherArgs(raw.launcher, "task.launcher");
      if (!checked.ok) return checked;
      out.launcher = checked.value;
    }
  }
  if (raw.launcherBinary !== undefined) {
    const b = raw.launcherBinary;
    if (typeof b !== "string" || !isAbsolute(b.trim())) {
      return {
        ok: false,
        message:
          `'task.launcherBinary' must be an absolute path (the xcsh the far side runs), got ${
            describeValue(b)
          }`,
      };
    }
    out.launcherBinary = b.trim();
  }
  return { ok: true, value: out };
}
