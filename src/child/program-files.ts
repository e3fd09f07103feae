/**
 * Which files the programs a task starts for its agent run from the task's
 * own folders: the scripts its hooks name, and the files its stdio MCP
 * servers' command lines name. The sandbox binds them read-only over the
 * writable project, so that neither a hook nor a `bash` command of the task
 * changes what a hook or a server runs, now or in a later task (trust pins
 * the agent file and a server's definition, not the files they name).
 *
 * A hook's command line is read loosely ({@link hookCommandWords}):
 * `$CLAUDE_PROJECT_DIR` (or `${CLAUDE_PROJECT_DIR}`) becomes the project
 * folder, quotes and backslashes are taken away, and the line is cut into
 * words at blanks and at the shell's operators. A word an output
 * redirection names (`> log`, `>> log`) is a file the hook writes, not one
 * it runs, and is left out, as is a word with another `$`, a backtick, a
 * glob or a leading `~`. A server's command and arguments are its words
 * as they are (one with a `$` is left out), from its own `cwd`.
 * {@link programFiles} then keeps each word that, from the working folder,
 * names an existing regular file inside the task's folders, by its real
 * path (a script reached through a symlink is protected at its target).
 * What those files read in turn is not found.
 *
 * @example
 * ```ts
 * hookCommandWords('"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh --fast >> log.txt', "/p");
 * // ["/p/.claude/hooks/check.sh", "--fast"]
 * ```
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { isInside } from "../fs/path-inside.ts";
import type { AgentHooks, McpServerDef } from "../types.ts";
import { realFile } from "../fs/real-entry.ts";

const PROJECT_DIR = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g;
const OPERATORS = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);
const UNREADABLE = /[$`*?[\]]|^~/;

/** The words of one hook's command line that may name a file it runs. Pure. */
export function hookCommandWords(command: string, projectDir: string): string[] {
  const line = command.replace(PROJECT_DIR, () => projectDir);
  const words: string[] = [];
  let word: string | undefined;
  let written = false; // the next word is an output redirection's target
  let redirect = false;
  const end = () => {
    if (word === undefined) return;
    if (!redirect && !UNREADABLE.test(word)) words.push(word);
    word = undefined;
    redirect = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " " || c === "\t") {
      end();
      continue;
    }
    if (OPERATORS.has(c)) {
      end();
      if (c === ">") written = true;
      else if (c !== "&" && c !== "|") written = false;
      continue;
    }
    if (word === undefined) {
      word = "";
      redirect = written;
      written = false;
    }
    if (c === "\\") {
      word += line[++i] ?? "";
    } else if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const stop = close === -1 ? line.length : close;
      word += line.slice(i + 1, stop);
      i = stop;
    } else word += c;
  }
  end();
  return words;
}

/**
 * The files inside `roots` that the command lines of `hooks` and of the
 * stdio `servers` name (real paths, each once): what the sandbox binds
 * read-only. `commands` are read as hooks' command lines are (the parent's
 * acceptance checks pin the files theirs name).
 */
export function programFiles(o: {
  hooks?: AgentHooks;
  commands?: readonly string[];
  servers?: Readonly<Record<string, McpServerDef>>;
  cwd: string;
  projectDir: string;
  roots: readonly string[];
}): string[] {
  const named: { word: string; from: string }[] = [];
  for (const command of o.commands ?? []) {
    for (const word of hookCommandWords(command, o.projectDir)) named.push({ word, from: o.cwd });
  }
  for (const groups of Object.values(o.hooks ?? {})) {
    for (const group of groups ?? []) {
      for (const hook of group.hooks) {
        for (const word of hookCommandWords(hook.command, o.projectDir)) {
          named.push({ word, from: o.cwd });
        }
      }
    }
  }
  for (const def of Object.values(o.servers ?? {})) {
    if (def.type !== "stdio") continue;
    const from = def.cwd ? resolve(o.cwd, def.cwd) : o.cwd;
    for (const word of [def.command, ...def.args]) {
      if (!word.includes("$")) named.push({ word, from });
    }
  }
  const out: string[] = [];
  for (const { word, from } of named) {
    const real = realFile(isAbsolute(word) ? word : resolve(from, word));
    if (real && isInside(real, o.roots) && !out.includes(real)) out.push(real);
  }
  return out;
}
