/**
 * Reads the definition files of one folder without ever throwing.
 *
 * Decides which entries count (names ending in one of the given extensions,
 * in byte order of the name), and which are skipped with one warning each:
 * folders named like files, dangling symlinks and symlink loops, files over
 * 1 MiB, files that are not UTF-8, and unreadable files. A missing folder is
 * simply empty; an unreadable folder, or a path that is a file, is empty with
 * a warning. For a project's folder (`within`: the folder whose `.claude`,
 * `.xcsh`… it is), a file, or the folder itself, whose real location is
 * outside `within` is skipped with a warning: a repository's agent or command
 * file linked to a secret elsewhere never becomes a prompt.
 *
 * @module
 */
import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../types.ts";
import { readCappedSync } from "../fs/file-safety.ts";
import { isInside } from "../fs/path-inside.ts";
import { type FileSignature, isSettled, signatureOf } from "./file-signature.ts";

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

function tooLarge(size: number): string {
  return `file is ${(size / 1024 / 1024).toFixed(1)} MiB, over the 1 MiB limit`;
}

/**
 * Reads one file with the size and encoding rules; a string result is the
 * skip reason. The file is opened without blocking (a FIFO, socket or device
 * could otherwise wait forever), measured on the descriptor, and read no
 * further than the cap, so bad input never stops discovery and a huge file
 * costs nothing. (`_regular`, what the listing said, is no longer needed.)
 */
export function readSourceFile(
  path: string,
  _regular = false,
): Promise<string | { text: string }> {
  // Read synchronously: a small file takes microseconds, and one descriptor
  // at a time leaves the rest for the folder listings under a low limit.
  return Promise.resolve(readSourceFileSync(path));
}

/** {@link readSourceFile}, synchronously. */
export function readSourceFileSync(path: string): string | { text: string } {
  const r = readSourceFileStat(path);
  return typeof r === "string" ? r : { text: r.text };
}

/**
 * {@link readSourceFileSync} with what `fstat` said of the descriptor the
 * text was read from: the signature of exactly the state that was read.
 */
function readSourceFileStat(path: string): string | { text: string; info: Stats } {
  // Measured on the open descriptor, then read no further than the cap: a
  // huge (or sparse) file costs nothing, a FIFO is never waited on.
  const r = readCappedSync(path, MAX_AGENT_FILE_BYTES);
  if (!r.ok) {
    if (r.code === "EFBIG") return tooLarge(r.size ?? MAX_AGENT_FILE_BYTES + 1);
    if (r.code === "EISDIR") return "is a folder, not a file";
    if (r.code === "ENOTREG") return "is not a regular file";
    const code = r.code ?? "";
    return code === "EMFILE" || code === "ENFILE" ? DESCRIPTOR_SHORTAGE : reasonOf(r.error);
  }
  try {
    return { text: utf8.decode(r.bytes), info: r.info };
  } catch {
    return "file is not valid UTF-8 text";
  }
}

/**
 * The skip reason for "too many files open right now": not the file's fault.
 * Discovery reads every folder at once, and under a low descriptor limit
 * (macOS defaults to 256) some opens fail with EMFILE depending on timing;
 * those files are read again, one at a time, so the result never depends on
 * timing. This costs nothing when descriptors are plenty, unlike a limiter.
 */
export const DESCRIPTOR_SHORTAGE = "too many files open (EMFILE)";

/** Reads again, one at a time, the files that met a descriptor shortage. */
async function retryShortages(
  results: { path: string; regular: boolean; outcome: string | { text: string } }[],
): Promise<void> {
  for (const r of results) {
    for (let attempt = 0; r.outcome === DESCRIPTOR_SHORTAGE && attempt < 50; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      r.outcome = await readSourceFile(r.path, r.regular);
    }
  }
}

/**
 * `dir` normalised and ending in a separator: prefixing a plain entry name
 * with it is `join(dir, name)`, without paying for `join` once per file.
 */
export function childPrefix(dir: string): string {
  return join(dir, "x").slice(0, -1);
}

/** The listing of a folder, and the names refused with why; or what reading it gave. */
type Listing = { chosen: Dirent[]; refused: Map<string, string> };

function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The entries of `listed` (in `dir`) whose real location is outside
 * `within`, with the skip reason; the whole folder's problem when it is.
 */
function outsideOf(dir: string, chosen: Dirent[], within: string): Listing | FolderRead {
  const refused = new Map<string, string>();
  const base = realOf(within);
  const realDir = realOf(dir);
  if (base === undefined || realDir === undefined) return { chosen, refused };
  const why = (to: string) => `leads outside the folder it was found in (to ${to})`;
  if (!isInside(realDir, [base])) {
    return {
      files: [],
      warnings: [{ level: "warning", file: dir, message: `${why(realDir)}; nothing read from it` }],
      exists: true,
      problem: "outside its project",
    };
  }
  for (const e of chosen) {
    if (!e.isSymbolicLink()) continue;
    const real = realOf(join(dir, e.name));
    if (real !== undefined && !isInside(real, [base])) {
      refused.set(e.name, `${why(real)}; not read`);
    }
  }
  return { chosen, refused };
}

/** The listing of a folder, or what reading it gave when it cannot be listed. */
function listDefinitionFolder(
  dir: string,
  extensions: readonly string[],
  within?: string,
): Listing | FolderRead {
  let entries: Dirent[];
  try {
    // Synchronous: a listing takes microseconds, and a process whose files
    // are all known then never starts the I/O thread pool (slow to wake on a
    // busy machine).
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT") return { files: [], warnings: [], exists: false };
    const notDir = code === "ENOTDIR";
    const message = notDir
      ? "is a file, not a folder; nothing read from it"
      : `cannot read folder (${reasonOf(err)})`;
    const problem = notDir ? "not a folder" : `unreadable (${reasonOf(err)})`;
    return {
      files: [],
      warnings: [{ level: "warning", file: dir, message }],
      exists: !notDir,
      problem,
    };
  }
  const chosen = entries
    .filter((e) => extensions.some((ext) => e.name.endsWith(ext)))
    .sort((a, b) => compareBytes(a.name, b.name));
  return within === undefined || chosen.length === 0
    ? { chosen, refused: new Map() }
    : outsideOf(dir, chosen, within);
}

interface ReadResult {
  path: string;
  regular: boolean;
  outcome: string | { text: string };
  signature?: FileSignature;
  known?: FileSignature;
}

/** The files read and the skip warnings, in listing order. */
function assemble<F>(
  results: readonly ReadResult[],
  toFile: (r: ReadResult, text: string | undefined) => F,
): { files: F[]; warnings: Diagnostic[] } {
  const files: F[] = [];
  const warnings: Diagnostic[] = [];
  for (const r of results) {
    if (r.known) files.push(toFile(r, undefined));
    else if (typeof r.outcome === "string") {
      warnings.push({ level: "warning", file: r.path, message: `skipped: ${r.outcome}` });
    } else files.push(toFile(r, r.outcome.text));
  }
  return { files, warnings };
}

/**
 * Lists and reads the files of `dir` whose names end with one of
 * `extensions`, in byte order of the name. Reads files concurrently.
 */
export async function readDefinitionFolder(
  dir: string,
  extensions: readonly string[],
  within?: string,
): Promise<FolderRead> {
  const listed = listDefinitionFolder(dir, extensions, within);
  if (!("chosen" in listed)) return listed;
  const prefix = childPrefix(dir);
  const results = await Promise.all(listed.chosen.map(async (entry): Promise<ReadResult> => {
    const path = prefix + entry.name;
    const regular = entry.isFile();
    const refused = listed.refused.get(entry.name);
    if (refused) return { path, regular, outcome: refused };
    if (entry.isDirectory()) return { path, regular, outcome: "is a folder, not a file" };
    return { path, regular, outcome: await readSourceFile(path, regular) };
  }));
  await retryShortages(results);
  const { files, warnings } = assemble(results, (r, text) => ({ path: r.path, text: text! }));
  return { files, warnings, exists: true };
}

/** A file read by {@link readDefinitionFolderChecked}: its signature when settled. */
export interface SignedFile extends SourceFile {
  signature?: FileSignature;
}

/** A file the caller already has in this exact state: not read again. */
export interface KnownFile {
  path: string;
  known: FileSignature;
}

export interface CheckedFolderRead extends Omit<FolderRead, "files"> {
  files: (SignedFile | KnownFile)[];
}

/**
 * {@link readDefinitionFolder} for a caller that remembers files: each file is
 * looked at (`stat`) first, and one whose settled signature `isKnown` accepts
 * is not read; the others are read and come with their signature when it is
 * settled, for the caller to remember. `now` is the clock (for tests).
 */
export async function readDefinitionFolderChecked(
  dir: string,
  extensions: readonly string[],
  isKnown: (path: string, sig: FileSignature) => boolean,
  now: () => number = Date.now,
  within?: string,
): Promise<CheckedFolderRead> {
  const listed = listDefinitionFolder(dir, extensions, within);
  if (!("chosen" in listed)) return listed;
  const prefix = childPrefix(dir);
  // The stats are synchronous: a stat takes microseconds, and a promise per
  // file would cost more than the stat itself when most files are known.
  const at = now();
  const results: ReadResult[] = [];
  const reads: Promise<void>[] = [];
  for (const entry of listed.chosen) {
    const path = prefix + entry.name;
    const refused = listed.refused.get(entry.name);
    if (refused || entry.isDirectory()) {
      results.push({ path, regular: false, outcome: refused ?? "is a folder, not a file" });
      continue;
    }
    let info: Stats | undefined;
    try {
      info = statSync(path, { throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    const r: ReadResult = { path, regular: false, outcome: "" };
    results.push(r);
    if (!info?.isFile()) {
      // Not a plain file, or not there: the reader says why, as it always does.
      reads.push(readSourceFile(path).then((o) => void (r.outcome = o)));
      continue;
    }
    r.regular = true;
    const sig = signatureOf(info);
    const settled = isSettled(sig, at);
    if (settled && info.size <= MAX_AGENT_FILE_BYTES && isKnown(path, sig)) {
      r.known = sig;
      continue;
    }
    if (settled) r.signature = sig;
    reads.push(readSourceFile(path, true).then((o) => void (r.outcome = o)));
  }
  await Promise.all(reads);
  await retryShortages(results);
  const { files, warnings } = assemble(
    results,
    (r, text): SignedFile | KnownFile =>
      r.known
        ? { path: r.path, known: r.known }
        : { path: r.path, text: text!, ...(r.signature ? { signature: r.signature } : {}) },
  );
  return { files, warnings, exists: true };
}

/**
 * {@link readDefinitionFolder} for a caller that remembers files by their
 * signature but needs their text anyway: every file is read, and one whose
 * descriptor's `fstat` gives a settled signature comes with it (no `stat`
 * by path: the signature is that of the bytes read). `now` is the clock.
 */
export async function readDefinitionFolderSigned(
  dir: string,
  extensions: readonly string[],
  now: () => number = Date.now,
  within?: string,
): Promise<{ files: SignedFile[]; warnings: Diagnostic[]; exists: boolean; problem?: string }> {
  const listed = listDefinitionFolder(dir, extensions, within);
  if (!("chosen" in listed)) return listed;
  const prefix = childPrefix(dir);
  const at = now();
  const results: ReadResult[] = [];
  for (const entry of listed.chosen) {
    const path = prefix + entry.name;
    const refused = listed.refused.get(entry.name);
    if (refused || entry.isDirectory()) {
      results.push({ path, regular: false, outcome: refused ?? "is a folder, not a file" });
      continue;
    }
    const read = readSourceFileStat(path);
    if (typeof read === "string") {
      results.push({ path, regular: false, outcome: read });
      continue;
    }
    const sig = signatureOf(read.info);
    results.push({
      path,
      regular: true,
      outcome: { text: read.text },
      ...(isSettled(sig, at) ? { signature: sig } : {}),
    });
  }
  await retryShortages(results);
  const { files, warnings } = assemble(
    results,
    (r, text): SignedFile => ({
      path: r.path,
      text: text!,
      ...(r.signature ? { signature: r.signature } : {}),
    }),
  );
  return { files, warnings, exists: true };
}
