/**
 * The one place that knows which JavaScript runtime is running xcsh.
 *
 * Answers four questions: how this program re-executes itself (a compiled
 * binary runs its own file; `bun run` and `deno run` need the runtime, its
 * flags and the entry script), how a child with three pipes is started
 * (`Bun.spawn` on Bun: `node:child_process` builds a stream stack that costs
 * a short `xcsh run` about 8 ms; `node:child_process` elsewhere), what to call
 * this build in `--version`, how to tell this build from another, and where
 * a worker's entry module is (inside a compiled binary, the build's own copy).
 * Every process started here gets its environment without the variables
 * that steer a runtime (`process/runtime-variables.ts`).
 * Everything else in `src/` is runtime-neutral `node:` code.
 *
 * @module
 */
import process from "node:process";
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { withoutRuntimeVariables } from "./process/runtime-variables.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;

/** Set by `bun build --define` for release binaries. */
declare const XCSH_TARGET: string | undefined;

export type RuntimeName = "bun" | "deno" | "node";

/** The runtime executing this process. */
export function runtimeName(): RuntimeName {
  if (g.Bun !== undefined) return "bun";
  if (g.Deno !== undefined) return "deno";
  return "node";
}

/** True inside a `bun build --compile` binary. */
export function isCompiled(): boolean {
  if (g.Bun === undefined) return false;
  const main: string = g.Bun.main ?? "";
  return main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(main);
}

/**
 * A compiled binary starts with a reluctant JIT (`--compile-jit-policy`,
 * scripts/build-flags.ts); a process still running after `afterMs` gets the
 * normal policy back, so that a long task, a fan-out or a server compiles
 * its hot code as usual. Elsewhere (Deno, `bun run`) the policy is already
 * the normal one and nothing is done.
 */
export function normalJitAfter(afterMs: number): void {
  const set = g.Bun?.unsafe?.setJITPolicy;
  if (typeof set !== "function" || !isCompiled()) return;
  // Bun's timers have unref (Deno's typings say a number): it must not keep the process.
  const timer: { unref?: () => void } = setTimeout(() => set(1), afterMs) as never;
  timer.unref?.();
}

/** How to start another copy of this program: executable plus leading args. */
export interface SelfCommand {
  command: string;
  args: string[];
  /**
   * What must be visible for it to start: the executable, and from source
   * the folder of the entry script (its modules and dependencies beside it).
   */
  needs: string[];
}

/** The entry script, for runs from source. */
function entryScript(): string {
  // import.meta.dirname (Bun, Deno, Node 20.11+) spares loading node:url.
  return join(import.meta.dirname ?? ".", "..", "main.ts");
}

/**
 * The command that re-executes xcsh. Append the subcommand and its arguments
 * to `args`.
 */
export function selfCommand(): SelfCommand {
  const runtime = runtimeName();
  if (runtime === "bun") {
    if (isCompiled()) return { command: process.execPath, args: [], needs: [process.execPath] };
    // From source, the re-executed Bun reads no .env and no bunfig.toml of
    // the child's working folder (the repository); the binary is built so.
    const folderFree = [
      "--no-env-file",
      ...(process.platform === "win32" ? [] : ["--config=/dev/null"]),
    ];
    const entry: string = g.Bun.main ?? entryScript();
    return {
      command: process.execPath,
      args: [...folderFree, entry],
      needs: [process.execPath, dirname(entryScript())],
    };
  }
  if (runtime === "deno") {
    // Deno reads no .env unasked, and its config is named here.
    const entry = entryScript();
    const config = join(dirname(entry), "deno.json");
    return {
      command: g.Deno.execPath(),
      args: ["run", "-A", "--no-check", "--config", config, entry],
      // Deno's child_process reads its own path among the arguments as a
      // node command and rewrites it: its folder is named instead.
      needs: [dirname(g.Deno.execPath()), dirname(entry)],
    };
  }
  return {
    command: process.execPath,
    args: [entryScript()],
    needs: [process.execPath, dirname(entryScript())],
  };
}

/** A short name for this build: the compile target, or the runtime and platform. */
export function buildTarget(): string {
  if (typeof XCSH_TARGET === "string" && XCSH_TARGET !== "") return XCSH_TARGET;
  const runtime = runtimeName();
  return `${runtime}${isCompiled() ? "" : " (source)"} ${process.platform}-${process.arch}`;
}

/**
 * Tells builds apart, for data one build stores for itself (the definition
 * cache): a compiled binary by its size and modification time, a run from
 * source as "source".
 */
export function buildIdentity(): string {
  if (!isCompiled()) return "source";
  try {
    const s = statSync(process.execPath);
    return `${s.size}-${Math.trunc(s.mtimeMs)}`;
  } catch {
    return "compiled";
  }
}

/** A started child whose stdin, stdout and stderr are pipes. */
export interface PipedProcess {
  pid: number | undefined;
  /** Writes to the child's stdin; a child that is gone is not an error. */
  write(text: string): void;
  /** Closes the child's stdin. */
  end(): void;
}

export interface PipedSpawn {
  command: string;
  args: string[];
  cwd: string;
  /**
   * The child's environment; variables set to `undefined` are left out, and
   * so are those that steer a runtime.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** In its own process group (POSIX), so that its whole tree can be signalled. */
  detached: boolean;
  onStdout(text: string): void;
  onStderr(text: string): void;
  /** Once, after the process ended and both output pipes were read to their end. */
  onClose(code: number | null, signal: string | null): void;
  /** Instead of `onClose` when the process could not be started. */
  onError(err: Error): void;
}

/**
 * Starts `command` with three pipes. Output arrives as UTF-8 text, split
 * anywhere (a character is never split); `onClose` comes last, as Node's
 * `close` event does.
 */
export async function spawnPiped(o: PipedSpawn): Promise<PipedProcess> {
  if (g.Bun !== undefined) return bunSpawnPiped(o);
  const { spawn } = await import("node:child_process");
  const child = spawn(o.command, o.args, {
    cwd: o.cwd,
    env: withoutRuntimeVariables(o.env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: o.detached,
  });
  child.stdout.setEncoding("utf8").on("data", o.onStdout);
  child.stderr.setEncoding("utf8").on("data", o.onStderr);
  child.stdin.on("error", () => {});
  let failed = false;
  child.on("error", (err) => {
    failed = true;
    o.onError(err);
  });
  child.on("close", (code, signal) => {
    if (!failed) o.onClose(code, signal);
  });
  return {
    pid: child.pid,
    write: (text) => void child.stdin.write(text),
    end: () => void child.stdin.end(),
  };
}

// deno-lint-ignore no-explicit-any
async function drain(stream: any, into: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    if (text) into(text);
  }
  const rest = decoder.decode();
  if (rest) into(rest);
}

function bunSpawnPiped(o: PipedSpawn): PipedProcess {
  // deno-lint-ignore no-explicit-any
  let proc: any;
  try {
    proc = g.Bun.spawn([o.command, ...o.args], {
      cwd: o.cwd,
      env: withoutRuntimeVariables(o.env),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: o.detached,
    });
  } catch (err) {
    queueMicrotask(() => o.onError(err instanceof Error ? err : new Error(String(err))));
    return { pid: undefined, write: () => {}, end: () => {} };
  }
  const ignore = () => {};
  Promise.all([
    drain(proc.stdout, o.onStdout).catch(ignore),
    drain(proc.stderr, o.onStderr).catch(ignore),
    proc.exited,
  ]).then(
    () => o.onClose(proc.exitCode ?? null, proc.signalCode ?? null),
    (err: unknown) => o.onError(err instanceof Error ? err : new Error(String(err))),
  );
  let open = true;
  return {
    pid: proc.pid,
    write: (text) => {
      if (!open) return;
      try {
        // A child that is already gone (it failed to start its program, a
        // launcher that ended at once) answers EPIPE, synchronously or as a
        // rejected promise: neither may reach the caller.
        const written = proc.stdin.write(text);
        if (written instanceof Promise) written.catch(() => (open = false));
        const flushed = proc.stdin.flush();
        if (flushed instanceof Promise) flushed.catch(() => (open = false));
      } catch {
        open = false; // the child is gone
      }
    },
    end: () => {
      if (!open) return;
      open = false;
      try {
        const ended = proc.stdin.end();
        if (ended instanceof Promise) ended.catch(ignore);
      } catch {
        // already closed
      }
    },
  };
}

/** A process started on its own: new session, no terminal, output to files. */
export interface DetachedSpawn {
  command: string;
  args: string[];
  cwd: string;
  /**
   * The child's environment; variables set to `undefined` are left out, and
   * so are those that steer a runtime.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** Files (opened for appending) that receive its stdout and stderr. */
  stdoutFile: string;
  stderrFile: string;
}

/**
 * Starts `command` detached (POSIX: `setsid`, so closing the terminal does
 * not reach it), stdin from nothing and output to files, without waiting for
 * it; returns its pid.
 */
export async function spawnDetached(o: DetachedSpawn): Promise<number> {
  const { openSync, closeSync } = await import("node:fs");
  const out = openSync(o.stdoutFile, "a", 0o600);
  const err = openSync(o.stderrFile, "a", 0o600);
  try {
    if (g.Bun !== undefined) {
      const proc = g.Bun.spawn([o.command, ...o.args], {
        cwd: o.cwd,
        env: withoutRuntimeVariables(o.env),
        stdio: ["ignore", out, err],
        detached: true,
      });
      proc.unref();
      return proc.pid;
    }
    const { spawn } = await import("node:child_process");
    const child = spawn(o.command, o.args, {
      cwd: o.cwd,
      env: withoutRuntimeVariables(o.env),
      stdio: ["ignore", out, err],
      detached: true,
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once("spawn", () => resolve(child.pid ?? 0));
      child.once("error", reject);
    });
    child.unref();
    return pid;
  } finally {
    closeSync(out);
    closeSync(err);
  }
}

/**
 * The module a `Worker` starts: `url` (the source file, next to its caller)
 * when running from source; in a compiled binary, the copy the build put at
 * `fromRoot` (the source path from the repository root, as a `.js` file),
 * which scripts/build.ts bundles as an extra entry point.
 */
export function workerModule(url: URL, fromRoot: string): string {
  if (!isCompiled()) return url.href;
  const main: string = g.Bun.main;
  const root = main.slice(0, main.lastIndexOf("/") + 1);
  return root + fromRoot.replace(/\.ts$/, ".js");
}

/**
 * SHA-256 of `data` (a string is hashed as UTF-8), as hex. Bun's own hasher
 * where there is one: loading `node:crypto` costs every process that hashes
 * a few milliseconds. Elsewhere `node:crypto`, loaded on first use.
 *
 * @example
 * ```ts
 * sha256Hex("abc"); // "ba7816bf…"
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  if (g.Bun?.CryptoHasher) return new g.Bun.CryptoHasher("sha256").update(data).digest("hex");
  const { createHash } = createRequire(import.meta.url)("node:crypto");
  return createHash("sha256").update(data).digest("hex");
}
