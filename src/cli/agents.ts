/**
 * `xcsh agents`: lists the agents a task could run, where each came from and
 * what it shadows; `agents show NAME` prints one in full.
 *
 * @module
 */
import process from "node:process";
import { parseFlags } from "./args.ts";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./errors.ts";
import { AGENTS_HELP } from "./help.ts";
import { displayPath, formatTable, printJson } from "./output.ts";
import { loadBundledAgents } from "../task/agents.ts";
import type { AgentDefinition } from "../task/types.ts";

const FLAGS = {
  all: { type: "boolean" },
  json: { type: "boolean" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The listing fields of an agent, in a stable order, without its prompt. */
export function agentSummary(a: AgentDefinition): Record<string, unknown> {
  const { systemPrompt: _prompt, ...rest } = a;
  const order = [
    "name",
    "description",
    "source",
    "family",
    "plugin",
    "filePath",
    "tools",
    "unknownTools",
    "spawns",
    "model",
    "thinkingLevel",
    "maxTurns",
    "timeout",
    "recursive",
    "output",
  ];
  const out: Record<string, unknown> = {};
  for (const k of order) {
    const v = (rest as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export async function agentsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("agents", args, FLAGS);
  if (values.help) {
    process.stdout.write(AGENTS_HELP);
    return EXIT_OK;
  }
  const [sub, ...rest] = positionals;
  const agents = await Promise.resolve(loadBundledAgents());
  if (sub === undefined) {
    if (values.json) {
      printJson({ version: 1, agents: agents.map(agentSummary) });
    } else {
      process.stdout.write(formatTable(
        ["NAME", "SOURCE", "FAMILY", "FILE"],
        agents.map((a) => [a.name, a.source, a.family, displayPath(a.filePath) || "(built in)"]),
      ));
    }
    return EXIT_OK;
  }
  if (sub === "show") {
    if (rest.length !== 1) throw new UsageError("agents show: expected one agent NAME");
    const agent = agents.find((a) => a.name === rest[0]);
    if (!agent) {
      process.stderr.write(
        `xcsh: unknown agent "${rest[0]}". Available: ${agents.map((a) => a.name).join(", ")}\n`,
      );
      return EXIT_FAILURE;
    }
    if (values.json) {
      printJson({
        version: 1,
        agent: { ...agentSummary(agent), systemPrompt: agent.systemPrompt },
      });
    } else {process.stdout.write(
        JSON.stringify(agentSummary(agent), null, 2) + "\n\n" + agent.systemPrompt + "\n",
      );}
    return EXIT_OK;
  }
  throw new UsageError(
    `agents: unknown subcommand '${sub}'`,
    "Run 'xcsh agents --help' for usage.",
  );
}
