/**
 * What the launcher settings of a config file mean: `task.launcher` (a
 * launcher put before every child command, or the name of an entry of
 * `task.launchers`), `task.launchers` (named launchers; an empty argument
 * list, and the built-in name `local`, mean "start the child here") and
 * `task.launcherBinary` (the xcsh the far side runs).
 *
 * A launcher is an argument list, or `{args, shell}` where `shell` says
 * whether its far side joins the words into a command for a shell (ssh and
 * everything built on it: `autossh`, `sshpass -e ssh`, `env ssh`, a
 * wrapper). Without `shell`, the far side is taken to be a shell unless the
 * program is one known to start its arguments as they are (`srun`,
 * `kubectl`, `podman`, `docker`): quoting a word a far side then reads
 * literally breaks that word loudly, while a shell reading an unquoted one
 * runs whatever it holds. For a shell, a placeholder may not stand inside
 * quotes the launcher's own words open: xcsh quotes every value itself, and
 * its quotes inside other quotes would end them.
 *
 * Placeholders in the arguments are `{task}`, `{agent}`, `{session}`,
 * `{cwd}` and `{job}`; any other `{word}` is an error, so a typo never
 * reaches a cluster. Pure: the caller turns the message into a config
 * error naming the key.
 *
 * @example
 * ```ts
 * checkLauncherArgs(["srun", "--job-name={job}", "--"], "task.launcher");
 * // { ok: true, value: ["srun", "--job-name={job}", "--"] }
 * checkLauncherArgs(["srun", "--chdir={dir}"], "task.launcher").ok; // false
 * checkLauncher(["autossh", "box", "cd", "{cwd}", "&&"], "task.launcher");
 * // { ok: true, value: { args: ["autossh", "box", "cd", "{cwd}", "&&"], shell: true } }
 * ```
 *
 * @module
 */
import { basename, isAbsolute } from "node:path";
import { describeValue, isRecord } from "../formats/values.ts";
import type { LauncherEntry } from "../types.ts";

/** The placeholders a launcher argument may hold. */
export const LAUNCHER_PLACEHOLDERS = ["task", "agent", "session", "cwd", "job"] as const;
export type LauncherPlaceholder = typeof LAUNCHER_PLACEHOLDERS[number];

/** The launcher name that always means "start the child on this machine". */
export const LOCAL_LAUNCHER = "local";

/** A launcher name: a word a flag or an agent file can carry. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Programs that start the command they are given as its words, with no
 * shell between: without `shell`, a launcher starting with one of these
 * is taken not to be a shell; every other program is.
 */
export const DIRECT_LAUNCHERS: readonly string[] = ["srun", "kubectl", "podman", "docker"];

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

/** Whether a launcher without `shell` has a shell on its far side: see {@link DIRECT_LAUNCHERS}. */
export function inferredShell(args: readonly string[]): boolean {
  return args.length > 0 && !DIRECT_LAUNCHERS.includes(basename(args[0]));
}

/**
 * Why the command a far shell reads (the words joined by spaces, as ssh
 * joins them) could not hold xcsh's quoted values: a placeholder inside
 * quotes or right after a backslash, or a quote left open before xcsh's own
 * words; `undefined` when it can. Single, double and `$'…'` quotes and
 * backslashes are followed.
 */
export function shellWordsProblem(args: readonly string[]): string | undefined {
  const line = args.join(" ");
  const placeholderAt = (i: number) => {
    const m = /^\{([a-z]+)\}/.exec(line.slice(i));
    return m && (LAUNCHER_PLACEHOLDERS as readonly string[]).includes(m[1]) ? m[0] : undefined;
  };
  let quote: "'" | '"' | "$'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    const found = quote !== undefined && c === "{" ? placeholderAt(i) : undefined;
    if (found) return `the placeholder ${found} stands inside quotes`;
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === "\\") {
      const escaped = placeholderAt(i + 1);
      if (escaped) return `the placeholder ${escaped} follows a backslash`;
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (quote === "$'") {
      if (c === "'") quote = undefined;
    } else if (c === "$" && line[i + 1] === "'") {
      quote = "$'";
      i++;
    } else if (c === "'" || c === '"') {
      quote = c;
    }
  }
  return quote !== undefined ? `a quote (${quote}) is left open` : undefined;
}

/**
 * A launcher: an argument list, or `{args, shell}`; `shell` absent is
 * inferred ({@link inferredShell}).
 */
export function checkLauncher(
  value: unknown,
  key: string,
  allowEmpty = false,
): LauncherCheck<LauncherEntry> {
  let args: unknown = value;
  let shell: boolean | undefined;
  if (isRecord(value)) {
    const extra = Object.keys(value).filter((k) => k !== "args" && k !== "shell");
    if (extra.length > 0) {
      return {
        ok: false,
        message: `'${key}.${extra[0]}' is not a launcher key (known: args, shell)`,
      };
    }
    if (value.shell !== undefined && typeof value.shell !== "boolean") {
      return {
        ok: false,
        message: `'${key}.shell' must be true (the far side runs the words through a shell, ` +
          `as ssh does) or false (it starts them as they are), got ${describeValue(value.shell)}`,
      };
    }
    shell = value.shell as boolean | undefined;
    args = value.args;
    if (args === undefined) {
      return {
        ok: false,
        message: `'${key}.args' is missing: give the launcher's program and its arguments`,
      };
    }
    key = `${key}.args`;
  }
  const checked = checkLauncherArgs(args, key, allowEmpty);
  if (!checked.ok) return checked;
  const entry = { args: checked.value, shell: shell ?? inferredShell(checked.value) };
  const problem = entry.shell ? shellWordsProblem(entry.args) : undefined;
  if (problem) {
    return {
      ok: false,
      message: `'${key}': in the command the far side's shell reads, ${problem}; xcsh quotes ` +
        `every value itself, so write placeholders outside quotes and close every quote`,
    };
  }
  return { ok: true, value: entry };
}

/** `true` when `name` can name a launcher. */
export function isLauncherName(name: string): boolean {
  return NAME.test(name);
}

/** The three launcher keys of a `task` mapping, checked. */
export interface LauncherKeys {
  launcher?: LauncherEntry | string;
  launchers?: Record<string, LauncherEntry>;
  launcherBinary?: string;
}

/** Checks `task.launcher`, `task.launchers` and `task.launcherBinary` of `raw`. */
export function checkLauncherKeys(raw: Record<string, unknown>): LauncherCheck<LauncherKeys> {
  const out: LauncherKeys = {};
  if (raw.launchers !== undefined) {
    if (!isRecord(raw.launchers)) {
      return {
        ok: false,
        message: `'task.launchers' must be a mapping of names to launchers, got ${
          describeValue(raw.launchers)
        }`,
      };
    }
    const named: Record<string, LauncherEntry> = {};
    for (const [name, value] of Object.entries(raw.launchers)) {
      const key = `task.launchers.${name}`;
      if (!isLauncherName(name)) {
        return {
          ok: false,
          message: `'${key}': a launcher name is letters, digits, '.', '_', '-'`,
        };
      }
      const checked = checkLauncher(value, key, true);
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
      const checked = checkLauncher(raw.launcher, "task.launcher");
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
