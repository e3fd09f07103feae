// Complete task plans (envelopes of the current protocol version) for tests
// that start `xcsh __child` themselves or check the envelope's parser: every
// field as a parent would write it, from the parent's own rules (the
// tool-set rule, the default sandbox, the blocked agent, what the model
// calls are sent), with a test's
// overrides on top. `planText` is the plan as the child reads it on stdin.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadParsers, parsedNow } from "../../src/formats/full-parsers.ts";
import { parseConfigText } from "../../src/config/load.ts";
import { defaultConfig, mergeConfigs } from "../../src/config/validate.ts";
import type { TaskEnvelope } from "../../src/protocol/envelope.ts";
import { ENVELOPE_VERSION } from "../../src/protocol/envelope.ts";
import { envelopeAgent, envelopeText } from "../../src/protocol/envelope-builder.ts";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.ts";
import { blockedAgentOf } from "../../src/protocol/variables.ts";
import { decideToolSet } from "../../src/plan/tool-set-rule.ts";
import { childModelSettings } from "../../src/plan/child-model-settings.ts";
import { splitModelId } from "../../src/model/providers.ts";
import { agentFingerprints } from "../../src/plan/agent-set.ts";
import { discoverAgents } from "../../src/discovery/discover.ts";
import { chooseSandbox } from "../../src/sandbox/mode.ts";
import type { AgentDefinition, XcshConfig } from "../../src/types.ts";

/** The agent of a plan that names none. */
export const TEST_AGENT: AgentDefinition = {
  name: "tester",
  description: "Test agent",
  systemPrompt: "You are a test agent.",
  source: "bundled",
  family: "xcsh",
};

/** What a test sets; everything else is the parent's default. */
export type PlanOptions =
  & Omit<Partial<TaskEnvelope>, "agent" | "config" | "model">
  & {
    cwd: string;
    /** The resolved `provider/model` (null: none, which a child refuses). */
    model: TaskEnvelope["model"];
    /** An agent definition (its `spawns` becomes the plan's tool set, as the parent does). */
    agent?: object;
    /** The parent's config, or the text of a config.yml it read. */
    config?: XcshConfig | string;
    /** The depth leaves room for the `task` tool (default true). */
    depthAllowsSpawn?: boolean;
  };

// A config.yml text may need the full YAML parser.
await loadParsers();

/** A config.yml text read as the parent reads it. */
export function configOf(text: string): XcshConfig {
  const parsed = parsedNow(parseConfigText(text, "config.yml"));
  if (!parsed.ok) throw new Error(`test config: ${parsed.error.message}`);
  return mergeConfigs([parsed.value]);
}

/** The config a parent would read from `home`'s `~/.xcsh/agent/config.yml` (none: the defaults). */
export function userConfig(home: string): XcshConfig {
  const file = join(home, ".xcsh", "agent", "config.yml");
  return existsSync(file) ? configOf(readFileSync(file, "utf8")) : defaultConfig();
}

/**
 * The agent set a top-level run in `cwd` would send: the fingerprints of the
 * agents it discovers there (a plan's `task` calls refuse any other).
 */
export async function agentSetOf(cwd: string, home: string): Promise<Record<string, string>> {
  const found = await discoverAgents({ cwd, home, env: { HOME: home } });
  return agentFingerprints(found.agents);
}

/** A complete plan: the parent's defaults with `o` laid over them. */
export function plan(o: PlanOptions): TaskEnvelope {
  const {
    agent: given,
    config: configGiven,
    depthAllowsSpawn = true,
    ...rest
  } = o;
  const full = { ...TEST_AGENT, ...given } as AgentDefinition;
  const agent = envelopeAgent(full);
  const config = typeof configGiven === "string"
    ? configOf(configGiven)
    : configGiven ?? defaultConfig();
  const planMode = rest.planMode ?? false;
  const choice = chooseSandbox({
    agent: agent.sandbox,
    config: config.task.sandbox,
    network: config.task.sandboxNetwork,
  });
  const blocked = blockedAgentOf(agent);
  const split = o.model ? splitModelId(o.model) : undefined;
  const modelSettings = childModelSettings(full, split && { id: o.model!, ...split }, config);
  return {
    version: ENVELOPE_VERSION,
    id: "0-test",
    agent,
    assignment: "Read hello.txt and say what it contains.",
    outputSchema: null,
    ...(Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
    planMode,
    toolSet: decideToolSet({ agent: full, planMode, depthAllowsSpawn }),
    ...(blocked ? { blockedAgent: blocked } : {}),
    limits: { ...DEFAULT_LIMITS },
    config,
    promptContext: {
      version: 1,
      files: [],
      environment: { date: "2026-12-01", os: "linux", shell: "sh", cwd: o.cwd },
    },
    keys: {},
    agentSet: {},
    sandbox: {
      mode: choice.mode,
      network: choice.network,
      ...(choice.reach ? { reach: choice.reach } : {}),
      required: choice.required,
    },
    ...rest,
  };
}

/** The plan as the child reads it on stdin: every field, `null` for none. */
export function planText(o: PlanOptions): string {
  return envelopeText(plan(o));
}
