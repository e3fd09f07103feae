/**
 * The command-line dispatcher: picks the subcommand, loads only the module it
 * needs, and turns every error into one line on stderr plus an exit code.
 *
 * @module
 */
import process from "node:process";
import { writeErr, writeOut } from "../text/stdio.ts";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./errors.ts";
import { MAIN_HELP } from "./help.ts";
import { buildTarget, normalJitAfter } from "../runtime.ts";
import pkg from "../../package.json" with { type: "json" };

type Command = (args: string[]) => Promise<number>;

/** Subcommands, each loaded on first use so start-up stays small. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  agents: async () => (await import("./agents.ts")).agentsCommand,
  // Hidden: the child side of the parent–child protocol.
  __child: async () => {
    const [{ childCommand }, { taskRunnerFor }] = await Promise.all([
      import("../child/command.ts"),
      import("../runner/child-delegation.ts"),
    ]);
    return (args) => childCommand(args, taskRunnerFor);
  },
  // Hidden: runs a sandboxed command with the network through the proxy.
  __netbridge: async () => (await import("../sandbox/net-bridge.ts")).netBridgeCommand,
  commands: async () => (await import("./commands.ts")).commandsCommand,
  doctor: async () => (await import("./doctor.ts")).doctorCommand,
  skills: async () => (await import("./skill-list.ts")).skillsCommand,
  mcp: async () => (await import("./mcp.ts")).mcpCommand,
  a2a: async () => (await import("./a2a.ts")).a2aCommand,
  trust: async () => (await import("./trust.ts")).trustCommand,
  run: async () => (await import("./run-entry.ts")).runEntry,
  tasks: async () => (await import("./tasks.ts")).tasksCommand,
  wait: async () => (await import("./wait.ts")).waitCommand,
  cancel: async () => (await import("./cancel.ts")).cancelCommand,
  logs: async () => (await import("./logs.ts")).logsCommand,
  worktrees: async () => (await import("./worktrees.ts")).worktreesCommand,
};

/** True when `-p` / `--print` is among the flags (before any `--`): Claude Code's headless mode. */
function wantsPrint(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "-p" || a === "--print") return true;
  }
  return false;
}

/** How long a process runs with the start's reluctant JIT (src/runtime.ts). */
const JIT_NORMAL_AFTER_MS = 1000;

/** The flags xcsh takes before a command. */
const TOP_FLAGS = ["--help", "--version", "--print"];

/** Runs xcsh with `argv` (without the executable) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  // The start runs with a reluctant JIT; a process that stays gets the normal one.
  normalJitAfter(JIT_NORMAL_AFTER_MS);
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === "--help" || first === "-h" || first === "help") {
      if (first === undefined) {
        writeErr(MAIN_HELP);
        return EXIT_USAGE;
      }
      writeOut(MAIN_HELP);
      return EXIT_OK;
    }
    if (first === "--version" || first === "-V" || first === "version") {
      writeOut(`xcsh ${pkg.version} (${buildTarget()})\n`);
      return EXIT_OK;
    }
    const load = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
    if (!load && wantsPrint(argv)) return await (await import("./print.ts")).printCommand(argv);
    if (!load) {
      const flag = first.startsWith("-");
      const what = flag ? `unknown flag '${first}'` : `unknown command '${first}'`;
      const { nearestNames } = await import("../text/nearest-names.ts");
      const near = nearestNames(first.split("=")[0], flag ? TOP_FLAGS : Object.keys(COMMANDS))
        .filter((n) => !n.startsWith("_"));
      throw new UsageError(
        near.length > 0 ? `${what} (did you mean '${near[0]}'?)` : what,
        "Run 'xcsh --help' for the list of commands.",
      );
    }
    return await (await load())(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      writeErr(`xcsh: ${err.message}\n`);
      if (err.hint) writeErr(`${err.hint}\n`);
      return EXIT_USAGE;
    }
    const message = err instanceof Error ? err.message : String(err);
    writeErr(`xcsh: error: ${message}\n`);
    if (process.env.XCSH_DEBUG && err instanceof Error && err.stack) {
      writeErr(err.stack + "\n");
    }
    return EXIT_FAILURE;
  }
}
