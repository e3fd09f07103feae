/**
 * Runs `git` for the worktree code: arguments as a list (never a shell),
 * output as text, and a missing `git` told apart from a failing one.
 *
 * @module
 */
import { execFile } from "node:child_process";
import process from "node:process";

export interface GitOutcome {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** `git` itself could not be started (not installed, not on PATH). */
  missing?: boolean;
}

/** Runs `git ARGS` in `cwd`. */
export function git(cwd: string, args: string[]): Promise<GitOutcome> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        encoding: "utf8",
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
      },
      (err, stdout, stderr) => {
        const code = (err as NodeJS.ErrnoException | null)?.code;
        resolve({
          ok: !err,
          stdout: String(stdout ?? ""),
          stderr: String(stderr ?? "") || (err && !stderr ? err.message : ""),
          ...(code === "ENOENT" ? { missing: true } : {}),
        });
      },
    );
  });
}
