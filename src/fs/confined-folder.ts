/**
 * Whether a folder that widens what the tools may touch (a memory folder, a
 * skill folder, a root of the file tools and the sandbox) really lies where
 * it belongs, and where that is.
 *
 * The place it belongs (the anchor: the project root, the user's own config
 * folder, a plugin's folder) is resolved once; from there every component of
 * the folder is looked at with `lstat`, and a symlink, or anything that is no
 * folder, on the way refuses it. So the folder's path is its real path, and a
 * link planted below the anchor (by a sandboxed command, or by the repository)
 * cannot point it at `$HOME` or `/`. The folder's identity (device and inode)
 * is kept, so that a later use can ask whether the same folder is still there
 * ({@link stillThere}) and whether a path lies in it even after a folder above
 * it was renamed ({@link inFolders}). A file read from such a folder into the
 * prompt (`MEMORY.md`, `SKILL.md`) must really lie inside it
 * ({@link fileInside}), as the file tools require of their paths.
 *
 * Errors are values: one line naming the folder and why.
 *
 * @example
 * ```ts
 * const mem = confinedFolder("/p", ".claude/agent-memory-local/rev", {
 *   kind: "memory",
 *   where: "the project",
 *   make: true,
 * });
 * // { ok: true, value: { path: "/p/.claude/agent-memory-local/rev", id: { dev, ino } } }
 * // or, with a link on the way:
 * // { ok: false, error: "`.claude/agent-memory-local/rev` is a symlink: memory folders must
 * //   be real folders inside the project" }
 * ```
 *
 * @module
 */
import { lstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { isInside } from "./path-inside.ts";

/** Which folder it is: a device and inode number. */
export interface FolderIdentity {
  dev: number;
  ino: number;
}

/** A folder checked by {@link confinedFolder}: its real path and identity. */
export interface ConfinedFolder {
  path: string;
  id: FolderIdentity;
}

export type FolderOutcome =
  | { ok: true; value: ConfinedFolder }
  | { ok: false; error: string; missing?: true };

/** What the messages call the folder, and the place it belongs. */
export interface FolderRule {
  /** "memory", "skill", … : the message says "<kind> folders must be …". */
  kind: string;
  /** Where it belongs, as the message says it: "the project", "~/.claude". */
  where: string;
  /** Make missing components (mode 0700), each checked as it is made; the anchor too. */
  make?: boolean;
}

function identityOf(st: { dev: number; ino: number }): FolderIdentity {
  return { dev: st.dev, ino: st.ino };
}

/**
 * The folder `rel` below `anchor`, checked component by component: no
 * symlink, nothing but folders. `anchor` is the place the folder belongs and
 * is resolved (its own links count as the user's or the project's choice);
 * `rel` must not leave it.
 */
export function confinedFolder(anchor: string, rel: string, rule: FolderRule): FolderOutcome {
  const prefix = anchor === "/" ? "/" : "";
  const shown = rel === "" ? anchor : prefix + rel;
  const must = `${rule.kind} folders must be real folders inside ${rule.where}`;
  const parts = normalize(rel).split(sep).filter((p) => p !== "" && p !== ".");
  if (isAbsolute(rel) || parts.includes("..")) {
    return { ok: false, error: `\`${shown}\` leaves ${rule.where}: ${must}` };
  }
  let here: string;
  try {
    // The place itself is trusted: made when asked (say, a first `~/.claude`).
    if (rule.make) mkdirSync(anchor, { recursive: true, mode: 0o700 });
    here = realpathSync(anchor);
  } catch {
    return { ok: false, error: `\`${anchor}\` is missing: ${must}`, missing: true };
  }
  let st = statSync(here, { throwIfNoEntry: false });
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) {
      here = join(here, parts[i - 1]);
      const name = prefix + parts.slice(0, i).join("/");
      st = lstatSync(here, { throwIfNoEntry: false });
      if (!st && rule.make) {
        try {
          mkdirSync(here, { mode: 0o700 });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== "EEXIST") {
            return { ok: false, error: `cannot make \`${name}\`: ${(err as Error).message}` };
          }
        }
        st = lstatSync(here, { throwIfNoEntry: false });
      }
      if (!st) return { ok: false, error: `\`${name}\` is missing: ${must}`, missing: true };
      if (st.isSymbolicLink()) return { ok: false, error: `\`${name}\` is a symlink: ${must}` };
    }
    if (!st?.isDirectory()) {
      return { ok: false, error: `\`${i === 0 ? anchor : shown}\` is not a folder: ${must}` };
    }
  }
  return { ok: true, value: { path: here, id: identityOf(st!) } };
}

/**
 * The same check again for a folder checked before: every component of its
 * real path still no symlink, and the folder the same one (a folder renamed
 * away and another put in its place is refused).
 */
export function stillThere(folder: ConfinedFolder, rule: FolderRule): FolderOutcome {
  const again = confinedFolder("/", folder.path.slice(1), rule);
  if (!again.ok) return again;
  if (again.value.id.dev !== folder.id.dev || again.value.id.ino !== folder.id.ino) {
    return {
      ok: false,
      error: `\`${folder.path}\` is no longer the folder it was when the task started`,
    };
  }
  return again;
}

/**
 * The folder among `folders` that `real` (a resolved path) lies in, or
 * undefined: by path, and by identity of each existing folder above it, so a
 * folder renamed since it was checked still counts.
 */
export function inFolders(
  real: string,
  folders: readonly ConfinedFolder[],
): ConfinedFolder | undefined {
  if (folders.length === 0) return undefined;
  const byPath = folders.find((f) => isInside(real, [f.path]));
  if (byPath) return byPath;
  for (let p = real;; p = dirname(p)) {
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      const hit = folders.find((f) => f.id.dev === st.dev && f.id.ino === st.ino);
      if (hit) return hit;
    }
    if (dirname(p) === p) return undefined;
  }
}

/**
 * The real path of the file `name` in the checked folder `folder`, when it
 * really lies inside it (a symlink to a file elsewhere in it is followed; one
 * out of it is refused, with the file named). `missing` when there is none.
 */
export function fileInside(
  folder: ConfinedFolder,
  name: string,
): { ok: true; path: string } | { ok: false; error: string; missing?: true } {
  const file = join(folder.path, name);
  let real: string;
  try {
    real = realpathSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !lstatSync(file, { throwIfNoEntry: false })) {
      return { ok: false, error: `${file} is missing`, missing: true };
    }
    if (code === "ENOENT") return { ok: false, error: `${file} is a link to nothing` };
    return { ok: false, error: `${file}: ${(err as Error).message}` };
  }
  if (!isInside(real, [folder.path])) {
    return {
      ok: false,
      error: `${file} leads outside its folder (to ${real}): it is not read`,
    };
  }
  return { ok: true, path: real };
}
