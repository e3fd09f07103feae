/**
 * Files only the user may read: a folder made 0700 and checked to be the
 * user's own real folder (never a link, never open to others), and a new
 * file in it created exclusively 0600 (`stem.txt`, else `stem-2.txt`, …),
 * so an existing file or symlink is never written through. The parent's
 * task artifacts and a child's spilled tool results share this rule.
 * (`node:fs/promises` is loaded on first use: importing this module costs
 * a task's start nothing.)
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";

/** Refuses a folder that is a link, someone else's, or open to others. */
export async function checkPrivate(dir: string): Promise<void> {
  const { lstat } = await import("node:fs/promises");
  const info = await lstat(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  if (!info.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && info.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users`);
}

/** Makes `dir` (and its parents) 0700 when missing, then checks it is private. */
export async function privateFolder(dir: string): Promise<string> {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await checkPrivate(dir);
  return dir;
}

/** Creates `dir/stem.txt` (or `stem-2.txt`, …) exclusively, 0600, and writes `text`. */
export async function writeNew(dir: string, stem: string, text: string): Promise<string> {
  const { open } = await import("node:fs/promises");
  for (let n = 1;; n++) {
    const file = join(dir, `${n === 1 ? stem : `${stem}-${n}`}.txt`);
    let handle;
    try {
      handle = await open(file, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST" && n < 1000) continue;
      throw err;
    }
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    return file;
  }
}
