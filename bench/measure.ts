/**
 * How a measurement is taken: processes timed synchronously or not, in-process
 * runs alternated with their baseline, generated trees written and settled in
 * the run's scratch folder, and the binaries compared (dist/xcsh and an empty
 * one built with the same flags).
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { generateTree, type Tree, type TreeSpec } from "./generate.ts";
import { log } from "./report.ts";
import { SETTLE_MS } from "../src/discovery/file-signature.ts";
import { COMPILE_FLAGS } from "../scripts/build-flags.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const XCSH = join(ROOT, "dist", "xcsh");
export const BUN = process.execPath;
export const SEED = 7;

/** A clean environment: only PATH and what the caller passes. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

/** Wall time of one synchronous run, in ms; throws on a non-zero exit. */
export function timedSync(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: Record<string, string> },
) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr?.toString().slice(-2000)}`,
    );
  }
  return { ms, stdout: r.stdout.toString() };
}

export interface AsyncRun {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * Wall time of one run that must not block this process (the model server
 * lives here). `onStart` gets the pid, for RSS sampling.
 */
export function timedAsync(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: Record<string, string>; onStart?: (pid: number) => void },
): Promise<AsyncRun> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000, // a hung run fails the bench instead of stalling it
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    if (child.pid !== undefined) opts.onStart?.(child.pid);
    child.on(
      "close",
      (code) => done({ ms: performance.now() - t0, code, stdout, stderr, pid: child.pid ?? -1 }),
    );
  });
}

let scratch = "";

/** Sets the run's scratch folder, under which every tree and file is written. */
export function setScratch(dir: string): void {
  scratch = dir;
}

/** The run's scratch folder. */
export function scratchDir(): string {
  return scratch;
}

/** A folder `name` in the scratch folder, created. */
export function tmp(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A home with `config` as its xcsh config and an empty working folder, in
 * scratch folder `name`, and the environment of a run whose Anthropic
 * provider is the model server at `serverUrl`.
 */
export function anthropicWorld(
  name: string,
  serverUrl: string,
  config = "{}\n",
): { cwd: string; env: Record<string, string> } {
  const base = tmp(name);
  const home = join(base, "home");
  const cwd = join(base, "work");
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, ".xcsh", "agent", "config.yml"), config);
  const env = cleanEnv({
    HOME: home,
    ANTHROPIC_BASE_URL: `${serverUrl}/v1`,
    ANTHROPIC_API_KEY: "bench-key-not-secret",
  });
  return { cwd, env };
}

/**
 * Writes a generated tree, then waits until its files are settled: agent
 * files are not written a second before they are used, and the definition
 * cache does not trust a file changed within the last SETTLE_MS.
 */
export async function makeTree(name: string, spec: TreeSpec): Promise<Tree> {
  const t0 = performance.now();
  const tree = generateTree(tmp(name), spec);
  log(`${name}: ${tree.fileCount} files written in ${(performance.now() - t0).toFixed(0)} ms`);
  writeFileSync(join(scratch, `${name}.json`), JSON.stringify(tree));
  await new Promise((r) => setTimeout(r, SETTLE_MS + 100));
  return tree;
}

export function discoveryEnv(tree: Tree) {
  return { cwd: tree.cwd, home: tree.home, env: tree.env };
}

/** Medians of `runs` alternating in-process runs of `a` and `b` (after `warm` each). */
export async function alternate(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warm: number,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < warm; i++) {
    await a();
    await b();
  }
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < runs; i++) {
    for (const [fn, into] of [[a, out.a], [b, out.b]] as const) {
      const t0 = performance.now();
      await fn();
      into.push(performance.now() - t0);
    }
  }
  return out;
}

/** Compiles `bench/<source>` with dist/xcsh's flags (scripts/build-flags.ts) into the scratch folder. */
export function buildBenchBinary(source: string, name: string): string {
  const out = join(tmp(name), name);
  const r = spawnSync(BUN, [
    "build",
    ...COMPILE_FLAGS,
    join(ROOT, "bench", source),
    "--outfile",
    out,
  ], { stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`building ${name} failed: ${r.stderr.toString()}`);
  return out;
}

export function buildEmptyBinary(): string {
  return buildBenchBinary("empty.ts", "empty");
}

export function requireXcsh(): void {
  if (!existsSync(XCSH)) {
    throw new Error(`${XCSH} is missing: run 'npm run build' (npm run bench does)`);
  }
}
