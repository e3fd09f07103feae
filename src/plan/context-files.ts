/**
 * Which instruction files a child's prompt holds, in which order, and what
 * the size cap keeps. Pure: the folders are probed through the functions
 * passed in, and the files arrive already read (`context-read.ts`).
 *
 * Decides:
 * - the project root: the same rule as the file tools' (`.git`, else a
 *   marker folder, else the working directory: `sandbox/project-root.ts`);
 *   as in discovery, `$HOME` itself is never a project folder, and a walk
 *   that starts inside `$HOME` stops below it (`walk-up.ts`). Which of the
 *   project's files may be read at all (owner, symlinks out of the project)
 *   is `prompt-context.ts`'s check;
 * - the order: the user's own files first (`~/.xcsh/agent/AGENTS.md`,
 *   `$CLAUDE_CONFIG_DIR` or `~/.claude` `/CLAUDE.md`, `$CODEX_HOME` or
 *   `~/.codex` `/AGENTS.md`, `~/.gemini/GEMINI.md`), then each project folder
 *   from the root down to the working directory, each folder's files as
 *   `AGENTS.md`, `CLAUDE.md`, `CLAUDE.local.md`, `GEMINI.md`: nearer, more
 *   specific instructions come later;
 * - identical files (same text) are kept once, the first time they appear;
 * - a total cap of {@link CONTEXT_CAP_BYTES}: the nearest files are kept
 *   first; a file that no longer fits whole is cut (or left out when little
 *   room is left) and a note says what was cut.
 *
 * @example
 * ```ts
 * fitContext([{ path: "/p/AGENTS.md", scope: "project", text: "Use tabs." }]);
 * // { files: [{ path: "/p/AGENTS.md", scope: "project", text: "Use tabs." }], duplicates: [] }
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { join, resolve } from "node:path";
import { claudeHome, codexHome } from "../discovery/config-dirs.ts";
import { chooseProjectRoot } from "../sandbox/project-root.ts";
import { walkUpDirs } from "../fs/walk-up.ts";
import type { ContextFile } from "../protocol/prompt-context.ts";

/** Instruction file names, in the order they are read within one folder. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"];

/** The most instruction text (UTF-8 bytes) one prompt holds. */
export const CONTEXT_CAP_BYTES = 32 * 1024;

/** A file cut to fewer bytes than this is left out instead. */
export const MIN_CUT_BYTES = 1024;

/** How the rules look at folders (real `stat`s at the edge, a table in tests). */
export interface FolderProbe {
  /** True when `path` exists (file or folder). */
  exists(path: string): boolean;
  /** True when `path` is a folder. */
  isFolder(path: string): boolean;
}

/** A file to look for. */
export interface ContextCandidate {
  path: string;
  scope: "user" | "project";
}

/**
 * The project folders whose instruction files count, root first and the
 * working directory last. The root is the project root's rule
 * (`sandbox/project-root.ts`, over the walk of `walk-up.ts`), asked through
 * `probe`; a working directory of `$HOME` itself has none.
 */
export function projectFolders(cwd: string, home: string, probe: FolderProbe): string[] {
  const walk = walkUpDirs(cwd, home);
  if (walk.length === 0 || walk[0] !== resolve(cwd)) return [];
  const root = chooseProjectRoot(
    cwd,
    home,
    (dir, name) =>
      name === ".git" ? probe.exists(join(dir, name)) : probe.isFolder(join(dir, name)),
  );
  const i = walk.indexOf(root);
  return walk.slice(0, i < 0 ? 1 : i + 1).reverse();
}

/** The user's own instruction files, in order. */
export function userContextPaths(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  if (!home) return [];
  return [
    join(home, ".xcsh", "agent", "AGENTS.md"),
    join(claudeHome(home, env), "CLAUDE.md"),
    join(codexHome(home, env), "AGENTS.md"),
    join(home, ".gemini", "GEMINI.md"),
  ];
}

/** Every file to look for, in prompt order (see the module comment). */
export function contextCandidates(
  cwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  probe: FolderProbe,
): ContextCandidate[] {
  const user = userContextPaths(home, env).map((path): ContextCandidate => ({
    path,
    scope: "user",
  }));
  const project = projectFolders(cwd, home, probe).flatMap((dir) =>
    CONTEXT_FILE_NAMES.map((name): ContextCandidate => ({
      path: join(dir, name),
      scope: "project",
    }))
  );
  // A user file can also be a project candidate (a project inside ~/.claude):
  // it is read once, as the user's.
  const seen = new Set(user.map((c) => c.path));
  return [...user, ...project.filter((c) => !seen.has(c.path))];
}

/** What {@link fitContext} kept. */
export interface FittedContext {
  files: ContextFile[];
  /** Paths dropped because an earlier file had the same text. */
  duplicates: string[];
  /** Says what the cap cut; absent when nothing was. */
  note?: string;
}

function kib(bytes: number): string {
  return `${Math.round(bytes / 1024)} KiB`;
}

/** The first `bytes` UTF-8 bytes of `text`, never ending inside a character. */
function cutUtf8(text: string, bytes: number): string {
  const buf = Buffer.from(text, "utf8");
  let end = Math.min(bytes, buf.length);
  // Back up over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

/**
 * Drops empty and duplicate files, then applies the cap: the budget goes to
 * the last (nearest) files first. Files keep their order.
 */
export function fitContext(read: readonly ContextFile[], cap = CONTEXT_CAP_BYTES): FittedContext {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const unique: ContextFile[] = [];
  for (const f of read) {
    const key = f.text.trim();
    if (key === "") continue;
    if (seen.has(key)) {
      duplicates.push(f.path);
      continue;
    }
    seen.add(key);
    unique.push({ ...f, text: key });
  }
  let left = cap;
  const kept: (ContextFile | undefined)[] = new Array(unique.length);
  const cuts: string[] = [];
  for (let i = unique.length - 1; i >= 0; i--) {
    const f = unique[i];
    const size = Buffer.byteLength(f.text, "utf8");
    if (size <= left) {
      kept[i] = f;
      left -= size;
    } else if (left >= MIN_CUT_BYTES) {
      const text = cutUtf8(f.text, left);
      kept[i] = { ...f, text };
      cuts.unshift(`${f.path} was cut after ${kib(left)} of ${kib(size)}`);
      left = 0;
    } else {
      cuts.unshift(`${f.path} (${kib(size)}) was left out`);
    }
  }
  const files = kept.filter((f): f is ContextFile => f !== undefined);
  const out: FittedContext = { files, duplicates };
  if (cuts.length > 0) {
    out.note = `Instruction files are capped at ${kib(cap)} in all (nearest kept first): ` +
      `${cuts.join("; ")}.`;
  }
  return out;
}
