/**
 * Which files a task changed: the state of its work tree when it started,
 * and the files that differ from it when it ends.
 *
 * Decides the snapshot: every file git sees (tracked, and untracked ones not
 * ignored) written as a tree object through a private index, with the
 * hardened git of `../../git/git.ts` (the repository's programs blanked), so the
 * child's own edits to the real index change nothing. The changed files are
 * the paths whose content, mode or presence differ between the start tree
 * and the end tree, relative to the repository's top. Ignored files are not
 * seen. Files the user changed before the task started do not count.
 *
 * @module
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRepository, type Repository, runGit } from "../../git/git.ts";

export interface StartState {
  repo: Repository;
  tree: string;
}

const GIT_TIMEOUT_MS = 120_000;

/** The tree object of everything git sees in `repo`'s work tree now, or why not. */
async function snapshotTree(repo: Repository): Promise<string | { error: string }> {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-accept-"));
  try {
    const index = join(dir, "index");
    // The real index holds the files' stat data: a copy saves rereading them all.
    const real = join(repo.gitDir, "index");
    if (existsSync(real)) copyFileSync(real, index);
    const env = { GIT_INDEX_FILE: index };
    const opts = { env, timeoutMs: GIT_TIMEOUT_MS };
    const added = await runGit(repo, ["add", "-A", "--", ":/"], opts);
    if (!added.ok) return { error: `git add: ${added.stderr.trim().split("\n")[0]}` };
    const tree = await runGit(repo, ["write-tree"], opts);
    if (!tree.ok) return { error: `git write-tree: ${tree.stderr.trim().split("\n")[0]}` };
    return tree.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The state of the work tree holding `cwd`, or why it cannot be taken. */
export async function startState(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<StartState | { error: string }> {
  const opened = await openRepository(cwd, { env });
  if (!opened.ok) return { error: `the files changed cannot be known: ${opened.reason}` };
  const tree = await snapshotTree(opened.repo);
  if (typeof tree !== "string") {
    return { error: `the files changed cannot be known: ${tree.error}` };
  }
  return { repo: opened.repo, tree };
}

/** The files changed since `start` (relative to the repository's top), or why not. */
export async function changedFiles(start: StartState): Promise<string[] | { error: string }> {
  const now = await snapshotTree(start.repo);
  if (typeof now !== "string") return { error: now.error };
  const diff = await runGit(
    start.repo,
    ["diff-tree", "-r", "--name-only", "-z", "--no-renames", start.tree, now],
    { timeoutMs: GIT_TIMEOUT_MS },
  );
  if (!diff.ok) return { error: `git diff-tree: ${diff.stderr.trim().split("\n")[0]}` };
  return diff.stdout.split("\0").filter((p) => p !== "");
}
