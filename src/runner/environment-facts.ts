/**
 * The facts of the prompt's environment block: today's date (ISO, local
 * time), the OS, the shell, the working directory, and, inside a git
 * repository, the branch and a short `git status` capped at
 * {@link GIT_STATUS_MAX_LINES} lines. Git runs once (`git status --porcelain
 * --branch`) with a {@link GIT_TIMEOUT_MS} timeout, and not at all when no
 * folder from `cwd` up holds `.git`; no git, not a
 * repository, or a git that fails or is too slow all mean "no git facts",
 * never an error.
 *
 * @example
 * ```ts
 * parseGitStatus("## main...origin/main\n M src/a.ts\n");
 * // { branch: "main", status: " M src/a.ts" }
 * ```
 *
 * @module
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { release, type } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { EnvironmentFacts } from "../types.ts";

export const GIT_TIMEOUT_MS = 2000;
export const GIT_STATUS_MAX_LINES = 20;
const GIT_STATUS_MAX_LINE_CHARS = 200;

/** `date` as `YYYY-MM-DD` in local time. Pure. */
export function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The branch and the capped change list from `git status --porcelain
 * --branch` output. Pure.
 */
export function parseGitStatus(out: string): { branch: string; status: string } {
  const lines = out.split("\n").filter((l) => l !== "");
  const head = lines[0]?.startsWith("## ") ? lines.shift()!.slice(3) : "";
  let branch: string;
  if (head.startsWith("No commits yet on ")) branch = head.slice("No commits yet on ".length);
  else if (head.startsWith("HEAD (no branch)")) branch = "(detached HEAD)";
  else branch = head.split("...")[0].split(" ")[0] || "(unknown)";
  const shown = lines.slice(0, GIT_STATUS_MAX_LINES).map((l) =>
    l.length > GIT_STATUS_MAX_LINE_CHARS ? l.slice(0, GIT_STATUS_MAX_LINE_CHARS) + "…" : l
  );
  if (lines.length > shown.length) {
    shown.push(`… and ${lines.length - shown.length} more changed paths`);
  }
  return { branch, status: shown.length > 0 ? shown.join("\n") : "(clean)" };
}

/** Runs git status in `cwd`; undefined when there is no repository or no git. */
export function gitFacts(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ branch: string; status: string } | undefined> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  childEnv.GIT_OPTIONAL_LOCKS = "0";
  childEnv.LC_ALL = "C";
  return new Promise((resolve) => {
    try {
      execFile(
        "git",
        ["status", "--porcelain=v1", "--branch", "--untracked-files=normal"],
        { cwd, env: childEnv, timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
        (err, stdout) => {
          if (err) resolve(undefined);
          else resolve(parseGitStatus(String(stdout)));
        },
      ).stdin?.end();
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * False when git cannot find a repository for `cwd`: no `.git` in it or any
 * folder above, and no `GIT_DIR`. Saves starting git for nothing.
 */
export function mayBeInRepository(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.GIT_DIR) return true;
  for (let dir = resolve(cwd);;) {
    if (existsSync(join(dir, ".git"))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

/** Gathers the facts for `cwd`. */
export async function environmentFacts(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  now = new Date(),
): Promise<EnvironmentFacts> {
  const facts: EnvironmentFacts = {
    date: isoDate(now),
    os: `${type()} ${release()}`,
    shell: env.SHELL ? basename(env.SHELL) : "sh",
    cwd,
  };
  const git = mayBeInRepository(cwd, env) ? await gitFacts(cwd, env) : undefined;
  if (git) {
    facts.gitBranch = git.branch;
    facts.gitStatus = git.status;
  }
  return facts;
}
