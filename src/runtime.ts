/**
 * The one place that knows which JavaScript runtime is running xcsh.
 *
 * Answers three questions: how this program re-executes itself (a compiled
 * binary runs its own file; `bun run` and `deno run` need the runtime, its
 * flags and the entry script), what to call this build in `--version`, and
 * how to tell this build from another.
 * Everything else in `src/` is runtime-neutral `node:` code.
 *
 * @module
 */
import process from "node:process";
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

/** How to start another copy of this program: executable plus leading args. */
export interface SelfCommand {
  command: string;
  args: string[];
}

/** The entry script, for runs from source. */
function entryScript(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "main.ts");
}

/**
 * The command that re-executes xcsh. Append the subcommand and its arguments
 * to `args`.
 */
export function selfCommand(): SelfCommand {
  const runtime = runtimeName();
  if (runtime === "bun") {
    if (isCompiled()) return { command: process.execPath, args: [] };
    return { command: process.execPath, args: [g.Bun.main ?? entryScript()] };
  }
  if (runtime === "deno") {
    const entry = entryScript();
    const config = join(dirname(entry), "deno.json");
    return {
      command: g.Deno.execPath(),
      args: ["run", "-A", "--no-check", "--config", config, entry],
    };
  }
  return { command: process.execPath, args: [entryScript()] };
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
