/**
 * `xcsh agents`: lists the agents a task could run, where each came from and
 * what shadows what; `agents show NAME` prints one in full; `agents check`
 * lints agent files.
 *
 * @module
 */
import process from "node:process";
import { writeErr, writeOut } from "../text/stdio.ts";
import { LISTING_FLAGS, parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK, EXIT_USAGE, UsageError } from "./errors.ts";
import { AGENTS_HELP } from "./help.ts";
import {
  displayPath,
  familyLabel,
  formatTable,
  isVerbose,
  listingDocument,
  listingRows,
  printJson,
  reportDiscoveryWarnings,
  whereLabel,
} from "./output.ts";
import { discoverAgents, getAgent } from "../discovery/discover.ts";
import type { AgentDefinition } from "../types.ts";
import { agentSummary } from "./agent-summary.ts";

const FLAGS = LISTING_FLAGS;

/** Who hides an agent, as printed by `agents --all`. */
function shadowRef(a: AgentDefinition): Record<string, unknown> {
  const ref: Record<string, unknown> = { name: a.name, source: a.source, family: a.family };
  if (a.plugin) ref.plugin = a.plugin;
  if (a.filePath) ref.filePath = a.filePath;
  return ref;
}

export async function agentsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("agents", args, FLAGS);
  if (values.help) {
    writeOut(AGENTS_HELP);
    return EXIT_OK;
  }
  const [sub, ...rest] = positionals;
  if (sub === "check") {
    const { checkCommand } = await import("./check.ts");
    return checkCommand(rest, values.cwd, values.json === true);
  }
  if (sub !== undefined && sub !== "show") {
    throw new UsageError(
      `agents: unknown subcommand '${sub}'`,
      "Run 'xcsh agents --help' for usage.",
    );
  }
  if (sub === "show" && rest.length !== 1) {
    throw new UsageError(
      "agents show: expected one agent NAME",
      "Run 'xcsh agents --help' for usage.",
    );
  }
  if (sub === undefined && rest.length > 0) {
    throw new UsageError(
      `agents: unexpected argument '${rest[0]}'`,
      "Run 'xcsh agents --help' for usage.",
    );
  }
  const denv = discoveryEnv(values.cwd);
  // A listing shows no prompt: the files the caches hold are not read.
  const found = await discoverAgents(denv, { prompts: sub === "show" });
  reportDiscoveryWarnings(found.warnings, isVerbose(values.verbose, process.env));

  if (sub === "show") {
    const name = rest[0];
    const agent = getAgent(found.agents, name);
    if (!agent) {
      const { unknownAgentMessage } = await import("../plan/guards.ts");
      writeErr(`xcsh: ${unknownAgentMessage(name, found.agents.map((a) => a.name))}\n`);
      return EXIT_USAGE;
    }
    const hidden = found.shadowed.filter((s) => s.shadowedBy === agent).map((s) =>
      shadowRef(s.agent)
    );
    // The model the agent would run on here, and what its thinking level becomes there
    // (loaded for `show` alone: the listing needs neither config nor models).
    const [{ loadConfig }, { resolveModel }, { thinkingShown }, { modelVariable }] = await Promise
      .all([
        import("../config/load.ts"),
        import("../model/resolve.ts"),
        import("./thinking-shown.ts"),
        import("../protocol/variables.ts"),
      ]);
    const loaded = await loadConfig(denv.cwd, denv.home);
    const choice = loaded.ok
      ? resolveModel({
        agentName: agent.name,
        agentModels: agent.model,
        config: loaded.config,
        env: denv.env,
        envModel: modelVariable(denv.env),
      })
      : undefined;
    const runsOn = choice?.ok && loaded.ok
      ? {
        model: choice.value.id,
        thinking: thinkingShown(
          choice.value.id,
          agent.thinkingLevel,
          loaded.config,
          denv.env,
        ),
      }
      : undefined;
    if (values.json) {
      printJson({
        version: 1,
        agent: { ...agentSummary(agent), systemPrompt: agent.systemPrompt },
        shadows: hidden,
        ...(runsOn ? { runsOn } : {}),
      });
    } else {
      const lines = [
        `name:         ${agent.name}`,
        `description:  ${agent.description}`,
        `source:       ${agent.source} (${familyLabel(agent)})`,
        `file:         ${whereLabel(agent)}`,
        `tools:        ${agent.tools?.join(", ") ?? "all"}`,
        ...(agent.unknownTools
          ? [`unknown tools: ${agent.unknownTools.join(", ")} (ignored)`]
          : []),
        ...(agent.disallowedTools || agent.disallowedAgents
          ? [
            `disallowed:   ${
              [
                ...agent.disallowedTools ?? [],
                ...(agent.disallowedAgents ?? []).map((a) => `Agent(${a})`),
              ].join(", ")
            }`,
          ]
          : []),
        ...(agent.permissions?.allow.length
          ? [`allow rules:  ${agent.permissions.allow.map((r) => r.text).join(", ")}`]
          : []),
        ...(agent.permissions?.deny.length
          ? [`deny rules:   ${agent.permissions.deny.map((r) => r.text).join(", ")}`]
          : []),
        ...(agent.planMode ? ["plan mode:    always (permissionMode: plan)"] : []),
        ...(agent.hooks ? [`hooks:        ${Object.keys(agent.hooks).join(", ")}`] : []),
        ...(agent.skills ? [`skills:       ${agent.skills.join(", ")} (preloaded)`] : []),
        ...(agent.memory ? [`memory:       ${agent.memory}`] : []),
        ...(agent.background ? ["background:   yes (xcsh run detaches)"] : []),
        ...(agent.remote
          ? [
            `remote:       A2A, card ${agent.remote.cardUrl ?? "inline (agent_card_json)"}${
              agent.remote.auth ? `, auth ${agent.remote.auth.type}` : ""
            }`,
          ]
          : []),
        ...(agent.notRunnable ? [`cannot run:   ${agent.notRunnable}`] : []),
        ...(agent.ignoredFields
          ? [`not used:     ${agent.ignoredFields.join(", ")} (xcsh agents check says why)`]
          : []),
        ...(agent.mcpServers
          ? [
            `mcp servers:  ${
              agent.mcpServers.map((m) => m.definition ? `${m.name} (defined here)` : m.name)
                .join(", ")
            }`,
          ]
          : []),
        `spawns:       ${agent.spawns === "*" ? "*" : agent.spawns?.join(", ") ?? "none"}`,
        `model:        ${agent.model?.join(", ") ?? "(parent's)"}`,
        `thinking:     ${agent.thinkingLevel ?? "(default)"}`,
        ...(runsOn
          ? [`runs on:      ${runsOn.model}${runsOn.thinking ? `; sends ${runsOn.thinking}` : ""}`]
          : []),
        ...(agent.maxTurns ? [`max turns:    ${agent.maxTurns}`] : []),
        ...(agent.timeout ? [`timeout:      ${agent.timeout} s`] : []),
        ...(agent.recursive ? ["recursive:    yes"] : []),
        ...(agent.omitContextFiles ? ["context:      no instruction files"] : []),
        ...(agent.sandbox ? [`sandbox:      ${agent.sandbox}`] : []),
        `output:       ${
          agent.output === undefined ? "(free text)" : JSON.stringify(agent.output)
        }`,
        ...hidden.map((h) =>
          `shadows:      ${h.name} from ${displayPath(h.filePath as string) || "(built in)"}`
        ),
      ];
      writeOut(lines.join("\n") + "\n\n" + agent.systemPrompt + "\n");
    }
    return EXIT_OK;
  }

  const all = values.all === true;
  if (values.json) {
    printJson(
      listingDocument("agents", found.agents, found.shadowed, all, agentSummary, shadowRef),
    );
    return EXIT_OK;
  }
  const rows = listingRows(found.agents, found.shadowed, all, () => "")
    .map((r) => (all ? r : r.slice(0, 4)));
  const header = ["NAME", "SOURCE", "FAMILY", "FILE", ...(values.all ? ["NOTE"] : [])];
  writeOut(formatTable(header, rows));
  return EXIT_OK;
}
