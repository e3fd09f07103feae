/**
 * What a `!command` value of the user's own remote agent file gives: the
 * command's standard output, trimmed, run by `/bin/sh -c` in the user's
 * home folder with the user's environment, within
 * {@link SECRET_COMMAND_TIMEOUT_MS} and {@link SECRET_COMMAND_MAX_BYTES}.
 * Only the user's own files get here: a repository's `!command` is refused
 * before (`a2a/auth-headers.ts`). A command that fails, prints nothing or
 * runs too long is one line naming it (never its output: that would be the
 * secret).
 *
 * @module
 */
import { spawnSync } from "node:child_process";

/** How long a `!command` may run. */
export const SECRET_COMMAND_TIMEOUT_MS = 10_000;
/** The most output a `!command` may print. */
export const SECRET_COMMAND_MAX_BYTES = 64 * 1024;

/** Runs `command` and returns what it printed, or why it gave nothing. */
export function runSecretCommand(
  command: string,
  o: { env: Record<string, string | undefined>; home: string },
): { ok: true; value: string } | { ok: false; error: string } {
  const r = spawnSync("/bin/sh", ["-c", command], {
    cwd: o.home,
    env: Object.fromEntries(
      Object.entries(o.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    encoding: "utf8",
    timeout: SECRET_COMMAND_TIMEOUT_MS,
    maxBuffer: SECRET_COMMAND_MAX_BYTES,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const what = `'!${command}'`;
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      error: code === "ETIMEDOUT"
        ? `${what} ran past ${SECRET_COMMAND_TIMEOUT_MS / 1000} s`
        : `${what} could not run (${code ?? r.error.message})`,
    };
  }
  if (r.status !== 0) {
    return {
      ok: false,
      error: `${what} failed (${r.signal ? `signal ${r.signal}` : `exit ${r.status}`})`,
    };
  }
  const value = (r.stdout ?? "").trim();
  if (value === "") return { ok: false, error: `${what} printed nothing` };
  return { ok: true, value };
}
