/**
 * The `bash` tool: runs a shell command in the working directory.
 *
 * Decides how commands run and end: `bash -c` (or `sh -c` where there is no
 * bash), no stdin, stdout and stderr merged, each command in its own process
 * group so that a timeout, an abort or the end of the command kills
 * everything it started (no orphans); the timeout (default 120 s, at most
 * 600 s) and the output cap (the first 8 KiB and the last 40 KiB are kept).
 * The environment is the child's minus provider API keys.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { toolError, type ToolSpec } from "./types.ts";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;
export const BASH_HEAD_BYTES = 8 * 1024;
export const BASH_TAIL_BYTES = 40 * 1024;

/** Process groups of commands still running (for the child's signal handler). */
const liveGroups = new Set<number>();

/** Kills every command's process group still running. */
export function killAllCommandGroups(): void {
  for (const pid of liveGroups) killGroup(pid);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch { /* already gone */ }
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
  if (text.length <= head + tail) return text;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${text.slice(text.length - tail)}`;
}

function shell(): string {
  for (const p of ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]) {
    if (existsSync(p)) return p;
  }
  return "/bin/sh";
}

export interface BashArgs {
  command: string;
  timeout?: number;
}

export const bashTool: ToolSpec = {
  name: "bash",
  description: "Run a shell command in the working directory and return its exit code and " +
    "combined stdout/stderr. No stdin. Default timeout " + `${BASH_DEFAULT_TIMEOUT_S} s ` +
    `(max ${BASH_MAX_TIMEOUT_S}); the command and everything it started are killed at the timeout.`,
  inputSchema: {
    type: "object",
    properties: {
      command: { type: "string", minLength: 1, description: "The command line." },
      timeout: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: BASH_MAX_TIMEOUT_S,
        description: `Seconds (default ${BASH_DEFAULT_TIMEOUT_S}).`,
      },
    },
    required: ["command"],
    additionalProperties: false,
  },
  run(args: BashArgs, ctx) {
    const timeoutS = Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_S, BASH_MAX_TIMEOUT_S);
    if (ctx.signal.aborted) return Promise.resolve(toolError("cancelled"));
    return new Promise((resolvePromise) => {
      let out = "";
      let timedOut = false;
      let settled = false;
      // `exec 2>&1` first: one stream keeps stdout and stderr lines in order.
      const child = spawn(shell(), ["-c", `exec 2>&1\n${args.command}`], {
        cwd: ctx.cwd,
        env: ctx.env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const pid = child.pid;
      if (pid !== undefined) liveGroups.add(pid);
      const onData = (d: Buffer) => {
        out += d.toString("utf8");
        // Keep memory bounded while the command runs.
        if (out.length > 4 * (BASH_HEAD_BYTES + BASH_TAIL_BYTES)) out = capOutput(out);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      const stop = () => {
        if (pid !== undefined) killGroup(pid);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, timeoutS * 1000);
      const onAbort = () => stop();
      ctx.signal.addEventListener("abort", onAbort, { once: true });

      const finish = (code: number | null, sig: NodeJS.Signals | null, error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
        // The shell is gone; end whatever it left running in its group.
        stop();
        if (pid !== undefined) liveGroups.delete(pid);
        const text = capOutput(out).replace(/\s+$/, "");
        if (error) return resolvePromise(toolError(`could not run the command: ${error.message}`));
        if (ctx.signal.aborted) return resolvePromise(toolError("cancelled"));
        if (timedOut) {
          return resolvePromise({
            ok: false,
            output: `${text}\n[killed: timed out after ${timeoutS} s]`.trimStart(),
            summary: `timed out after ${timeoutS} s`,
          });
        }
        const status = code !== null ? `exit code ${code}` : `killed by ${sig}`;
        resolvePromise({
          ok: code === 0,
          output: text === "" ? `(no output)\n[${status}]` : `${text}\n[${status}]`,
          summary: status,
        });
      };
      child.on("error", (err) => finish(null, null, err));
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
  },
};
