/**
 * `xcsh commands`: lists workflow commands; `commands show NAME [ARG...]`
 * prints one, expanded with the given arguments.
 *
 * @module
 */
import process from "node:process";
import { writeOut } from "../text/stdio.ts";
import { LISTING_FLAGS, parseFlags, showTarget } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK } from "./errors.ts";
import {
  isVerbose,
  printDescribedListing,
  printJson,
  reportDiscoveryWarnings,
  unknownNameExit,
} from "./output.ts";
import {
  discoverCommands,
  expandCommand,
  getCommand,
  type WorkflowCommand,
} from "../discovery/workflow-commands.ts";

const HELP = `Usage:
  xcsh commands [--all] [--json] [--cwd DIR]
  xcsh commands show NAME [ARG...] [--json] [--cwd DIR]

Workflow commands are Markdown prompt templates in .xcsh/commands,
.claude/commands, .codex/commands, .gemini/commands and Claude plugins.
'show' expands $ARGUMENTS, $@ and $1..$9 with the given arguments.

  --all       also list commands hidden by a higher-precedence one of the same name
  --json      machine-readable output (documented in docs/discovery.md)
  --verbose   print every warning about command files (default: one summary line)
  --cwd DIR   discover as if run from DIR (default: the current directory)
`;

const FLAGS = LISTING_FLAGS;

function summary(c: WorkflowCommand): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: c.name,
    description: c.description,
    source: c.source,
    family: c.family,
  };
  if (c.plugin) out.plugin = c.plugin;
  if (c.filePath) out.filePath = c.filePath;
  if (c.argumentHint) out.argumentHint = c.argumentHint;
  return out;
}

export async function commandsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("commands", args, FLAGS);
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const { show } = showTarget("commands", "command", positionals);
  const found = await discoverCommands(discoveryEnv(values.cwd));
  reportDiscoveryWarnings(found.warnings, isVerbose(values.verbose, process.env), "command");
  if (show) {
    const { name, rest } = show;
    const command = getCommand(found.commands, name);
    if (!command) {
      return unknownNameExit("command", "commands", name, found.commands.map((c) => c.name));
    }
    const prompt = expandCommand(command.template, rest);
    if (values.json) {
      printJson({
        version: 1,
        command: { ...summary(command), template: command.template },
        prompt,
      });
    } else writeOut(prompt + "\n");
    return EXIT_OK;
  }
  printDescribedListing("commands", found.commands, found.shadowed, {
    all: values.all === true,
    json: values.json === true,
    summary,
  });
  return EXIT_OK;
}
