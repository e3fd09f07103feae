/**
 * Turns the committed fixture trees into real folders a test can point the
 * binary at, and makes at test time what must not (or cannot) be committed.
 *
 * `materializeFixture(name)` copies `fixtures/<name>` to a fresh temporary
 * folder (symlinks copied verbatim, never followed), replaces the placeholder
 * `@ROOT@` in every `*.json` file with the copy's absolute root, and creates
 * what git cannot store: `.git` folders marking repository roots and empty
 * folders. The other helpers make a file over 1 MiB, a non-UTF-8 file,
 * unreadable files and folders, symlink loops and dangling symlinks.
 *
 * Unreadable paths: root reads through permission bits, so when the tests run
 * as root, `runXcshUnprivileged` runs the binary as `nobody` (uid 65534)
 * through `setpriv`, and `makeReachable` opens the rest of the tree to it.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import {
  cleanEnv,
  FIXTURES,
  requireBinary,
  runCommand,
  type RunOptions,
  type RunResult,
} from "./cli.ts";

/** The placeholder for the materialized root in fixture JSON files. */
export const ROOT_PLACEHOLDER = "@ROOT@";

/** Per fixture: what git cannot store, created after the copy. */
const EXTRAS: Record<string, { gitRoots?: string[]; emptyDirs?: string[] }> = {
  world: { gitRoots: ["home/work/repo"] },
  "plugins-v1": { gitRoots: ["proj"] },
  "env-dirs": {
    gitRoots: ["proj"],
    // Nearer than proj/.gemini/agents: an empty folder still wins for its family.
    emptyDirs: ["proj/sub/.gemini/agents"],
  },
  bad: { gitRoots: ["home/proj"] },
};

export interface Materialized {
  /** Absolute path of the copy. */
  root: string;
  /** Removes the copy, unreadable parts included. */
  cleanup(): void;
}

/** Copies `src` to `dst` recursively; symlinks are recreated with the same target text. */
function copyTree(src: string, dst: string): void {
  const info = lstatSync(src);
  if (info.isSymbolicLink()) {
    symlinkSync(readlinkSync(src), dst);
  } else if (info.isDirectory()) {
    mkdirSync(dst, { recursive: true });
    for (const name of readdirSync(src)) copyTree(join(src, name), join(dst, name));
  } else if (info.isFile()) {
    writeFileSync(dst, readFileSync(src));
  }
}

/** Every regular file under `dir` (symlinks not followed). */
function walkFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isDirectory()) walkFiles(path, out);
    else if (info.isFile()) out.push(path);
  }
  return out;
}

/** Makes every folder of `dir` writable and listable again, so it can be removed. */
function reopen(dir: string): void {
  try {
    chmodSync(dir, 0o755);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = lstatSync(path);
      if (info.isDirectory()) reopen(path);
      else if (!info.isSymbolicLink()) chmodSync(path, 0o644);
    }
  } catch {
    // Best effort: rmSync reports what is left.
  }
}

/** Removes a temporary tree, whatever its permission bits. */
export function removeTree(root: string): void {
  reopen(root);
  rmSync(root, { recursive: true, force: true });
}

/** A fresh, empty temporary folder that an unprivileged user can traverse. */
export function makeTempRoot(label: string): Materialized {
  const root = mkdtempSync(join(tmpdir(), `xcsh-${label}-`));
  chmodSync(root, 0o755);
  return { root, cleanup: () => removeTree(root) };
}

/** Copies `fixtures/<name>` to a fresh temporary folder; see the module comment. */
export function materializeFixture(name: string): Materialized {
  const tmp = makeTempRoot(`fx-${name}`);
  const root = tmp.root;
  try {
    for (const entry of readdirSync(join(FIXTURES, name))) {
      copyTree(join(FIXTURES, name, entry), join(root, entry));
    }
    // JSON-escape the root, in case the temp folder's name needs it.
    const rootInJson = JSON.stringify(root).slice(1, -1);
    for (const file of walkFiles(root)) {
      if (!file.endsWith(".json")) continue;
      const text = readFileSync(file, "utf8");
      if (text.includes(ROOT_PLACEHOLDER)) {
        writeFileSync(file, text.split(ROOT_PLACEHOLDER).join(rootInJson));
      }
    }
    const extras = EXTRAS[name] ?? {};
    for (const repo of extras.gitRoots ?? []) {
      mkdirSync(join(root, repo, ".git", "refs"), { recursive: true });
      writeFileSync(join(root, repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    }
    for (const dir of extras.emptyDirs ?? []) mkdirSync(join(root, dir), { recursive: true });
    makeReachable(root);
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
  return tmp;
}

/** `path` relative to `root`, with `/` separators (what assertions compare). */
export function rel(root: string, path: string): string {
  return relative(root, path);
}

/** Writes a file of `bytes` bytes (default 1 MiB + 1) that is otherwise a valid agent. */
export function makeHugeFile(path: string, bytes = 1024 * 1024 + 1): void {
  const head = "---\nname: huge\ndescription: A valid agent, but too big\n---\n";
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, head + "x".repeat(bytes - head.length));
}

/** Writes a Latin-1 agent file (the `é` is byte 0xE9: not valid UTF-8). */
export function makeNonUtf8File(path: string): void {
  const text = "---\nname: latin1\ndescription: Caf\u00e9 in Latin-1\n---\nBody.\n";
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from(text, "latin1"));
}

/** Two symlinks pointing at each other. */
export function makeSymlinkLoop(a: string, b: string): void {
  symlinkSync(relative(dirname(a), b), a);
  symlinkSync(relative(dirname(b), a), b);
}

/** A symlink whose target does not exist. */
export function makeDanglingSymlink(path: string): void {
  symlinkSync("./does-not-exist.md", path);
}

/** Removes every permission bit: unreadable for anyone but root. */
export function makeUnreadable(path: string): void {
  chmodSync(path, 0o000);
}

/** True when this process runs as root (permission bits do not stop its reads). */
export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * Lets any user read every file and traverse every folder under `root`
 * (symlinks untouched). Call it before {@link makeUnreadable}.
 */
export function makeReachable(root: string): void {
  const info = lstatSync(root);
  if (info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    chmodSync(root, 0o755);
    for (const name of readdirSync(root)) makeReachable(join(root, name));
  } else chmodSync(root, 0o644);
}

/**
 * Runs `dist/xcsh ARGS` through a wrapper command (e.g. `["prlimit",
 * "--nofile=256:256"]`), with the same clean environment as `runXcsh`: PATH,
 * HOME and what `opts.env` gives.
 */
export function runXcshVia(
  wrapper: readonly string[],
  args: string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  const [cmd, ...argv] = [...wrapper, requireBinary(), ...args];
  return runCommand(cmd, argv, { ...opts, env: cleanEnv(opts.home, opts.env) });
}

/** The wrapper that drops root to `nobody` (uid/gid 65534), or none when not root. */
export const UNPRIVILEGED: readonly string[] = isRoot()
  ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
  : [];

/**
 * Runs `dist/xcsh ARGS` as an unprivileged user when the tests run as root,
 * so that permission bits apply; else as this user.
 */
export function runXcshUnprivileged(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runXcshVia(UNPRIVILEGED, args, opts);
}
