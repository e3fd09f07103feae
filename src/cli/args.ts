/**
 * Reads a subcommand's flags: `--name value`, `--name=value`, booleans,
 * repeatable flags, one-letter aliases and `--` before positionals that start
 * with `-`. Anything else is a {@link UsageError} naming the flag and the
 * command. (Written here rather than with `node:util` `parseArgs`, whose
 * module costs every command about 2 ms of start-up in a compiled binary.)
 *
 * @example
 * ```ts
 * const { values, positionals } = parseFlags("agents", ["--json", "show", "x"], {
 *   json: { type: "boolean" },
 * });
 * // values.json === true, positionals = ["show", "x"]
 * ```
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import { nearestNames } from "../text/nearest-names.ts";

/** One flag: a boolean switch or a string value, maybe repeated, maybe with `-x`. */
export interface FlagOption {
  type: "boolean" | "string";
  multiple?: boolean;
  short?: string;
}

export type FlagSpec = Record<string, FlagOption>;

/** What a spec's flags read as: booleans, strings, or string lists. */
export type FlagValues<T extends FlagSpec> = {
  [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean
    : T[K]["multiple"] extends true ? string[]
    : string;
};

/** An unknown flag's message, with the nearest known flag when one is near. */
function unknownFlag(written: string, options: FlagSpec): string {
  const near = nearestNames(written.replace(/^-+/, ""), Object.keys(options));
  return near.length > 0
    ? `unknown flag '${written}' (did you mean '--${near[0]}'?)`
    : `unknown flag '${written}'`;
}

/** Parses `args` strictly; unknown flags and missing values are usage errors. */
export function parseFlags<T extends FlagSpec>(
  command: string,
  args: readonly string[],
  options: T,
): { values: FlagValues<T>; positionals: string[] } {
  const fail = (message: string): never => {
    throw new UsageError(`${command}: ${message}`, `Run 'xcsh ${command} --help' for usage.`);
  };
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const shorts = new Map<string, string>();
  for (const [name, opt] of Object.entries(options)) {
    if (opt.short) shorts.set(opt.short, name);
  }

  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const written = eq >= 0 ? arg.slice(0, eq) : arg;
    const name = written.startsWith("--") ? written.slice(2) : shorts.get(written.slice(1));
    const opt = name !== undefined && Object.hasOwn(options, name) ? options[name] : undefined;
    if (name === undefined || opt === undefined) fail(unknownFlag(written, options));
    const key = name as string;
    const spec = opt as FlagOption;

    if (spec.type === "boolean") {
      if (eq >= 0) fail(`flag '${written}' does not take a value`);
      values[key] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next === undefined) fail(`flag '${written}' is missing its value`);
      if (next.startsWith("-") && next !== "-") {
        fail(
          `flag '${written}' is missing its value (to give a value starting with '-', write ${written}=VALUE)`,
        );
      }
      value = next;
      i++;
    }
    if (spec.multiple) ((values[key] ??= []) as string[]).push(value);
    else values[key] = value;
  }
  return { values: values as FlagValues<T>, positionals };
}

/** The flags of a listing command (`agents`, `commands`, `skills`): what it lists, how, from where. */
export const LISTING_FLAGS = {
  all: { type: "boolean" },
  json: { type: "boolean" },
  cwd: { type: "string" },
  verbose: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * A listing command's positionals: none (list everything) or `show NAME
 * [ARG…]`; anything else is a {@link UsageError} naming the command.
 *
 * @example
 * ```ts
 * showTarget("skills", "skill", ["show", "pdf"]); // { show: { name: "pdf", rest: [] } }
 * showTarget("skills", "skill", []);              // {}
 * ```
 */
export function showTarget(
  command: string,
  noun: string,
  positionals: readonly string[],
): { show?: { name: string; rest: string[] } } {
  const [sub, name, ...rest] = positionals;
  if (sub === undefined) return {};
  if (sub !== "show") {
    throw new UsageError(
      `${command}: unknown subcommand '${sub}'`,
      `Run 'xcsh ${command} --help' for usage.`,
    );
  }
  if (name === undefined) {
    throw new UsageError(
      `${command} show: expected a ${noun} NAME`,
      `Run 'xcsh ${command} --help' for usage.`,
    );
  }
  return { show: { name, rest } };
}
