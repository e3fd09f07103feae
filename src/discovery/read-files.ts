/**
 * Reads the definition files of one folder without ever throwing.
 *
 * Decides which entries count (names ending in one of the given extensions,
 * in byte order of the name), and which are skipped with one warning each:
 * folders named like files, dangling symlinks and symlink loops, files over
 * 1 MiB, files that are not UTF-8, and unreadable files. A missing folder is
 * simply empty; an unreadable folder, or a path that is a file, is empty with
 * a warning.
 *
 * @module
 */
import { type Dirent, promises as fs } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../task/types.ts";

/** Files over this size are skipped. */
export const MAX_AGENT_FILE_BYTES = 1024 * 1024;

export interface SourceFile {
  path: string;
  text: string;
}

export interface FolderRead {
  files: SourceFile[];
  warnings: Diagnostic[];
  /** False when the folder does not exist (or is not a folder). */
  exists: boolean;
  /** Why a folder that is there gave nothing: `not a folder`, `unreadable (…)`. */
  problem?: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Orders names by their UTF-8 bytes, the order `ls` uses in the C locale.
 * UTF-8 keeps code-point order, so comparing code points at the first
 * difference is enough (plain `<` compares UTF-16 units, which differs for
 * characters outside the Basic Multilingual Plane).
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? "";
}

function reasonOf(err: unknown): string {
  switch (errCode(err)) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "symlink loop";
    case "ENOENT":
      return "dangling symlink (its target does not exist)";
    case "EISDIR":
      return "is a folder, not a file";
    default:
      return (err as Error)?.message ?? String(err);
  }
}

/** Reads one file with the size and encoding rules; a string result is the skip reason. */
export async function readSourceFile(path: string): Promise<string | { text: string }> {
  let handle: fs.FileHandle | undefined;
  try {
    // Look before opening: opening a FIFO (or a socket, or a device) for
    // reading can block forever, and bad input must never stop discovery.
    const before = await fs.stat(path);
    if (before.isDirectory()) return "is a folder, not a file";
    if (!before.isFile()) return "is not a regular file";
    handle = await fs.open(path, "r");
    const info = await handle.stat();
    if (info.isDirectory()) return "is a folder, not a file";
    if (!info.isFile()) return "is not a regular file";
    if (info.size > MAX_AGENT_FILE_BYTES) {
      return `file is ${(info.size / 1024 / 1024).toFixed(1)} MiB, over the 1 MiB limit`;
    }
    const bytes = await handle.readFile();
    if (bytes.length > MAX_AGENT_FILE_BYTES) {
      return "file grew over the 1 MiB limit while being read";
    }
    try {
      return { text: utf8.decode(bytes) };
    } catch {
      return "file is not valid UTF-8 text";
    }
  } catch (err) {
    return reasonOf(err);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Files open at once across all folder reads. Discovery reads every folder
 * concurrently; without a bound, a folder of a few thousand agents exceeds a
 * low descriptor limit (macOS defaults to 256) and files are skipped with
 * EMFILE, depending on timing.
 */
export const MAX_CONCURRENT_READS = 64;
let activeReads = 0;
const waitingReads: (() => void)[] = [];

/** Runs `fn` once fewer than {@link MAX_CONCURRENT_READS} reads are in flight. */
async function withReadSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (activeReads < MAX_CONCURRENT_READS) activeReads++;
  else await new Promise<void>((resolve) => waitingReads.push(resolve));
  try {
    return await fn();
  } finally {
    // Hand the slot to the next waiter, or give it back.
    const next = waitingReads.shift();
    if (next) next();
    else activeReads--;
  }
}

/**
 * Lists and reads the files of `dir` whose names end with one of
 * `extensions`, in byte order of the name. Reads files concurrently, at most
 * {@link MAX_CONCURRENT_READS} at a time.
 */
export async function readDefinitionFolder(
  dir: string,
  extensions: readonly string[],
): Promise<FolderRead> {
  const warnings: Diagnostic[] = [];
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT") return { files: [], warnings, exists: false };
    const notDir = code === "ENOTDIR";
    const message = notDir
      ? "is a file, not a folder; nothing read from it"
      : `cannot read folder (${reasonOf(err)})`;
    warnings.push({ level: "warning", file: dir, message });
    const problem = notDir ? "not a folder" : `unreadable (${reasonOf(err)})`;
    return { files: [], warnings, exists: !notDir, problem };
  }
  const chosen = entries
    .filter((e) => extensions.some((ext) => e.name.endsWith(ext)))
    .sort((a, b) => compareBytes(a.name, b.name));
  const results = await Promise.all(chosen.map(async (entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return { path, outcome: "is a folder, not a file" as const };
    return { path, outcome: await withReadSlot(() => readSourceFile(path)) };
  }));
  const files: SourceFile[] = [];
  for (const { path, outcome } of results) {
    if (typeof outcome === "string") {
      warnings.push({ level: "warning", file: path, message: `skipped: ${outcome}` });
    } else {
      files.push({ path, text: outcome.text });
    }
  }
  return { files, warnings, exists: true };
}
