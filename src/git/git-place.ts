/**
 * Whether xcsh may run `git` for a project, and on which repository: the
 * folders git would read are found here, never by git's own search (which
 * follows `GIT_DIR`, `.git` files and `commondir` anywhere).
 *
 * Decides the rule. The project root's `.git` (a folder, or a file saying
 * `gitdir: <path>`) is the only candidate. It, the git folder it names and
 * that folder's common folder (`commondir`, where config, objects and refs
 * live) must each pass the owner and mode rule (`ownershipProblem`), and
 * both folders must lie inside the project root, with one exception: a
 * git folder elsewhere that links back to this folder: a linked worktree
 * (`git worktree add`, xcsh's isolated tasks among them), whose git folder
 * is exactly `<common>/worktrees/<name>` and whose `gitdir` file there
 * points back at this very `.git` file; or a submodule, whose git folder
 * (`<super>/.git/modules/<name>`) is its own common folder and whose config
 * names this folder as its `core.worktree`. A `.git` file repointed at
 * another repository (`gitdir: ../other-repo/.git`) has no such back link,
 * and is refused. Nothing at the top of the git folder or the common folder
 * may be a symbolic link leading out of the project and the common folder:
 * an `index` (or `HEAD`, `objects`, `refs`, …) linked to another
 * repository's would bring that repository's file names in without any
 * `gitdir`. `expectCommon`, when given, must be the
 * common folder too (the worktree code's check that a worktree is still
 * the one it made).
 *
 * @example
 * ```ts
 * import { DISK } from "./git.ts";
 *
 * const place = gitPlace("/home/me/app", DISK);
 * if (place.ok) place.gitDir; // "/home/me/app/.git"
 * else place.reason;          // e.g. ".git names a git folder outside the project (/x/.git)"
 * ```
 *
 * @module
 */
import { join, relative, resolve, sep } from "node:path";
import { ownershipProblem } from "../fs/file-safety.ts";
import { isInside } from "../fs/path-inside.ts";

/** What the rule needs to know of the disk. */
export interface PlaceProbe {
  /** Owner, mode and kind of `path` itself (a symlink is not followed). */
  lstat(
    path: string,
  ): { uid: number; mode: number; kind: "folder" | "file" | "link" | "other" } | undefined;
  /** The names in a folder, or undefined when it cannot be listed. */
  names(path: string): string[] | undefined;
  /** The real path, or undefined when it does not exist. */
  realpath(path: string): string | undefined;
  /** A small text file, or undefined when it cannot be read. */
  readText(path: string): string | undefined;
}

export type GitPlace =
  | {
    ok: true;
    /** The folder git works on (`GIT_WORK_TREE`). */
    workTree: string;
    /** The git folder (`GIT_DIR`). */
    gitDir: string;
    /** Where config, objects and refs live (the git folder itself but in a linked worktree). */
    commonDir: string;
  }
  | { ok: false; reason: string; absent?: boolean };

/** The path a `.git` file names, or undefined when it is not one. Pure. */
export function parseGitFile(text: string): string | undefined {
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text.split("\n")[0] + "\n");
  return m ? m[1] : undefined;
}

/**
 * The `core.worktree` a git config text sets (the last one), or undefined.
 * Pure; enough to read the line git writes for a submodule.
 */
export function coreWorktree(text: string): string | undefined {
  let inCore = false;
  let found: string | undefined;
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      inCore = header[1].toLowerCase() === "core";
      line = header[2];
    }
    const m = inCore ? /^worktree\s*=\s*(.*?)\s*$/i.exec(line) : null;
    if (m) found = m[1].replace(/^"(.*)"$/, "$1");
  }
  return found;
}

/** True when `path` is `folder` or below it (both real, absolute): `isInside`'s rule. Pure. */
export function within(path: string, folder: string): boolean {
  return isInside(path, [folder]);
}

function checked(probe: PlaceProbe, path: string, what: string, kind: "folder" | "file") {
  const info = probe.lstat(path);
  if (!info) return `${what} ${path} is missing`;
  if (info.kind !== kind) return `${what} ${path} is not a ${kind}`;
  const problem = ownershipProblem(info);
  return problem ? `${what} ${path} is ${problem}` : undefined;
}

/** The repository of the project `root`, or why git must not run there. */
export function gitPlace(
  root: string,
  probe: PlaceProbe,
  expectCommon?: string,
): GitPlace {
  const top = probe.realpath(root);
  if (!top) return { ok: false, reason: `${root} is missing`, absent: true };
  const dotGit = join(top, ".git");
  const info = probe.lstat(dotGit);
  if (!info) return { ok: false, reason: `${top} holds no .git`, absent: true };
  const refuse = (reason: string): GitPlace => ({ ok: false, reason });
  const owner = ownershipProblem(info);
  if (owner) return refuse(`${dotGit} is ${owner}`);
  let gitDir: string;
  let linked = false;
  if (info.kind === "folder") {
    gitDir = dotGit;
  } else if (info.kind === "file") {
    const named = parseGitFile(probe.readText(dotGit) ?? "");
    if (named === undefined) return refuse(`${dotGit} is not a "gitdir: <path>" file`);
    const real = probe.realpath(resolve(top, named));
    if (!real) return refuse(`${dotGit} names a git folder that does not exist (${named})`);
    gitDir = real;
    linked = !within(gitDir, top);
  } else {
    return refuse(`${dotGit} is neither a folder nor a file`);
  }
  const bad = checked(probe, gitDir, "the git folder", "folder");
  if (bad) return refuse(bad);
  const commonText = probe.readText(join(gitDir, "commondir"));
  let commonDir = gitDir;
  if (commonText !== undefined) {
    const real = probe.realpath(resolve(gitDir, commonText.trim()));
    if (!real) return refuse(`${gitDir}/commondir names a folder that does not exist`);
    commonDir = real;
  }
  const badCommon = commonDir === gitDir
    ? undefined
    : checked(probe, commonDir, "the git folder", "folder");
  if (badCommon) return refuse(badCommon);
  if (linked || !within(commonDir, top)) {
    // Only a git folder that links back here may live elsewhere.
    const back = probe.readText(join(gitDir, "gitdir"))?.trim();
    const backReal = back && probe.realpath(resolve(gitDir, back));
    const admin = join(commonDir, "worktrees");
    const isWorktree = within(gitDir, admin) && relative(admin, gitDir).split(sep).length === 1 &&
      gitDir !== admin && backReal === dotGit;
    const named = commonDir === gitDir
      ? coreWorktree(probe.readText(join(gitDir, "config")) ?? "")
      : undefined;
    const isSubmodule = named !== undefined && probe.realpath(resolve(gitDir, named)) === top;
    if (info.kind !== "file" || !(isWorktree || isSubmodule)) {
      return refuse(`${dotGit} names a git folder outside the project (${gitDir})`);
    }
  }
  if (expectCommon !== undefined && commonDir !== expectCommon) {
    return refuse(`${dotGit} no longer belongs to the repository ${expectCommon} (${commonDir})`);
  }
  for (const folder of new Set([gitDir, commonDir])) {
    const names = probe.names(folder);
    if (!names) return refuse(`the git folder ${folder} cannot be listed`);
    const away = names.find((n) => {
      if (probe.lstat(join(folder, n))?.kind !== "link") return false;
      const to = probe.realpath(join(folder, n));
      return !to || !(within(to, top) || within(to, commonDir));
    });
    if (away) return refuse(`${join(folder, away)} is a symbolic link out of the repository`);
  }
  for (const f of [join(commonDir, "config"), join(gitDir, "config.worktree")]) {
    const fi = probe.lstat(f);
    const problem = fi && ownershipProblem(fi);
    if (problem) return refuse(`${f} is ${problem}`);
    if (fi && fi.kind !== "file") return refuse(`${f} is not a file`);
  }
  return { ok: true, workTree: top, gitDir, commonDir };
}
