/**
 * The trust store: which project config files the user has trusted, by real
 * path and SHA-256 of their content, and which project folders.
 *
 * A repository the user just cloned is untrusted: its `.xcsh/config.yml` may
 * not change providers or start programs until `xcsh trust` records it here.
 * The record pins the content: after any change the file is untrusted again.
 * Trusting a project also records its folder, which answers "may this
 * project's own files start programs?" for callers that have no single file
 * to pin (see {@link isProjectTrusted} for a project folder and
 * {@link isInsideTrustedProject} for a file in one, such as an agent file
 * naming MCP servers).
 *
 * The store is one JSON file, `trusted.json`, in the user's state folder:
 * `$XDG_STATE_HOME/xcsh` when that is an absolute path, else
 * `~/.local/state/xcsh`. The folder is created 0700 and the file 0600,
 * written whole to a new file and renamed over the old one. A store that is
 * missing, unreadable, too large or not valid trusts nothing.
 *
 * @example
 * ```ts
 * const store = defaultTrustStore();
 * if (!isTrusted("/src/app/.xcsh/config.yml", text, store)) console.log("run: xcsh trust /src/app");
 * trustProject(store, "/src/app", { path: "/src/app/.xcsh/config.yml", content: text });
 * ```
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { isAbsolute, join, sep } from "node:path";
import process from "node:process";
import { homeDirectory } from "../home.ts";
import { readCappedSync } from "../file-safety.ts";
import { isRecord } from "../values.ts";
import { sha256Hex } from "../runtime.ts";

/** A trusted config file: its real path and the SHA-256 (hex) of its bytes. */
export interface TrustedFile {
  path: string;
  sha256: string;
  /** ISO time it was trusted. */
  trustedAt: string;
}

/** A trusted project folder (real path). */
export interface TrustedProject {
  root: string;
  trustedAt: string;
}

/** What the store holds. */
export interface TrustRecords {
  files: TrustedFile[];
  projects: TrustedProject[];
}

/** Where the store lives (a `trusted.json` path). */
export interface TrustStore {
  file: string;
}

const MAX_STORE_BYTES = 4 * 1024 * 1024;

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

/** Reads the records; anything unusable reads as an empty store. */
export function readTrustRecords(store: TrustStore | undefined): TrustRecords {
  const empty: TrustRecords = { files: [], projects: [] };
  if (!store) return empty;
  const r = readCappedSync(store.file, MAX_STORE_BYTES);
  if (!r.ok) return empty;
  let doc: unknown;
  try {
    doc = JSON.parse(r.bytes.toString("utf8"));
  } catch {
    return empty;
  }
  if (!isRecord(doc) || doc.version !== 1) return empty;
  const files = Array.isArray(doc.files)
    ? doc.files.filter((f): f is TrustedFile =>
      isRecord(f) && typeof f.path === "string" && typeof f.sha256 === "string"
    )
    : [];
  const projects = Array.isArray(doc.projects)
    ? doc.projects.filter((p): p is TrustedProject => isRecord(p) && typeof p.root === "string")
    : [];
  return { files, projects };
}

/** Writes the records: folder 0700, file 0600, replaced atomically. */
export function writeTrustRecords(store: TrustStore, records: TrustRecords): void {
  const dir = join(store.file, "..");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${store.file}.${process.pid}.${Date.now()}.tmp`;
  const text = JSON.stringify({ version: 1, ...records }, null, 2) + "\n";
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

/**
 * True when the file at `realPath` (already resolved with `realpath`) was
 * trusted with exactly this content. Any change to the file, or a record of
 * another path, is untrusted. Never throws.
 *
 * @param realPath the file's real path (resolve symlinks first: {@link realPathOf})
 * @param content the bytes (or text) the caller is about to use
 * @param store the store to ask; defaults to this process's ({@link defaultTrustStore})
 */
export function isTrusted(
  realPath: string,
  content: string | Uint8Array,
  store: TrustStore | undefined = defaultTrustStore(),
): boolean {
  const hash = contentHash(content);
  return readTrustRecords(store).files.some((f) => f.path === realPath && f.sha256 === hash);
}

/**
 * True when `xcsh trust` recorded the project folder `root` (its real path
 * is compared; ancestors do not count). For decisions with no single file to
 * pin, such as whether a project's own agent files may start MCP servers.
 * Never throws.
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
 * project folder that `xcsh trust` recorded, at any depth: for example
 * whether an agent file's own MCP servers may start. Never throws.
 *
 * @example
 * ```ts
 * isInsideTrustedProject("/src/app/.claude/agents/db.md"); // true after `xcsh trust /src/app`
 * ```
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
 * Records `root` (a project folder) and, when given, its config file with
 * the content that was read, replacing earlier records of either.
 */
export function trustProject(
  store: TrustStore,
  root: string,
  config?: { path: string; content: string | Uint8Array },
  now = new Date(),
): void {
  const records = readTrustRecords(store);
  const at = now.toISOString();
  const realRoot = realPathOf(root);
  records.projects = [
    ...records.projects.filter((p) => p.root !== realRoot),
    { root: realRoot, trustedAt: at },
  ];
  if (config) {
    const path = realPathOf(config.path);
    records.files = [
      ...records.files.filter((f) => f.path !== path),
      { path, sha256: contentHash(config.content), trustedAt: at },
    ];
  }
  writeTrustRecords(store, records);
}

/**
 * Forgets `root` and every trusted file inside it. Returns how many records
 * were removed.
 */
export function revokeProject(store: TrustStore, root: string): number {
  const records = readTrustRecords(store);
  const realRoot = realPathOf(root);
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot + "/");
  const before = records.files.length + records.projects.length;
  records.files = records.files.filter((f) => !inside(f.path));
  records.projects = records.projects.filter((p) => p.root !== realRoot);
  const removed = before - records.files.length - records.projects.length;
  if (removed > 0) writeTrustRecords(store, records);
  return removed;
}
