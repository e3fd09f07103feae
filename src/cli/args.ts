/**
 * Reads a subcommand's flags with `node:util` `parseArgs`, turning its
 * exceptions into {@link UsageError}s that name the flag and the command.
 *
 * @example
 * ```ts
 * const { values, positionals } = parseFlags("agents", ["--json"], { json: { type: "boolean" } });
 * ```
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.ts";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

/** Parses `args` strictly; unknown flags and missing values are usage errors. */
export function parseFlags<T extends FlagSpec>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const full = (err as Error).message;
    const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(full);
    if (ambiguous) {
      const flag = ambiguous[1].split(" ")[0];
      throw new UsageError(
        `${command}: flag '${flag}' is missing its value (to give a value starting with '-', write ${flag}=VALUE)`,
        `Run 'xcsh ${command} --help' for usage.`,
      );
    }
    const message = full.split("\n")[0]
      .replace(/\. To specify a positional argument.*$/, "")
      .replace(/^Unknown option/, "unknown flag")
      .replace(/^Option/, "flag");
    throw new UsageError(`${command}: ${message}`, `Run 'xcsh ${command} --help' for usage.`);
  }
}
