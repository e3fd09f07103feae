/**
 * The `bash` tool: runs a shell command in the working directory.
 *
 * Decides how commands run and end: `bash -c` (or `sh -c` where there is no
 * bash), no stdin, stdout and stderr merged, each command in its own process
 * group, inside the task's bubblewrap sandbox when it has one (see
 * `src/sandbox/bwrap-args.ts`); a timeout or an abort kills the command's
 * whole process tree (every descendant and every group it leads, so `setsid`
 * does not escape), and the end of the command kills whatever it left
 * running: its group, and every process carrying its mark
 * (`XCSH_COMMAND_MARK` in the environment), so a double fork
 * (`(setsid cmd &)`) that left the tree ends too; the timeout (default
 * 120 s, at most 600 s) and the output cap (the first 8 KiB and the last
 * 40 KiB are kept, with a count of the characters cut in between).
 * The environment is the one `src/sandbox/command-env.ts` decides (the
 * child passes it in the context).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { withoutRuntimeVariables } from "../process/runtime-variables.ts";
import { lanePrefix } from "../fs/write-lane.ts";
import { stillThere } from "../fs/confined-folder.ts";
import {
  bwrapArgs,
  type BwrapPlan,
  PROXY_DIR_INSIDE,
  PROXY_SOCKET_NAME,
} from "../sandbox/bwrap-args.ts";
import { sharesHostNetwork, usesProxy } from "../sandbox/net-policy.ts";
import type { NetProxy } from "../sandbox/net-proxy.ts";
import { selfCommand } from "../runtime.ts";
import { hostHiding } from "../sandbox/host-sockets.ts";
import { type ToolContext, toolError, type ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";
import { COMMAND_MARK } from "../protocol/variables.ts";
import { commandMarkPrefix, endCommand, liveCommands } from "./command-groups.ts";

export { commandMarkPrefix, killAllCommandGroups } from "./command-groups.ts";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;
export const BASH_HEAD_BYTES = 8 * 1024;
export const BASH_TAIL_BYTES = 40 * 1024;
/** The longest output kept whole for the task's artifacts (longer: head and tail only). */
export const BASH_KEEP_ALL_CHARS = 16 * 1024 * 1024;

/** The variable that marks every process a command starts. */

let commandCount = 0;

/** How a command starts: program, arguments, and the task's network proxy if it uses one. */
interface CommandLine {
  program: string;
  args: string[];
  proxy?: NetProxy;
}

/**
 * What a sandboxed command of a task with a write lane may write: the
 * literal prefix of each glob (`src/api/**` → `src/api`; `**\/*.test.ts` →
 * the whole project), taken again before each command, where it exists now
 * and is reached through no symlink (its real path is itself): a folder a
 * symlink stands in for is not bound, so nothing outside the lane's own
 * folders becomes writable. Bubblewrap binds paths, not patterns: within a
 * prefix, a command writes any file, the glob's rest is kept by the file
 * tools alone.
 */
function laneBinds(lane: { root: string; globs: readonly string[] }): string[] {
  const out: string[] = [];
  for (const prefix of new Set(lane.globs.map(lanePrefix))) {
    const path = prefix === "" ? lane.root : join(lane.root, prefix);
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      continue; // not there (yet): nothing to bind
    }
    if (real === path && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * The program and arguments that run `script`: in the sandbox when there is
 * one; with the network through the proxy (started on first need), behind
 * the bridge (`xcsh __netbridge`, see `src/sandbox/net-bridge.ts`); or why
 * it does not run. The sandbox's folders are checked again first
 * (`ctx.folders`): a folder a command swapped for a symlink, or moved away,
 * since the task started is never bound.
 */
async function commandLine(script: string, ctx: CommandContext): Promise<CommandLine | string> {
  const sh = [shell(), "-c", script];
  const sb = ctx.sandbox;
  if (!sb) return { program: sh[0], args: sh.slice(1) };
  const folders = ctx.folders;
  if (folders) {
    const rule = { kind: "the sandbox's", where: "the place they were at the start" };
    for (const f of [...folders.writable, ...folders.readOnly]) {
      const again = stillThere(f, rule);
      if (!again.ok) return `the sandbox is not started: ${again.error}`;
    }
  }
  const plan: BwrapPlan = {
    mode: sb.mode,
    network: sharesHostNetwork(sb),
    roots: folders ? folders.writable.map((f) => f.path) : ctx.roots ?? [ctx.cwd],
    // The skill folders, then the files that must stay as they are; a file
    // removed since the task started has nothing left to protect (and bwrap
    // refuses to bind a path that does not exist).
    readOnly: [
      ...(folders?.readOnly.map((f) => f.path) ?? []),
      ...(sb.readOnly ?? []).filter((f) => existsSync(f)),
    ],
    ...(ctx.lane ? { writable: laneBinds(ctx.lane) } : {}),
    tmp: sb.tmp,
    cwd: ctx.cwd,
    hide: hostHiding(),
  };
  if (!usesProxy(sb)) return { program: sb.bwrap, args: bwrapArgs(plan, sh) };
  // The proxy (and node:net with it) loads only for a command that needs it.
  const { taskProxy } = await import("../sandbox/net-proxy.ts");
  const proxy = await taskProxy(sb.tmp, sb.reach ?? {});
  const me = sb.bridge ?? (({ command, args, needs }) => ({ command: [command, ...args], needs }))(
    selfCommand(),
  );
  const self = me.command;
  plan.proxy = { dir: dirname(proxy.socket), needs: me.needs };
  const socket = `${PROXY_DIR_INSIDE}/${PROXY_SOCKET_NAME}`;
  const bridged = [...self, "__netbridge", socket, "--", ...sh];
  return { program: sb.bwrap, args: bwrapArgs(plan, bridged), proxy };
}

/**
 * Collects a command's output as it streams in, in bounded memory: the first
 * `head` characters, the last `tail` characters and a running count of the
 * characters dropped in between.
 */
export class OutputCollector {
  readonly head: number;
  readonly tail: number;
  #head = "";
  #tail = "";
  #cut = 0;
  /** Every chunk, while the whole stays within `keepAll` characters (0: none kept). */
  #all: string[] | undefined;
  #allLength = 0;
  readonly keepAll: number;
  constructor(head = BASH_HEAD_BYTES, tail = BASH_TAIL_BYTES, keepAll = 0) {
    this.head = head;
    this.tail = tail;
    this.keepAll = keepAll;
    if (keepAll > 0) this.#all = [];
  }

  push(chunk: string): void {
    if (this.#all) {
      this.#allLength += chunk.length;
      if (this.#allLength <= this.keepAll) this.#all.push(chunk);
      else this.#all = undefined;
    }
    if (this.#head.length < this.head) {
      const room = this.head - this.#head.length;
      this.#head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    this.#tail += chunk;
    // Trim only now and then, so that a long run of small chunks stays linear.
    if (this.#tail.length > 4 * this.tail) this.#trim();
  }

  #trim(): void {
    if (this.#tail.length <= this.tail) return;
    this.#cut += this.#tail.length - this.tail;
    this.#tail = this.#tail.slice(this.#tail.length - this.tail);
  }

  /**
   * The whole output when it was cut and stayed within `keepAll`
   * characters; else undefined (nothing cut, or too long to keep).
   */
  whole(): string | undefined {
    this.#trim();
    return this.#cut > 0 && this.#all ? this.#all.join("") : undefined;
  }

  /** The head, a note of how many characters were cut (if any), and the tail. */
  text(): string {
    this.#trim();
    if (this.#cut === 0) return this.#head + this.#tail;
    return `${this.#head}\n[… ${this.#cut} characters cut …]\n${this.#tail}`;
  }
}

/**
 * Keeps the head and tail of a long output and says how much was cut. Pure.
 *
 * @example
 * ```ts
 * capOutput("x".repeat(100), 10, 10); // "xxxxxxxxxx\n[… 80 characters cut …]\nxxxxxxxxxx"
 * ```
 */
export function capOutput(text: string, head = BASH_HEAD_BYTES, tail = BASH_TAIL_BYTES): string {
  const c = new OutputCollector(head, tail);
  c.push(text);
  return c.text();
}

/** A command's output, trailing space trimmed, then what the network proxy refused. */
function lines(stdout: string, refusals: readonly string[]): string {
  return [stdout.replace(/\s+$/, ""), ...refusals.map((l) => `[${l}]`)]
    .filter((l) => l !== "").join("\n");
}

function shell(): string {
  for (const p of ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]) {
    if (existsSync(p)) return p;
  }
  return "/bin/sh";
}

/** What {@link spawnCommand} needs of a tool context (the parent's acceptance checks make one). */
export type CommandContext = Pick<
  ToolContext,
  "cwd" | "roots" | "sandbox" | "signal" | "env" | "folders" | "lane"
>;

/** How a command run by {@link spawnCommand} ended. */
export interface CommandOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Its stdout (and stderr, when the script merges them), head and tail kept. */
  stdout: string;
  /** With `keepAll`: the whole stdout when `stdout` is a cut of it. */
  stdoutWhole?: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the command could not be started. */
  error?: Error;
  /** What the network proxy refused while it ran (one line each). */
  netRefusals: string[];
}

/**
 * Runs `script` with the shell, as `bash` runs commands (in the task's
 * sandbox when there is one, in its own process group, the whole tree
 * ended at the timeout, on abort and when it exits); `stdin` is written to
 * it (none: no stdin); `merge` keeps stderr in `stdout`, in arrival order.
 * Output is kept in bounded memory. The `bash` tool, hooks and the parent's
 * acceptance checks share it.
 */
export async function spawnCommand(
  script: string,
  ctx: CommandContext,
  opts: {
    timeoutMs: number;
    stdin?: string;
    env?: Record<string, string>;
    merge?: boolean;
    /** Keep the whole stdout up to this many characters besides its head and tail. */
    keepAll?: number;
  },
): Promise<CommandOutcome> {
  let line: CommandLine | string;
  try {
    line = await commandLine(script, ctx);
  } catch (err) {
    line = `the sandbox's network proxy cannot start: ${(err as Error).message}`;
  }
  if (typeof line === "string") {
    const error = new Error(line);
    return {
      code: null,
      signal: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      error,
      netRefusals: [],
    };
  }
  const { program, args: argv, proxy } = line;
  proxy?.takeRefusals();
  return new Promise((resolvePromise) => {
    const out = new OutputCollector(BASH_HEAD_BYTES, BASH_TAIL_BYTES, opts.keepAll ?? 0);
    const err = opts.merge ? out : new OutputCollector();
    let timedOut = false;
    let settled = false;
    const mark = `${commandMarkPrefix()}${++commandCount}-${Math.random().toString(36).slice(2)}`;
    const child = spawn(program, argv, {
      cwd: ctx.cwd,
      env: withoutRuntimeVariables({ ...ctx.env, ...opts.env, [COMMAND_MARK]: mark }),
      detached: true,
      stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const pid = child.pid;
    if (pid !== undefined) liveCommands.set(pid, mark);
    if (opts.stdin !== undefined && child.stdin) {
      // A command that does not read its stdin must not fail the run.
      child.stdin.on("error", () => {});
      child.stdin.end(opts.stdin);
    }
    // Decoded per stream, so a character split across two chunks stays whole.
    child.stdout?.setEncoding("utf8").on("data", (d: string) => out.push(d));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => err.push(d));
    // The shell, everything it started (setsid and double forks included).
    const stop = () => endCommand(pid, mark);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    const onAbort = () => stop();
    ctx.signal.addEventListener("abort", onAbort, { once: true });

    const finish = (code: number | null, sig: NodeJS.Signals | null, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      // The shell is gone; end whatever it left running (its orphans now
      // belong to init: they are found by their mark).
      stop();
      if (pid !== undefined) liveCommands.delete(pid);
      resolvePromise({
        code,
        signal: sig,
        stdout: out.text(),
        ...(out.whole() !== undefined ? { stdoutWhole: out.whole() } : {}),
        stderr: opts.merge ? "" : err.text(),
        timedOut,
        ...(error ? { error } : {}),
        netRefusals: proxy?.takeRefusals() ?? [],
      });
    };
    child.on("error", (e) => finish(null, null, e));
    child.on("exit", (code, sig) => {
      // Give the pipes a moment to deliver the last bytes, then finish even if
      // a background process still holds them open.
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        finish(code, sig);
      };
      child.on("close", end);
      setTimeout(end, 200);
    });
  });
}

export interface BashArgs {
  command: string;
  timeout?: number;
}

export const bashTool: ToolSpec = {
  name: "bash",
  description: "Run a shell command in the working directory; returns its exit code and " +
    "combined stdout/stderr. No stdin. The command and all it started are killed when it " +
    "ends or times out (nothing keeps running in the background). A sandbox may leave only " +
    "the project folder and /tmp writable. Secret-looking variables (tokens, keys, " +
    "passwords, URLs with credentials) and agent or display sockets are withheld.",
  readOnly: TOOL_READ_ONLY.bash,
  inputSchema: {
    type: "object",
    properties: {
      command: { type: "string", minLength: 1, description: "The command line." },
      timeout: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: BASH_MAX_TIMEOUT_S,
        description: `Seconds (default ${BASH_DEFAULT_TIMEOUT_S}, at most ${BASH_MAX_TIMEOUT_S}).`,
      },
    },
    required: ["command"],
    additionalProperties: false,
  },
  async run(args: BashArgs, ctx) {
    const timeoutS = Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_S, BASH_MAX_TIMEOUT_S);
    if (ctx.signal.aborted) return toolError("cancelled");
    // `exec 2>&1` first: one stream keeps stdout and stderr lines in order.
    const r = await spawnCommand(`exec 2>&1\n${args.command}`, ctx, {
      timeoutMs: timeoutS * 1000,
      merge: true,
      keepAll: BASH_KEEP_ALL_CHARS,
    });
    const text = lines(r.stdout, r.netRefusals);
    if (r.error) return toolError(`could not run the command: ${r.error.message}`);
    if (ctx.signal.aborted) return toolError("cancelled");
    if (r.timedOut) {
      return {
        ok: false,
        output: `${text}\n[killed: timed out after ${timeoutS} s]`.trimStart(),
        summary: `timed out after ${timeoutS} s`,
      };
    }
    const status = r.code !== null ? `exit code ${r.code}` : `killed by ${r.signal}`;
    return {
      ok: r.code === 0,
      output: text === "" ? `(no output)\n[${status}]` : `${text}\n[${status}]`,
      summary: status,
      // The whole output, for the task's artifacts (`child/spill.ts`).
      ...(r.stdoutWhole !== undefined
        ? { full: `${lines(r.stdoutWhole, r.netRefusals)}\n[${status}]` }
        : {}),
    };
  },
};
