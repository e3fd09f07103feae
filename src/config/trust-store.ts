/**
 * The trust store: what the user has trusted, kept in the user's own state
 * folder, never in a file a repository ships.
 *
 * - **Files** (a project's `.xcsh/config.yml`, its agent files that can
 *   start programs or loosen the sandbox, and its Claude Code settings files
 *   that hold hooks): by real path and SHA-256 of their
 *   content, pinned to the project they were trusted for. After any change
 *   the file is untrusted again, and the same file reached from another
 *   project (a symlink to a trusted project's config) is not trusted there.
 * - **Project folders**: for callers that have no single file to pin (see
 *   {@link isProjectTrusted} and {@link isInsideTrustedProject}).
 * - **MCP servers** of a project's `.mcp.json`: by file, server name and a
 *   hash of the server's definition (see {@link isMcpServerApproved}).
 *
 * The store is one JSON file, `trusted.json`, in the user's state folder:
 * `$XDG_STATE_HOME/xcsh` when that is an absolute path, else
 * `~/.local/state/xcsh`. The folder is created 0700 and the file 0600. A
 * store that is missing, unreadable, too large, not valid, or that someone
 * else could have written (the file or its folder owned by another user, or
 * writable by others: the owner/mode rule of `file-safety.ts`) trusts
 * nothing. Changes are made under a lock file (`trusted.json.lock`, created
 * exclusively; one left by a process that died, or older than
 * {@link STALE_LOCK_MS}, is taken over) and written whole to a new file
 * renamed over the old one, so concurrent `xcsh trust` runs lose no record.
 *
 * @example
 * ```ts
 * const text = "task:\n  timeout: 600\n";
 * const store = defaultTrustStore();
 * if (!isTrusted("/src/app/.xcsh/config.yml", text, store)) console.log("run: xcsh trust /src/app");
 * trustProject(store!, "/src/app", { config: { path: "/src/app/.xcsh/config.yml", content: text } });
 * ```
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import process from "node:process";
import { homeDirectory } from "../fs/home.ts";
import { ownershipProblem, readCappedSync } from "../fs/file-safety.ts";
import { isRecord } from "../formats/values.ts";
import { sha256Hex } from "../runtime.ts";

/** A trusted file: its real path and the SHA-256 (hex) of its bytes. */
export interface TrustedFile {
  path: string;
  sha256: string;
  /**
   * The real path of the project folder it was trusted for. A record without
   * one (written by an older xcsh) trusts nothing: trust the project again.
   */
  project?: string;
  /** ISO time it was trusted. */
  trustedAt: string;
}

/** A trusted project folder (real path). */
export interface TrustedProject {
  root: string;
  trustedAt: string;
}

/** An approved MCP server of a project's `.mcp.json`. */
export interface ApprovedMcpServer {
  /** The real path of the `.mcp.json`. */
  file: string;
  name: string;
  /** A hash of the server's definition (the caller decides its form). */
  sha256: string;
  /** The real path of the project folder it was approved for. */
  project: string;
  trustedAt: string;
}

/** What the store holds. */
export interface TrustRecords {
  files: TrustedFile[];
  projects: TrustedProject[];
  mcpServers: ApprovedMcpServer[];
}

/** Where the store lives (a `trusted.json` path). */
export interface TrustStore {
  file: string;
}

/** A store that cannot be changed: locked too long, or not the user's own. */
export class TrustStoreError extends Error {}

const MAX_STORE_BYTES = 4 * 1024 * 1024;
/** A lock file older than this is left over from a process that hung or died. */
export const STALE_LOCK_MS = 30_000;
/** How long a change waits for the lock before giving up. */
const LOCK_WAIT_MS = 20_000;

/**
 * The state folder of xcsh: `$XDG_STATE_HOME/xcsh` (absolute only, as the
 * XDG spec requires), else `~/.local/state/xcsh`; undefined without a home.
 */
export function stateDirectory(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string | undefined {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "xcsh");
  return home ? join(home, ".local", "state", "xcsh") : undefined;
}

/** The store for this environment and home, or undefined when there is no home. */
export function trustStoreFor(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): TrustStore | undefined {
  const dir = stateDirectory(env, home);
  return dir ? { file: join(dir, "trusted.json") } : undefined;
}

/** The store of this process (its environment and home folder). */
export function defaultTrustStore(): TrustStore | undefined {
  return trustStoreFor(process.env, homeDirectory());
}

/** SHA-256 of a file's content, hex. */
export function contentHash(content: string | Uint8Array): string {
  return sha256Hex(content);
}

/** The real path of `path`, or `path` itself when it cannot be resolved. */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Why the store must not be believed, or undefined when it may: its folder
 * or file owned by another user or writable by others. A store that does
 * not exist yet has no problem.
 */
export function trustStoreProblem(store: TrustStore): string | undefined {
  for (const path of [dirname(store.file), store.file]) {
    let info;
    try {
      info = statSync(path, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (!info) continue;
    const problem = ownershipProblem(info);
    if (problem) return `${path} is ${problem}`;
  }
  return undefined;
}

/** Reads the records; anything unusable, or not the user's own, reads as an empty store. */
export function readTrustRecords(store: TrustStore | undefined): TrustRecords {
  const empty: TrustRecords = { files: [], projects: [], mcpServers: [] };
  if (!store) return empty;
  const r = readCappedSync(store.file, MAX_STORE_BYTES);
  if (!r.ok) return empty;
  if (ownershipProblem(r.info) || trustStoreProblem(store)) return empty;
  let doc: unknown;
  try {
    doc = JSON.parse(r.bytes.toString("utf8"));
  } catch {
    return empty;
  }
  if (!isRecord(doc) || doc.version !== 1) return empty;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);
  const str = (v: unknown) => typeof v === "string";
  return {
    files: list(doc.files).filter((f) => str(f.path) && str(f.sha256)) as unknown as TrustedFile[],
    projects: list(doc.projects).filter((p) => str(p.root)) as unknown as TrustedProject[],
    mcpServers: list(doc.mcpServers).filter((m) =>
      str(m.file) && str(m.name) && str(m.sha256) && str(m.project)
    ) as unknown as ApprovedMcpServer[],
  };
}

/** Writes the records: folder 0700, file 0600, replaced atomically. Hold the lock. */
export function writeTrustRecords(store: TrustStore, records: TrustRecords): void {
  const text = JSON.stringify({ version: 1, ...records }, null, 2) + "\n";
  const tmp = `${store.file}.${process.pid}.${Date.now()}.tmp`;
  // "wx": never through a file or link someone else put there.
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, store.file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** True when the lock text names a process that is gone, or is too old. */
function lockIsStale(text: string, ageMs: number): boolean {
  if (ageMs > STALE_LOCK_MS) return true;
  const pid = Number(/^(\d+)/.exec(text)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return ageMs > 1000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Takes over a stale lock: moved aside first, so a lock taken meanwhile is put back. */
function breakStaleLock(lock: string, seen: string): void {
  const aside = `${lock}.${process.pid}.${Date.now()}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  let text = "";
  try {
    text = readFileSync(aside, "utf8");
  } catch {
    // gone: nothing to put back
  }
  if (text !== seen) {
    // Another process took the lock between our look and the move: give it back.
    try {
      linkSync(aside, lock);
    } catch {
      // someone holds it again already
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Runs `change` on the records with the store locked, and writes what it
 * returns (nothing: no write). Creates the folder 0700. Throws
 * {@link TrustStoreError} when the store is not the user's own or stays
 * locked.
 */
export function updateTrustRecords(
  store: TrustStore,
  change: (records: TrustRecords) => TrustRecords | undefined,
): void {
  const dir = dirname(store.file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = trustStoreProblem(store);
  if (problem) {
    throw new TrustStoreError(
      `the trust store cannot be used: ${problem} (only you may write it: ` +
        `chown it to yourself and run 'chmod 700 ${dir}; chmod 600 ${store.file}', or remove it)`,
    );
  }
  chmodSync(dir, 0o700);
  const lock = `${store.file}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  for (let wait = 2; fd === undefined; wait = Math.min(wait * 2, 50)) {
    try {
      fd = openSync(lock, "wx", 0o600);
      writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
    } catch (err) {
      if (fd !== undefined) {
        closeSync(fd);
        rmSync(lock, { force: true });
        throw err;
      }
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let text = "";
      let age = 0;
      try {
        text = readFileSync(lock, "utf8");
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        // Released meanwhile, or not a file we can read (a folder, a
        // dangling link): wait and try again, within the deadline.
      }
      // Every way round the loop meets the deadline: a lock that cannot be
      // taken over (it will not move) must not keep us spinning.
      if (lockIsStale(text, age) && Date.now() <= until) {
        breakStaleLock(lock, text);
        continue;
      }
      if (Date.now() > until) {
        throw new TrustStoreError(
          `the trust store is locked by another xcsh (${lock}: ${text.trim()}); try again`,
        );
      }
      sleepSync(wait + Math.random() * wait);
    }
  }
  try {
    const next = change(readTrustRecords(store));
    if (next) writeTrustRecords(store, next);
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/**
 * The real paths of the folders above `path` as it was found (each resolved
 * on its own): the projects a file found there may belong to. A file
 * reached through a symlink from another project has that project among
 * none of them.
 */
function projectsAbove(path: string): Set<string> {
  const out = new Set<string>();
  let dir = dirname(resolve(path));
  for (;;) {
    out.add(realPathOf(dir));
    const up = dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

/**
 * True when the file at `path` (as found: the project it is used from is
 * read from it) was trusted with exactly this content, for a project folder
 * it lies in. Any change to the file, a record of another path, or a record
 * made for another project (the file reached through a symlink) is
 * untrusted. Never throws.
 *
 * @param path the file as found (for example `<project>/.xcsh/config.yml`)
 * @param content the bytes (or text) the caller is about to use
 * @param store the store to ask; defaults to this process's ({@link defaultTrustStore})
 */
export function isTrusted(
  path: string,
  content: string | Uint8Array,
  store: TrustStore | undefined = defaultTrustStore(),
): boolean {
  const records = readTrustRecords(store).files;
  if (records.length === 0) return false;
  const hash = contentHash(content);
  const real = realPathOf(path);
  const mine = records.filter((f) => f.path === real && f.sha256 === hash && f.project);
  if (mine.length === 0) return false;
  const above = projectsAbove(path);
  return mine.some((f) => above.has(f.project!));
}

/**
 * True when `xcsh trust` recorded the project folder `root` (its real path
 * is compared; ancestors do not count). Never throws.
 */
export function isProjectTrusted(
  root: string,
  store: TrustStore | undefined = defaultTrustStore(),
): boolean {
  const real = realPathOf(root);
  return readTrustRecords(store).projects.some((p) => p.root === real);
}

/**
 * True when `path` (a file or folder; its real path is compared) lies in a
 * project folder that `xcsh trust` recorded, at any depth. This says nothing
 * about files added later: for a file that can start programs, ask
 * {@link isTrusted} (by content). Never throws.
 */
export function isInsideTrustedProject(
  path: string,
  store: TrustStore | undefined = defaultTrustStore(),
): boolean {
  const real = realPathOf(path);
  return readTrustRecords(store).projects.some((p) =>
    real === p.root || real.startsWith(p.root.endsWith(sep) ? p.root : p.root + sep)
  );
}

/**
 * True when the server `name` of the `.mcp.json` at `file` (as found) was
 * approved with this definition hash, for a project folder the file lies
 * in. Never throws.
 */
export function isMcpServerApproved(
  file: string,
  name: string,
  sha256: string,
  store: TrustStore | undefined = defaultTrustStore(),
): boolean {
  const records = readTrustRecords(store).mcpServers;
  if (records.length === 0) return false;
  const real = realPathOf(file);
  const mine = records.filter((m) => m.file === real && m.name === name && m.sha256 === sha256);
  if (mine.length === 0) return false;
  const above = projectsAbove(file);
  return mine.some((m) => above.has(m.project));
}

/** What `xcsh trust` records for one project, besides its folder. */
export interface ProjectTrust {
  /** The project's `.xcsh/config.yml`, with the content that was read. */
  config?: { path: string; content: string | Uint8Array };
  /** Agent files that start programs or loosen the sandbox, with their content. */
  agentFiles?: { path: string; content: string | Uint8Array }[];
  /** `.mcp.json` servers approved, each with its definition hash. */
  mcpServers?: { file: string; name: string; sha256: string }[];
  /** Claude Code settings (and plugin hooks) files whose hooks may run, with their content. */
  hookFiles?: { path: string; content: string | Uint8Array }[];
}

/**
 * Records `root` (a project folder) and what it holds, replacing every
 * earlier record made for it: what was trusted before and is not listed
 * now is trusted no more.
 */
export function trustProject(
  store: TrustStore,
  root: string,
  what: ProjectTrust = {},
  now = new Date(),
): void {
  const at = now.toISOString();
  const project = realPathOf(root);
  const files = [
    ...(what.config ? [what.config] : []),
    ...(what.agentFiles ?? []),
    ...(what.hookFiles ?? []),
  ].map((f) => ({
    path: realPathOf(f.path),
    sha256: contentHash(f.content),
    project,
    trustedAt: at,
  }));
  const servers = (what.mcpServers ?? []).map((m) => ({
    file: realPathOf(m.file),
    name: m.name,
    sha256: m.sha256,
    project,
    trustedAt: at,
  }));
  updateTrustRecords(store, (records) => ({
    projects: [...records.projects.filter((p) => p.root !== project), {
      root: project,
      trustedAt: at,
    }],
    files: [
      ...records.files.filter((f) =>
        f.project !== project && !files.some((n) => n.path === f.path && f.project === undefined)
      ),
      ...files,
    ],
    mcpServers: [...records.mcpServers.filter((m) => m.project !== project), ...servers],
  }));
}

/**
 * Forgets `root` and everything trusted for it or inside it. Returns how
 * many records were removed.
 */
export function revokeProject(store: TrustStore, root: string): number {
  const realRoot = realPathOf(root);
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot + "/");
  let removed = 0;
  updateTrustRecords(store, (records) => {
    const before = records.files.length + records.projects.length + records.mcpServers.length;
    const next: TrustRecords = {
      files: records.files.filter((f) => !inside(f.path) && f.project !== realRoot),
      projects: records.projects.filter((p) => p.root !== realRoot),
      mcpServers: records.mcpServers.filter((m) => !inside(m.file) && m.project !== realRoot),
    };
    removed = before - next.files.length - next.projects.length - next.mcpServers.length;
    return removed > 0 ? next : undefined;
  });
  return removed;
}
