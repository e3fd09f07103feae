/**
 * Which agent a call's children run, decided in two steps: `chooseAgent`
 * discovers the agents afresh and picks the one the call asks for (the
 * guards, `guards.ts`, then the check that it is the agent the top-level run
 * started with, `agent-set.ts`); `decideAgent` takes away what an untrusted
 * file may not loosen (`agent-trust.ts`), builds the effective agent and its
 * tool set (`effective.ts`), and adds the hooks that may run
 * (`child-hooks.ts`) after the config's.
 *
 * @module
 */
import { discoverAgents } from "../discovery/discover.ts";
import type { PluginListing } from "../discovery/plugins.ts";
import { withSessionAgents } from "../discovery/session-agents.ts";
import { DEFAULT_LIMITS } from "../protocol/limits.ts";
import { chooseSandbox } from "../sandbox/mode.ts";
import type { AgentDefinition, AgentHooks, Diagnostic, TaskRequest } from "../types.ts";
import { changedSince } from "./agent-set.ts";
import { restrictAgent, trustNeeds } from "./agent-trust.ts";
import { trustedHooks } from "./child-hooks.ts";
import { effectiveAgent } from "./effective.ts";
import { checkGuards, type GuardKind } from "./guards.ts";
import { agentFileTrusted } from "./agent-file-trust.ts";
import type { PlanInputs } from "./plan-inputs.ts";
import { withConfigHooks } from "./task-preparation.ts";

/**
 * Discovers the agents afresh and picks the one `req` asks for: the
 * guards, then the check that it is the agent the top-level run started
 * with. `plugins` is discovery's reading of the settings files, for their hooks.
 */
export async function chooseAgent(req: TaskRequest, i: PlanInputs): Promise<
  | {
    ok: true;
    asked: AgentDefinition;
    agents: AgentDefinition[];
    plugins?: PluginListing;
  }
  | { ok: false; kind: GuardKind; message: string }
> {
  const { config, caller, env } = i;
  const discovered = await discoverAgents(env);
  (i.onDiscoveryWarnings ?? i.onWarnings)?.(discovered.warnings);
  const agents = withSessionAgents(i.sessionAgents, discovered.agents);
  const guard = checkGuards(req.agent, agents, caller, {
    maxDepth: config.task.maxRecursionDepth,
    disabled: config.task.disabledAgents,
    listHint: i.listHint,
  });
  if (!guard.ok) return guard;
  // At the top level the set is this discovery's own: nothing to check against.
  const changed = i.agentSet && changedSince(i.agentSet, guard.agent);
  if (changed) return { ok: false, kind: "changed", message: changed };
  const asked = i.editAgent ? i.editAgent(guard.agent) : guard.agent;
  return { ok: true, asked, agents, plugins: discovered.plugins };
}

/**
 * The agent the children run: what an untrusted file may not loosen taken
 * away, the effective agent and its tool set, the trusted hooks and the
 * config's before them (`settingsHooks`: the settings files' hooks).
 */
export function decideAgent(
  req: TaskRequest,
  asked: AgentDefinition,
  agents: readonly AgentDefinition[],
  planMode: boolean,
  i: PlanInputs & { settingsHooks: () => AgentHooks; warn: (w: Diagnostic | undefined) => void },
) {
  const { config, caller, env } = i;
  // A project agent file nobody trusted may only tighten the user's settings.
  // (The file and the store are read only for a file that sets such things.)
  const agentTrusted = trustNeeds(asked).length > 0 && agentFileTrusted(asked, env);
  const restricted = restrictAgent(asked, {
    trusted: agentTrusted,
    // With --sandbox the agent's own mode is not used at all.
    sandbox: req.sandbox !== undefined ? "off" : chooseSandbox({
      config: config.task.sandbox,
      network: config.task.sandboxNetwork,
      caller: i.sandbox,
    }).mode,
    timeout: config.task.timeout,
    maxTurns: DEFAULT_LIMITS.maxTurns,
  });
  i.warn(restricted.warning);
  const { agent: withHooks, toolSet } = effectiveAgent(restricted.agent, {
    planMode,
    childDepth: caller.depth + 1,
    maxDepth: config.task.maxRecursionDepth,
    agentNames: agents.map((a) => a.name),
    inheritedDeny: i.inheritedDeny,
  });
  const hooked = trustedHooks(withHooks, env);
  i.warn(hooked.warning);
  const agent = withConfigHooks(hooked.agent, config.hooks, i.settingsHooks());
  return { agent, toolSet, restricted: restricted.agent, agentTrusted };
}
