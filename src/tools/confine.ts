/**
 * Keeps the file tools inside the project: resolves the path a tool was
 * given (relative to the working directory, or absolute), follows every
 * symlink on the way — a dangling one included, since writing through it
 * would create its target — and refuses a path whose real location is
 * outside the project root and `task.additionalDirectories`. The roots are
 * taken as the task resolved them when it started (never resolved again, so
 * a root swapped for a symlink later does not move them). A tool that writes
 * (`write`, `edit`) is also refused inside a read-only folder (a skill
 * folder), found by path or, when a folder above it was renamed since, by
 * identity, and, when the task has a write lane, outside it. So a path is
 * writable when it lies in a root, is not read-only, and matches the lane
 * when there is one. The rule itself is `inside.ts`; this module is its edge on the
 * disk.
 *
 * @example
 * ```ts
 * import type { ToolContext } from "./tool-spec.ts";
 *
 * declare const ctx: ToolContext;
 * const where = await confine(ctx, "../secrets.txt");
 * if (!where.ok) where.error; // "Error: ../secrets.txt is outside the project folder …"
 * ```
 *
 * @module
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { inLane } from "../fs/write-lane.ts";
import { isInside, outsideMessage } from "./inside.ts";
import { inFolders } from "../fs/confined-folder.ts";
import { type ToolContext, toolError, type ToolOutcome } from "./tool-spec.ts";
import { displayPath, resolvePath } from "./search/walk.ts";

/** Symlinks followed before a path is called a loop (as the kernel does). */
const MAX_LINKS = 40;

/**
 * The real location of `abs`: `realpath` where it exists; for a path that
 * does not (yet), its nearest existing ancestor resolved, with each
 * remaining name followed if it is a dangling symlink.
 */
export async function realLocation(abs: string, links = 0): Promise<string> {
  try {
    return await realpath(abs);
  } catch {
    // missing (or a loop): resolve the parent and look at the last name
  }
  if (links > MAX_LINKS) throw new Error("too many levels of symbolic links");
  const parent = dirname(abs);
  if (parent === abs) return abs;
  const here = join(await realLocation(parent, links + 1), basename(abs));
  const st = await lstat(here).catch(() => undefined);
  if (st?.isSymbolicLink()) {
    return realLocation(resolve(dirname(here), await readlink(here)), links + 1);
  }
  return here;
}

/**
 * The real paths of the folders `ctx` allows; for reading (`read`), also its
 * read-only folders (skills). `ctx.roots` and `ctx.readRoots` are real paths
 * already, checked when the task started, and used as they are; without
 * roots, the working directory, resolved.
 */
export async function allowedRoots(ctx: ToolContext, read = false): Promise<string[]> {
  const base = ctx.roots && ctx.roots.length > 0
    ? ctx.roots
    : [await realpath(ctx.cwd).catch(() => resolve(ctx.cwd))];
  return read && ctx.readRoots ? [...base, ...ctx.readRoots] : [...base];
}

export type Confined =
  | { ok: true; abs: string; shown: string; roots: string[] }
  | { ok: false; error: ToolOutcome };

/**
 * `p` resolved for a tool, or the tool error saying it is out of bounds; a
 * tool that only reads (`read`) may also use the read-only folders.
 */
export async function confine(
  ctx: ToolContext,
  p: string | undefined,
  read = false,
): Promise<Confined> {
  const abs = resolvePath(ctx.cwd, p);
  const shown = displayPath(ctx.cwd, abs);
  const roots = await allowedRoots(ctx, read);
  let real: string;
  try {
    real = await realLocation(abs);
  } catch (err) {
    return { ok: false, error: toolError(`${shown}: ${(err as Error).message}`) };
  }
  if (!isInside(real, roots)) {
    return { ok: false, error: toolError(outsideMessage(p ?? ".", real, roots)) };
  }
  const fixed = read ? undefined : inFolders(real, ctx.folders?.readOnly ?? []);
  if (fixed) {
    return {
      ok: false,
      error: toolError(
        `${shown} is in the skill folder ${fixed.path}: skill folders are read-only`,
      ),
    };
  }
  if (!read && ctx.lane) {
    const outside = laneRefusal(real, ctx.lane);
    if (outside) return { ok: false, error: toolError(`${shown} ${outside}`) };
  }
  if (!read && ctx.programs?.includes(real)) {
    return {
      ok: false,
      error: toolError(
        `${shown} is a file this task's hooks or MCP servers run: it is read-only to the task`,
      ),
    };
  }
  return { ok: true, abs, shown, roots };
}

/**
 * Why the real path `real` is outside the write lane `lane`, or undefined:
 * it must lie below the lane's root and match one of its globs.
 */
export function laneRefusal(
  real: string,
  lane: { root: string; globs: readonly string[] },
): string | undefined {
  const rel = relative(lane.root, real).split(sep).join("/");
  const below = rel !== "" && !rel.startsWith("../") && rel !== ".." && !isAbsolute(rel);
  if (below && inLane(rel, lane.globs)) return undefined;
  return `is outside this task's write lane (${lane.globs.join(", ")}): ` +
    "write and edit change only the files the lane names";
}

/** False for a symlink (met while walking) whose target is outside `roots`. */
export async function linkStaysInside(abs: string, roots: readonly string[]): Promise<boolean> {
  const st = await lstat(abs).catch(() => undefined);
  if (!st?.isSymbolicLink()) return true;
  try {
    return isInside(await realLocation(abs), roots);
  } catch {
    return false;
  }
}
