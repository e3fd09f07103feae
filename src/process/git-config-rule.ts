/**
 * Which git settings xcsh's own `git` calls override, so that no program a
 * repository (or a command that wrote into its `.git`) chose is ever started.
 *
 * Decides four things, all pure:
 * - {@link FIXED_SETTINGS}: what every call sets whatever the config says
 *   (no hooks, no `core.fsmonitor`, no submodule recursion, no transport,
 *   no credential helper, no automatic maintenance); the first three
 *   ({@link PROGRAM_SETTINGS}) also reach every git a task's commands run;
 * - {@link withGitSettings}: an environment that gives every git started in
 *   it such settings, with command-line precedence
 *   (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`), after the
 *   ones the user's environment already holds;
 * - {@link namesProgram}: whether a config key names a program to run. The
 *   rule is by the variable's name: one ending in a word that git uses for a
 *   program (`…command`, `…cmd`, `…program`, `…helper`, `…driver`,
 *   `textconv`, `clean`, `smudge`, `process`, `…editor`, `…pager`, …), every
 *   key of `pager.*`, `submodule.<name>.update` (`!command`), and the
 *   `path` of the program sections (`lfs.customtransfer.<x>.path`,
 *   `browser.<x>.path`, `man.<x>.path`, `difftool.<x>.path`,
 *   `mergetool.<x>.path`);
 * - {@link repositoryOverrides}: for each such key set in the repository's
 *   own config (scope `local` or `worktree`, files it includes counted in),
 *   and for each shell alias there (`alias.<x> = !…`, judged by its value),
 *   the empty value, which git reads as "none"; for a filter driver the
 *   repository defines, also `required = false`. The user's own settings
 *   (global, system) are the user's and stay.
 *
 * {@link mayNameProgram} is the cheap test on a config file's text that
 * tells when the full listing (`git config --list`) is needed at all: a key
 * the rule matches, or an `include`, has its name written in the file, and
 * a shell alias a `!`.
 *
 * @example
 * ```ts
 * namesProgram("filter.lfs.clean");       // true
 * namesProgram("remote.origin.url");      // false
 * repositoryOverrides(parseConfigList("local\0core.sshcommand\nevil\0"));
 * // [["core.sshcommand", ""]]
 * ```
 *
 * @module
 */

/**
 * What keeps git from starting the programs a repository can plant without
 * any command asking for them (hooks, `core.fsmonitor`, a submodule's
 * checkout): set on every git xcsh runs and, through the environment
 * ({@link withGitSettings}), on every git a task's commands run.
 */
export const PROGRAM_SETTINGS: readonly (readonly [string, string])[] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["submodule.recurse", "false"],
];

/**
 * The settings every git a task's commands and stdio MCP servers run gets:
 * {@link PROGRAM_SETTINGS}, then `repository` (the programs the project
 * repository's own config names, blanked, as the parent found them). Pure.
 */
export function commandSettings(
  repository: readonly (readonly [string, string])[] = [],
): (readonly [string, string])[] {
  return [...PROGRAM_SETTINGS, ...repository];
}

/** Set on every git call xcsh makes, whatever any config file says. */
export const FIXED_SETTINGS: readonly (readonly [string, string])[] = [
  ...PROGRAM_SETTINGS,
  ["protocol.allow", "never"],
  ["credential.helper", ""],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
];

/** Ends of variable names that name a program git may start. */
const PROGRAM_WORDS = [
  "command",
  "cmd",
  "program",
  "helper",
  "driver",
  "textconv",
  "clean",
  "smudge",
  "process",
  "editor",
  "pager",
  "askpass",
  "proxy",
  "pack",
  "hook",
  "external",
  "filter",
  "fsmonitor",
  "hookspath",
  "browser",
  "viewer",
  "vcs",
] as const;

/** Sections whose `<section>.<name>.path` is a program. */
const PROGRAM_PATH_SECTIONS = new Set(["lfs", "browser", "man", "difftool", "mergetool"]);

/** Names that end like a program word and are none (blanking one would break git). */
const NOT_PROGRAMS = new Set(["partialclonefilter"]);

/** Whether the config key `key` (`section[.subsection].variable`) names a program. Pure. */
export function namesProgram(key: string): boolean {
  const lower = key.toLowerCase();
  const first = lower.indexOf(".");
  const last = lower.lastIndexOf(".");
  if (first < 0) return false;
  const section = lower.slice(0, first);
  const variable = lower.slice(last + 1);
  if (section === "pager") return true;
  if (section === "submodule" && variable === "update") return true;
  if (variable === "path" && last > first && PROGRAM_PATH_SECTIONS.has(section)) return true;
  if (NOT_PROGRAMS.has(variable)) return false;
  return PROGRAM_WORDS.some((w) => variable.endsWith(w));
}

/** The words that end a name the rule matches (a section's or a variable's). */
const ENDINGS = new RegExp(`(?:${[...PROGRAM_WORDS, "path", "update"].join("|")})(?![a-z0-9-])`);

/**
 * False only when the config text cannot set a key {@link namesProgram}
 * matches nor include another file: no name in it ends with a word the rule
 * looks for (names are letters, digits and `-`, in any case), and no
 * `include` appears. Pure.
 */
export function mayNameProgram(text: string): boolean {
  const lower = text.toLowerCase();
  return lower.includes("include") || lower.includes("!") || ENDINGS.test(lower);
}

export interface ConfigEntry {
  scope: string;
  key: string;
  value: string | null;
}

/** The entries of `git config --list --show-scope --null` output. Pure. */
export function parseConfigList(out: string): ConfigEntry[] {
  const parts = out.split("\0");
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i];
    const item = parts[i + 1];
    const nl = item.indexOf("\n");
    entries.push(
      nl < 0
        ? { scope, key: item, value: null }
        : { scope, key: item.slice(0, nl), value: item.slice(nl + 1) },
    );
  }
  return entries;
}

/** Scopes whose files the repository (or a command run in it) can write. */
const REPOSITORY_SCOPES = new Set(["local", "worktree"]);

/**
 * The settings that neutralise every program the repository's own config
 * names, in a stable order without repeats. Pure.
 */
export function repositoryOverrides(entries: readonly ConfigEntry[]): [string, string][] {
  const out = new Map<string, string>();
  for (const e of entries) {
    if (!REPOSITORY_SCOPES.has(e.scope)) continue;
    const key = e.key;
    const lower = key.toLowerCase();
    if (lower.startsWith("filter.") && lower.lastIndexOf(".") > "filter".length) {
      const driver = key.slice(0, key.lastIndexOf("."));
      for (const v of ["clean", "smudge", "process"]) out.set(`${driver}.${v}`, "");
      out.set(`${driver}.required`, "false");
    } else if (namesProgram(key)) {
      out.set(key, "");
    } else if (lower.startsWith("alias.") && (e.value ?? "").trimStart().startsWith("!")) {
      // A shell alias runs its text: git reads the empty one as an error.
      out.set(key, "");
    }
  }
  return [...out.entries()];
}

/**
 * `env` with `settings` appended to the `GIT_CONFIG_COUNT` list git reads
 * with command-line precedence (a later entry wins, so these win over the
 * user's own entries of the same key, which stay). A list that would make
 * every git fail (a count that is no whole number, a key or value missing below it)
 * is replaced with its entries.
 * `git -c` on a command line still comes later (the permission rules refuse
 * it where they apply). Pure.
 *
 * @example
 * ```ts
 * withGitSettings({ PATH: "/bin" }, [["core.fsmonitor", "false"]]);
 * // { PATH: "/bin", GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false" }
 * ```
 */
export function withGitSettings(
  env: Readonly<Record<string, string>>,
  settings: readonly (readonly [string, string])[],
): Record<string, string> {
  const out = { ...env };
  const given = out.GIT_CONFIG_COUNT;
  let count = given !== undefined && /^\d{1,4}$/.test(given.trim()) ? Number(given.trim()) : 0;
  // A list git would refuse (a key missing below the count) is replaced too.
  for (let i = 0; i < count; i++) {
    if (out[`GIT_CONFIG_KEY_${i}`] === undefined || out[`GIT_CONFIG_VALUE_${i}`] === undefined) {
      count = 0;
    }
  }
  if (given !== undefined && count === 0) {
    for (const name of Object.keys(out)) {
      if (/^GIT_CONFIG_(?:KEY|VALUE)_\d+$/.test(name)) delete out[name];
    }
  }
  for (const [key, value] of settings) {
    out[`GIT_CONFIG_KEY_${count}`] = key;
    out[`GIT_CONFIG_VALUE_${count}`] = value;
    count++;
  }
  out.GIT_CONFIG_COUNT = String(count);
  return out;
}
