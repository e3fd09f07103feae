/**
 * Gathers a task call's `promptContext` once, in the parent: the instruction
 * files (`context-files.ts` says which and in what order; `context-read.ts`
 * reads each safely) and the environment facts. Every child of the call gets
 * the same value in its envelope; children never read these files themselves.
 * A file that cannot be used is skipped with one warning naming it: among
 * them a project file that another user owns or others could write, or that
 * resolves (through a symlink) outside the project root.
 *
 * @example
 * ```ts
 * const [cwd, home, env] = ["/home/ada/src/app", "/home/ada", process.env];
 * const { context, warnings } = await gatherPromptContext({ cwd, home, env, files: true });
 * ```
 *
 * @module
 */
import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Diagnostic } from "../types.ts";
import type { PromptContext } from "../protocol/prompt-context.ts";
import { isInside } from "../fs/path-inside.ts";
import {
  acceptedIn,
  existsInfo,
  foundProblem,
  ignoredWarning,
  inspectPath,
  isFolderInfo,
  type PathInfo,
} from "../fs/walk-up.ts";
import {
  contextCandidates,
  fitContext,
  type FolderProbe,
  projectFolders,
} from "./context-files.ts";
import { readContextFile } from "./context-read.ts";
import { environmentFacts, type GitFacts } from "./environment-facts.ts";

/**
 * Folder checks on the real file system, through the walk's owner rule
 * (`walk-up.ts`): a `.git` or marker folder it refuses is absent, with a
 * warning added to `warnings`.
 */
export function walkProbe(warnings: Diagnostic[]): FolderProbe {
  const accepted = (path: string, kind: (i: PathInfo) => boolean) =>
    acceptedIn(dirname(path), basename(path), kind, warnings);
  return {
    exists: (path) => accepted(path, existsInfo),
    isFolder: (path) => accepted(path, isFolderInfo),
  };
}

/** True when `path` is there, as itself (a dangling symlink too); false when unsure. */
function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // the read that follows says why
  }
}

/**
 * Why a project instruction file may not be read, or undefined when it may
 * (or is missing): it and the folders from the project root down to it must
 * pass the walk's owner rule, and its real path must lie inside the project
 * root, as a path the `read` tool accepts must.
 */
export function projectFileProblem(root: string, path: string): Diagnostic | undefined {
  if (!present(path)) return undefined;
  const why = foundProblem(root, path, inspectPath);
  if (why) {
    const w = ignoredWarning(path, why);
    return { ...w, message: `instruction file skipped: ${w.message}` };
  }
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(path);
    realRoot = realpathSync(root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A dangling symlink is a missing file, as for the read itself.
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return {
      level: "warning",
      file: path,
      message: `instruction file skipped: it cannot be read (${code ?? err})`,
    };
  }
  if (isInside(real, [realRoot])) return undefined;
  return {
    level: "warning",
    file: path,
    message: `instruction file skipped: it resolves to ${real}, outside the project folder ` +
      `${realRoot}`,
  };
}

export interface GatherOptions {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** False when the agent opted out of instruction files. */
  files: boolean;
  probe?: FolderProbe;
  now?: Date;
  /** Git's facts for `cwd`, started early by the caller (`startGitFacts`). */
  git?: Promise<GitFacts>;
}

export interface Gathered {
  context: PromptContext;
  warnings: Diagnostic[];
  /** Files left out because an earlier one had the same text. */
  duplicates: string[];
  /** What blanks the programs the repository's config names, for the git commands run. */
  gitOverrides: [string, string][];
}

/** Reads the instruction files and the environment facts for one task call. */
export async function gatherPromptContext(o: GatherOptions): Promise<Gathered> {
  const walked: Diagnostic[] = [];
  const probe = o.probe ?? walkProbe(walked);
  const all = o.files ? contextCandidates(o.cwd, o.home, o.env, probe) : [];
  const root = o.files ? projectFolders(o.cwd, o.home, probe)[0] : undefined;
  // Both calls walk the same folders: each refusal is said once.
  const warnings = walked.filter((w, i) =>
    walked.findIndex((x) => x.file === w.file && x.message === w.message) === i
  );
  const gitNotes: string[] = [];
  const gitOverrides: [string, string][] = [];
  const candidates = all.filter((c) => {
    if (c.scope === "user" || root === undefined) return true;
    const problem = projectFileProblem(root, c.path);
    if (problem) warnings.push(problem);
    return problem === undefined;
  });
  const [reads, environment] = await Promise.all([
    Promise.all(candidates.map((c) => readContextFile(c.path))),
    environmentFacts(o.cwd, o.env, o.now, o.home, gitNotes, gitOverrides, o.git),
  ]);
  for (const note of gitNotes) {
    warnings.push({ level: "warning", message: `git facts left out of the prompt: ${note}` });
  }
  const found = candidates.flatMap((c, i) => {
    const r = reads[i];
    if (r.kind === "skipped") {
      warnings.push({
        level: "warning",
        file: c.path,
        message: `instruction file skipped: it ${r.reason}`,
      });
    }
    return r.kind === "text" ? [{ path: c.path, scope: c.scope, text: r.text }] : [];
  });
  const fitted = fitContext(found);
  const context: PromptContext = { version: 1, files: fitted.files, environment };
  if (fitted.note) context.note = fitted.note;
  return { context, warnings, duplicates: fitted.duplicates, gitOverrides };
}
