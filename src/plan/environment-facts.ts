/**
 * The facts of the prompt's environment block: today's date (ISO, local
 * time), the OS, the shell, the working directory, and, inside a git
 * repository, the branch and a short `git status` capped at
 * {@link GIT_STATUS_MAX_LINES} lines. Git runs through the hardened runner
 * (`git/git.ts`: no hooks, no fsmonitor, no program the repository names, no
 * key variables) with a {@link GIT_TIMEOUT_MS} timeout, and only on the
 * project root's own repository when `git/git-place.ts` accepts it (not at all
 * when the root holds no `.git`); no git, not a repository, a repository
 * refused (the reason goes to the caller's notes, for one warning), or a
 * git that fails or is too slow all mean "no git facts", never an error.
 *
 * @example
 * ```ts
 * parseGitStatus("## main...origin/main\n M src/a.ts\n");
 * // { branch: "main", status: " M src/a.ts" }
 * ```
 *
 * @module
 */
import { release, type } from "node:os";
import { basename } from "node:path";
import { projectRoot } from "../sandbox/project-root.ts";
import { openRepository, runGit } from "../git/git.ts";
import { localIsoDate } from "./local-date.ts";
import type { EnvironmentFacts } from "../protocol/prompt-context.ts";

export const GIT_TIMEOUT_MS = 2000;
export const GIT_STATUS_MAX_LINES = 20;
const GIT_STATUS_MAX_LINE_CHARS = 200;

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

/** What git says about the project: its facts, or why git did not run there. */
export interface GitFacts {
  facts?: { branch: string; status: string };
  /** The repository was refused (not absent, not a missing git): why. */
  refused?: string;
  /** The programs the repository's own config names, blanked (`git-config-rule.ts`). */
  overrides?: [string, string][];
}

/**
 * Runs git status for the project of `cwd` (its root found by
 * `projectRoot`, its repository accepted by `openRepository`); no facts
 * when there is no repository, no git, one git must not run in (then
 * `refused` says why), or a git that fails.
 */
export async function gitFacts(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string = env.HOME ?? "",
): Promise<GitFacts> {
  const opened = await openRepository(projectRoot(cwd, home), { env, timeoutMs: GIT_TIMEOUT_MS });
  if (!opened.ok) return opened.absent || opened.missing ? {} : { refused: opened.reason };
  const out = await runGit(
    opened.repo,
    [
      "status",
      "--porcelain=v1",
      "--branch",
      "--untracked-files=normal",
      "--ignore-submodules=all",
    ],
    { cwd, timeoutMs: GIT_TIMEOUT_MS },
  );
  const overrides = opened.repo.overrides;
  return out.ok ? { facts: parseGitStatus(out.stdout), overrides } : { overrides };
}

/**
 * {@link gitFacts} started now, to be awaited later: git runs while the
 * caller does other work. It never rejects (an unexpected failure means no
 * git facts).
 */
export function startGitFacts(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string = env.HOME ?? "",
): Promise<GitFacts> {
  return gitFacts(cwd, env, home).catch(() => ({}));
}

/**
 * Gathers the facts for `cwd`; why git was refused, when it was, goes to
 * `notes`, and the settings that blank the programs the repository's config
 * names go to `overrides` (for the git that commands run). `started` is
 * git's answer when the caller started it early ({@link startGitFacts}).
 */
export async function environmentFacts(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  now = new Date(),
  home: string = env.HOME ?? "",
  notes: string[] = [],
  overrides: [string, string][] = [],
  started?: Promise<GitFacts>,
): Promise<EnvironmentFacts> {
  const facts: EnvironmentFacts = {
    date: localIsoDate(now, env.TZ),
    os: `${type()} ${release()}`,
    shell: env.SHELL ? basename(env.SHELL) : "sh",
    cwd,
  };
  const git = await (started ?? gitFacts(cwd, env, home));
  if (git.refused) notes.push(git.refused);
  if (git.overrides) overrides.push(...git.overrides);
  if (git.facts) {
    facts.gitBranch = git.facts.branch;
    facts.gitStatus = git.facts.status;
  }
  return facts;
}
