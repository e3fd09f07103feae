/**
 * Which simple commands run text their own words do not show, so that a
 * `Bash(…)` permission rule checked on those words would be bypassed. Pure;
 * the words come from `formats/shell-words.ts`.
 *
 * Decides three things:
 * - {@link secondReading}: the command hands text to a second shell
 *   reading: a shell program (`sh`, `bash`, `zsh`, … at any word, so
 *   `| sh`, `sudo bash`, `xargs sh -c` and `find -exec sh` count), a
 *   builtin that reads text as commands (`eval`, `source`, `.`, `alias`, as
 *   the command, also behind `builtin` or `command`), or a runner whose
 *   program name comes from its input (`xargs env`, `xargs sudo`,
 *   `find -exec {}`).
 *   Under a deny rule such a command is refused: its text is read again
 *   where no rule sees it.
 * - {@link embeddedLines}: the words of a command that are themselves
 *   command lines another program runs (`watch 'a; rm x'`, `su -c '…'`,
 *   `ssh host '…'`, `git -c alias.x='!rm x'`): a word holding a blank or a
 *   separator, and the value of a `name=value` word, a leading `!` dropped.
 *   Deny rules are checked on the commands of these too.
 * - {@link gitConfigOption}: a `git` (at any word) given `-c`,
 *   `--config-env` or `--exec-path` before its subcommand, which chooses
 *   programs git runs (`core.pager`, `core.fsmonitor`, an alias starting with
 *   `!`). Refused under any Bash rule; `-C`, `--git-dir` and `--work-tree`
 *   stay allowed (the settings every command's git gets still apply there).
 *
 * @example
 * ```ts
 * secondReading(["xargs", "sh", "-c", "rm x"]); // "sh"
 * embeddedLines(["git", "-c", "alias.x=!rm -rf ~", "x"]); // ["rm -rf ~"]
 * gitConfigOption(["git", "-c", "core.pager=sh", "log"]); // "-c"
 * ```
 *
 * @module
 */
import { basename } from "node:path";

/** Programs that read their input, a file or `-c` text as shell commands. */
const SHELLS = new Set([
  "sh",
  "bash",
  "rbash",
  "dash",
  "ash",
  "zsh",
  "ksh",
  "ksh93",
  "mksh",
  "pdksh",
  "oksh",
  "yash",
  "posh",
  "fish",
  "csh",
  "tcsh",
  "busybox",
  "toybox",
]);

/** Builtins that read text as commands (only as the command itself). */
const READING_BUILTINS = new Set(["eval", "source", ".", "alias"]);

/** Builtins that run the builtin named next (`builtin eval`, `command -p source`). */
const BUILTIN_RUNNERS = new Set(["builtin", "command"]);

/**
 * The word that hands text to a second shell reading, or undefined.
 *
 * @example
 * ```ts
 * secondReading(["echo", "hi"]); // undefined
 * secondReading(["command", "eval", "x"]); // "eval"
 * ```
 */
export function secondReading(words: readonly string[]): string | undefined {
  const shell = words.find((w) => SHELLS.has(basename(w)));
  if (shell !== undefined) return shell;
  const fromInput = programFromInput(words);
  if (fromInput !== undefined) return fromInput;
  let k = 0;
  while (k < words.length && BUILTIN_RUNNERS.has(words[k])) {
    k++;
    while (k < words.length && /^-[pvV]+$/.test(words[k])) k++;
  }
  return k < words.length && READING_BUILTINS.has(words[k]) ? words[k] : undefined;
}

/** `xargs` options that take the next word as their value. */
const XARGS_VALUE_OPTIONS = new Set(["-I", "-a", "-d", "-E", "-L", "-n", "-P", "-s"]);

/**
 * Programs that run the command their arguments name: after `xargs`, the
 * words its input adds become that command, program name included.
 */
const RUNNERS = new Set([
  "env",
  "sudo",
  "doas",
  "nice",
  "nohup",
  "timeout",
  "time",
  "stdbuf",
  "setsid",
  "ionice",
  "taskset",
  "chrt",
  "chroot",
  "unshare",
  "nsenter",
  "flock",
  "strace",
  "ltrace",
  "unbuffer",
  "command",
  "exec",
  "xargs",
  "find",
]);

/**
 * The runner whose program name comes from its input rather than its
 * words: `xargs env` (or another runner: the input's first word is the
 * program), `xargs -I X X …` (the replace string as the program), and
 * `find … -exec {} …` (a found file run as a program).
 */
function programFromInput(words: readonly string[]): string | undefined {
  for (let k = 0; k < words.length; k++) {
    const name = basename(words[k]);
    if (name === "find") {
      for (let j = k + 1; j + 1 < words.length; j++) {
        if (!/^-(exec|execdir|ok|okdir)$/.test(words[j])) continue;
        // The program: the first word past runners, their options and assignments.
        for (let p = j + 1; p < words.length && words[p] !== ";" && words[p] !== "+"; p++) {
          const w = words[p];
          if (w.includes("{}")) return `find ${words[j]} {}`;
          if (!RUNNERS.has(basename(w)) && !w.startsWith("-") && !/^\w+=/.test(w)) break;
        }
      }
    }
    if (name !== "xargs") continue;
    let replace: string | undefined;
    let j = k + 1;
    for (; j < words.length && words[j].startsWith("-"); j++) {
      const w = words[j];
      if (w === "-I" && j + 1 < words.length) replace = words[++j];
      else if (w.startsWith("-I")) replace = w.slice(2);
      else if (w === "-i" || w === "--replace") replace = "{}";
      else if (w.startsWith("-i")) replace = w.slice(2);
      else if (w.startsWith("--replace=")) replace = w.slice("--replace=".length);
      else if (XARGS_VALUE_OPTIONS.has(w)) j++;
    }
    const program = words[j];
    if (program === undefined) continue; // `xargs` alone runs echo
    if (RUNNERS.has(basename(program)) || (replace && program.includes(replace))) {
      return `xargs ${program}`;
    }
  }
  return undefined;
}

/**
 * The words after the first that may be command lines another program
 * runs: a word with a blank or a separator in it, and the value of a
 * `name=value` word; a leading `!` (a git alias that runs a shell) dropped.
 */
export function embeddedLines(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words.slice(1)) {
    const eq = /^[^\s=]+=/.exec(w);
    const text = (eq ? w.slice(eq[0].length) : w).replace(/^!/, "");
    if (eq || /[\s;&|`$()]/.test(text)) out.push(text);
  }
  return out.filter((t) => t.trim() !== "");
}

/** Git's global options that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set([
  "-C",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--list-cmds",
]);

/**
 * The option of a `git` command that chooses what git runs through its
 * configuration (`-c`, `--config-env`, `--exec-path`), or undefined.
 */
export function gitConfigOption(words: readonly string[]): string | undefined {
  for (let k = 0; k < words.length; k++) {
    if (basename(words[k]) !== "git") continue;
    for (let j = k + 1; j < words.length; j++) {
      const w = words[j];
      if (w === "-c" || w.startsWith("--config-env") || w.startsWith("--exec-path")) {
        return w.startsWith("--") ? w.replace(/=.*$/, "") : w;
      }
      if (/^-c./.test(w)) return "-c";
      if (GIT_VALUE_OPTIONS.has(w)) {
        j++;
        continue;
      }
      if (!w.startsWith("-")) break; // the subcommand
    }
  }
  return undefined;
}
