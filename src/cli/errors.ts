/**
 * Errors the CLI turns into one line on stderr and an exit code, never a
 * stack trace. A {@link UsageError} is the user's to fix (exit 2, with a hint);
 * anything else that escapes a command is reported as an internal error.
 *
 * @module
 */

/** Exit codes: every task succeeded / a task failed / usage or guard error. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A mistake in how xcsh was called: bad flag, missing argument, bad value. */
export class UsageError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = "UsageError";
  }
}
