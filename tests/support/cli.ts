/**
 * Runs the built binary the way a user would: real process, real folders.
 *
 * `runXcsh` starts `dist/xcsh` with a clean environment (only what the test
 * passes, plus PATH), an explicit HOME and cwd, optional stdin, and collects
 * exit code, stdout and stderr. Tests must never depend on the developer's own
 * HOME or environment, and never write into `fixtures/` (the definition cache
 * goes to a temporary folder).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The binary under test. */
export const XCSH = join(ROOT, "dist", "xcsh");
/** The fixture trees. */
export const FIXTURES = join(ROOT, "fixtures");

/**
 * The command that runs xcsh from source under the runtime running the tests
 * (for unit tests that start xcsh again, as the sandbox's network bridge).
 */
export function sourceCommand(): string[] {
  const main = join(ROOT, "main.ts");
  return "Deno" in globalThis
    ? [process.execPath, "run", "-A", "--no-check", "--config", join(ROOT, "deno.json"), main]
    : [process.execPath, main];
}

/** {@link sourceCommand} as the sandbox's network bridge starts it, with what it needs visible. */
export function sourceBridge(): { command: string[]; needs: string[] } {
  // Deno rewrites its own path among a child's arguments: its folder instead.
  const runtime = "Deno" in globalThis ? dirname(process.execPath) : process.execPath;
  return { command: sourceCommand(), needs: [runtime, ROOT] };
}

export interface RunOptions {
  cwd?: string;
  home?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Kill the process after this many ms (a safety net; tests assert no times). */
  killAfterMs?: number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Fails clearly when the binary has not been built. */
export function requireBinary(): string {
  if (!existsSync(XCSH)) {
    throw new Error(`${XCSH} does not exist: run 'npm run build' first (npm test does it for you)`);
  }
  return XCSH;
}

/**
 * Runs any command with exactly the environment given, feeds it `stdin`, and
 * resolves when it exits. Never blocks the test process (a model server may
 * live in it).
 */
export function runCommand(
  command: string,
  args: string[],
  opts: { cwd?: string; env: Record<string, string>; stdin?: string; killAfterMs?: number },
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd ?? ROOT,
      env: opts.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.killAfterMs ?? 60_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(opts.stdin ?? "");
  });
}

let testCacheDir: string | undefined;

/**
 * The definition cache folder of this test process: a fresh temporary one, so
 * that runs against `fixtures/` never write into the fixture trees.
 */
export function testCacheDirectory(): string {
  if (testCacheDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-test-cache-"));
    testCacheDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return testCacheDir;
}

/**
 * The clean environment of a test run: PATH, HOME when given, this process's
 * cache folder (unless `extra` says otherwise), `XCSH_NO_BWRAP` when this
 * process has it (a run that hides bubblewrap hides it from the binary too),
 * and `extra`.
 */
export function cleanEnv(
  home: string | undefined,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  if (!("XCSH_CACHE_DIR" in extra) && !("XCSH_CACHE" in extra)) {
    env.XCSH_CACHE_DIR = testCacheDirectory();
  }
  // Sessions and background runs go to a temporary folder too, unless a test
  // points HOME (or XCSH_DATA_DIR) at a world of its own.
  if (!("XCSH_DATA_DIR" in extra) && (home === undefined || home.startsWith(ROOT))) {
    env.XCSH_DATA_DIR = join(testCacheDirectory(), "data");
  }
  if (home !== undefined) env.HOME = home;
  if (process.env.XCSH_NO_BWRAP) env.XCSH_NO_BWRAP = process.env.XCSH_NO_BWRAP;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs `dist/xcsh ARGS` and resolves when it exits. */
export function runXcsh(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runCommand(requireBinary(), args, { ...opts, env: cleanEnv(opts.home, opts.env) });
}

/** Runs and parses stdout as JSON, failing with stderr when it is not JSON. */
export async function runXcshJson<T = unknown>(
  args: string[],
  opts: RunOptions = {},
): Promise<{ result: RunResult; json: T }> {
  const result = await runXcsh(args, opts);
  try {
    return { result, json: JSON.parse(result.stdout) as T };
  } catch {
    throw new Error(
      `xcsh ${
        args.join(" ")
      } did not print JSON (exit ${result.code}).\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
}
