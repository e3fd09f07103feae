/**
 * Isolated tasks: each runs in a fresh git worktree of the caller's
 * repository, at `HEAD`, on a new branch `xcsh/<session>`, in a folder under
 * the user's xcsh data folder.
 *
 * Decides: what is checked before any child starts (git present, a
 * repository, a commit to start from); the branch name (`xcsh/<session>`,
 * then `-2`, `-3`… when taken: an existing branch is never moved); that
 * `git worktree add` runs one at a time per repository inside this process
 * (git's own locks and unique names cover other processes; an attempt that
 * fails on another process's lock or half-made worktree is undone and
 * retried); what counts as a
 * change (anything `git status` shows, untracked files included, or a commit
 * on the branch); and the end: no change, worktree and branch removed;
 * changes, both kept and recorded (`<id>.json` beside the folder) for
 * `xcsh worktrees`.
 *
 * Every git call goes through the hardened runner (`git.ts`): `git worktree
 * add` runs no `post-checkout` hook and no filter the repository names, and
 * a worktree is inspected only while its `.git` still names the git folder
 * `git worktree add` made in the base repository (a command that repointed
 * it gets no git call: the worktree is kept, its changes "unknown").
 *
 * @module
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";
import { projectRoot } from "../sandbox/project-root.ts";
import { DISK, type Opened, openRepository, type Repository, runGit } from "./git.ts";
import { gitPlace } from "./git-place.ts";
import type { WorktreeInfo } from "../types.ts";

/** What an isolated task starts from. */
export interface RepoBase {
  /** The repository's top folder. */
  root: string;
  /** The commit the worktree starts at. */
  head: string;
  /** The caller's folder relative to `root` ("" at the top). */
  subdir: string;
}

/** A worktree made for a task. */
export interface Worktree {
  id: string;
  path: string;
  branch: string;
  repo: string;
  base: string;
  /** Where the task works inside it (the caller's subfolder). */
  cwd: string;
}

/** What `xcsh worktrees` lists. */
export interface WorktreeRecord extends WorktreeInfo {
  id: string;
  repo: string;
  base: string;
  session: string;
  created: string;
}

/** The message for a repository git must not run on. */
function refusedMessage(opened: Opened & { ok: false }, root: string): string {
  if (opened.missing) return "isolation worktree needs git, and no 'git' was found on PATH";
  return `isolation worktree: git does not run on ${root}: ${opened.reason}`;
}

/** Checks that `cwd` can host isolated tasks; the message says what is missing. */
export async function repoBase(
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = env.HOME ?? "",
): Promise<{ ok: true; value: RepoBase } | { ok: false; message: string }> {
  const candidate = projectRoot(cwd, home);
  const opened = await openRepository(candidate, { env });
  if (!opened.ok) {
    if (opened.absent) {
      return {
        ok: false,
        message: `isolation worktree needs a git repository, and ${cwd} is not inside one`,
      };
    }
    return { ok: false, message: refusedMessage(opened, candidate) };
  }
  const root = opened.repo.workTree;
  const head = await runGit(opened.repo, ["rev-parse", "--verify", "HEAD^{commit}"]);
  if (!head.ok) {
    return {
      ok: false,
      message:
        `isolation worktree needs a commit to start from, and the repository at ${root} has none yet`,
    };
  }
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // relative to what was given
  }
  const sub = relative(root, real);
  return {
    ok: true,
    value: { root, head: head.stdout.trim(), subdir: sub.startsWith("..") ? "" : sub },
  };
}

/** The base repository `root`, checked; throws with the reason. */
async function openBase(root: string): Promise<Repository> {
  const opened = await openRepository(root);
  if (!opened.ok) throw new Error(refusedMessage(opened, root));
  return opened.repo;
}

/**
 * The worktree at `path` of the base repository `repo`, checked: its `.git`
 * must still name the git folder `git worktree add` made there.
 */
async function openWorktree(path: string, repo: string): Promise<Repository> {
  const base = await openBase(repo);
  const opened = await openRepository(path, { expectCommon: base.commonDir });
  if (!opened.ok) throw new Error(`git does not run in ${path}: ${opened.reason}`);
  if (opened.repo.workTree !== realOf(path)) {
    throw new Error(`git does not run in ${path}: it is not the worktree's top folder`);
  }
  return opened.repo;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier one for the same repository has settled. */
function serialized<T>(repo: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(repo) ?? Promise.resolve();
  const next = before.then(work, work);
  queues.set(repo, next.catch(() => {}));
  return next;
}

/** Creates the worktree of session `id` under `dir`; throws with git's message. */
export function createWorktree(base: RepoBase, dir: string, id: string): Promise<Worktree> {
  return serialized(base.root, async () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const repo = await openBase(base.root);
    const git = (args: string[]) => runGit(repo, args);
    let lastError = "";
    let retries = 0;
    for (let n = 1; n <= 20; n++) {
      const suffix = n === 1 ? "" : `-${n}`;
      const branch = `xcsh/${id}${suffix}`;
      const path = join(dir, `${id}${suffix}`);
      const taken = await git([
        "show-ref",
        "--verify",
        "--quiet",
        `refs/heads/${branch}`,
      ]);
      if (taken.ok || statSync(path, { throwIfNoEntry: false })) continue;
      const add = await git([
        "worktree",
        "add",
        "--quiet",
        "-b",
        branch,
        path,
        base.head,
      ]);
      if (add.ok) {
        // What git made must pass the same check every later call makes.
        const made = gitPlace(path, DISK, repo.commonDir);
        if (!made.ok) throw new Error(`git does not run in ${path}: ${made.reason}`);
        return {
          id: `${id}${suffix}`,
          path,
          branch,
          repo: base.root,
          base: base.head,
          cwd: base.subdir ? join(path, base.subdir) : path,
        };
      }
      lastError = add.stderr.trim();
      // Taken meanwhile (by name): the next name.
      if (/already exists/.test(lastError)) continue;
      if (retries++ >= 5) break;
      // Anything else is taken as a race with another git process (a lock
      // file it holds, a worktree it is half-way through creating): undo what
      // this attempt made (the branch was free before it) and try again.
      rmSync(path, { recursive: true, force: true });
      await git(["worktree", "prune"]);
      await git(["branch", "-D", branch]);
      await new Promise((r) => setTimeout(r, 50 * retries));
      n--;
    }
    throw new Error(`could not create a worktree of ${base.root}: ${lastError || "no free name"}`);
  });
}

/**
 * The files changed in the worktree `wt.path` of the repository `wt.repo`:
 * uncommitted, untracked, or committed since `wt.base`. Throws when git may
 * not run there (its `.git` no longer names its git folder) or fails.
 */
export async function worktreeChanges(
  wt: { path: string; base: string; repo: string },
): Promise<string[]> {
  const repo = await openWorktree(wt.path, wt.repo);
  const changed = new Set<string>();
  const status = await runGit(repo, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignore-submodules=all",
  ]);
  if (!status.ok) throw new Error(`git status failed in ${wt.path}: ${status.stderr.trim()}`);
  const parts = status.stdout.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    changed.add(entry.slice(3));
    // A rename lists the old path next: skip it.
    if (entry[0] === "R" || entry[0] === "C") i++;
  }
  const committed = await runGit(repo, [
    "diff",
    "--name-only",
    "-z",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=all",
    `${wt.base}..HEAD`,
  ]);
  if (committed.ok) { for (const f of committed.stdout.split("\0")) if (f) changed.add(f); }
  return [...changed].sort();
}

/** Removes a worktree and its branch (forcefully: the caller decided). */
export function removeWorktree(repo: string, path: string, branch: string): Promise<void> {
  return serialized(repo, async () => {
    const base = await openRepository(repo);
    if (base.ok) await runGit(base.repo, ["worktree", "remove", "--force", path]);
    rmSync(path, { recursive: true, force: true });
    if (!base.ok) return;
    await runGit(base.repo, ["worktree", "prune"]);
    await runGit(base.repo, ["branch", "-D", branch]);
  });
}

/**
 * Ends an isolated task: removes the worktree when nothing changed, else
 * records and returns it.
 */
export async function finishWorktree(
  wt: Worktree,
  dir: string,
  session: string,
): Promise<WorktreeInfo | undefined> {
  let changed: string[];
  try {
    changed = await worktreeChanges(wt);
  } catch (err) {
    // Cannot tell: keep it rather than lose work.
    changed = [`(unknown: ${(err as Error).message})`];
  }
  if (changed.length === 0) {
    await removeWorktree(wt.repo, wt.path, wt.branch);
    rmSync(recordFile(dir, wt.id), { force: true });
    return undefined;
  }
  const info: WorktreeInfo = { path: wt.path, branch: wt.branch, changed };
  const record: WorktreeRecord = {
    ...info,
    id: wt.id,
    repo: wt.repo,
    base: wt.base,
    session,
    created: new Date().toISOString(),
  };
  try {
    writeFileSync(recordFile(dir, wt.id), JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
  } catch {
    // The worktree itself is what matters; git lists it either way.
  }
  return info;
}

function recordFile(dir: string, id: string): string {
  return join(dir, `${id}.json`);
}

/** The kept worktrees recorded under `dir`, oldest first. */
export function listWorktrees(dir: string): WorktreeRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: WorktreeRecord[] = [];
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    try {
      const r = JSON.parse(readFileSync(join(dir, name), "utf8"));
      if (typeof r?.id === "string" && typeof r.path === "string") out.push(r);
    } catch {
      // not a record
    }
  }
  return out;
}

/** Removes a kept worktree, its branch and its record. */
export async function deleteWorktree(dir: string, record: WorktreeRecord): Promise<void> {
  await removeWorktree(record.repo, record.path, record.branch);
  rmSync(recordFile(dir, record.id), { force: true });
}

/**
 * Forgets records whose folder is gone, and removes kept worktrees that no
 * longer hold a change (work merged or reverted). Returns what was removed.
 */
export async function pruneWorktrees(dir: string): Promise<WorktreeRecord[]> {
  const removed: WorktreeRecord[] = [];
  for (const r of listWorktrees(dir)) {
    const exists = statSync(r.path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (exists) {
      const changed = await worktreeChanges(r).catch(() => ["?"]);
      if (changed.length > 0) continue;
    }
    await deleteWorktree(dir, r);
    removed.push(r);
  }
  return removed;
}
