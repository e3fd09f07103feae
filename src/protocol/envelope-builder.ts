/**
 * How the parent writes a task envelope, the child's complete plan: the
 * agent without its spawn field (the right travels once, as
 * `toolSet.spawns`) and without the fields its model settings are decided
 * from (they travel once, as the decided `modelSettings`), the blocked
 * agent (the rule is `variables.ts`'s), the text on the wire
 * with every field of the protocol in its order (`null` for none:
 * {@link envelopeText}), and the size limit every envelope must stay under
 * before a child is started for it. Pure.
 *
 * @example
 * ```ts
 * declare const parts: EnvelopeParts;
 * const envelope = buildEnvelope({ id: "0", assignment: "Find the CLI" }, parts);
 * envelopeSizeProblem(envelope); // undefined, or "task "0": the task envelope is 17.0 MiB, …"
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type {
  AgentDefinition,
  AgentHooks,
  McpServerDef,
  SandboxSetting,
  SkillRef,
  XcshConfig,
} from "../types.ts";
import type { PromptContext } from "./prompt-context.ts";
import {
  ENVELOPE_FIELDS,
  ENVELOPE_VERSION,
  type EnvelopeToolSet,
  MODEL_SETTING_KEYS,
  type ModelSettings,
  type TaskEnvelope,
} from "./envelope.ts";
import { envelopeTooLarge, MAX_ENVELOPE_BYTES, type TaskLimits } from "./limits.ts";
import { blockedAgentOf } from "./variables.ts";

/** What the parent decided for every task of a call. */
export interface EnvelopeParts {
  agent: AgentDefinition;
  context?: string;
  outputSchema: unknown;
  /** The resolved model; null only when none resolved (a dry run, a resume not yet bound). */
  model: { id: string; note?: string } | null;
  /** What every model call is sent (`plan/child-model-settings.ts`); none: absent or `{}`. */
  modelSettings?: ModelSettings;
  cwd: string;
  planMode: boolean;
  toolSet: EnvelopeToolSet;
  limits: TaskLimits;
  config: XcshConfig;
  promptContext: PromptContext;
  keys: Record<string, string>;
  agentSet: Record<string, string>;
  sandbox: SandboxSetting;
  mcpServers?: Record<string, McpServerDef>;
  skills: readonly SkillRef[];
  /** The characters the prompt's skill listing may take. */
  skillBudget?: number;
  memory?: { dir: string; head: string };
  preloadedSkills: readonly { name: string; body: string }[];
  /** The repository's programs blanked, for the git commands run (none: absent). */
  commandGitSettings?: readonly (readonly [string, string])[];
  /** The settings files' hooks the parent read, for the child's own `task` calls. */
  settingsHooks?: AgentHooks;
}

/**
 * `agent` without its spawn field and the fields of its model settings:
 * the right and the settings travel once, as the plan decided them.
 */
export function envelopeAgent(agent: AgentDefinition): AgentDefinition {
  const { spawns: _right, ...rest } = agent;
  for (const key of MODEL_SETTING_KEYS) delete rest[key];
  return rest;
}

/** The decided model settings, as the envelope's field (none: absent). */
function settings(given: ModelSettings | undefined): Partial<TaskEnvelope> {
  return given && Object.keys(given).length > 0 ? { modelSettings: { ...given } } : {};
}

/** The agent a child of `agent` may not start, as the envelope's field (none: absent). */
function blocked(agent: AgentDefinition): Partial<TaskEnvelope> {
  const name = blockedAgentOf(agent);
  return name !== undefined ? { blockedAgent: name } : {};
}

/**
 * The envelope of task `id` with `assignment` (and its decided write lane,
 * `writes`), from the call's `parts`.
 */
export function buildEnvelope(
  task: { id: string; assignment: string; writes?: readonly string[] },
  p: EnvelopeParts,
): TaskEnvelope {
  const { model } = p;
  const agent = envelopeAgent(p.agent);
  return {
    version: ENVELOPE_VERSION,
    id: task.id,
    agent,
    assignment: task.assignment,
    ...(p.context ? { context: p.context } : {}),
    outputSchema: p.outputSchema,
    model: model ? model.id : null,
    ...(model && model.note ? { modelNote: model.note } : {}),
    ...settings(p.modelSettings),
    cwd: p.cwd,
    planMode: p.planMode,
    toolSet: p.toolSet,
    ...blocked(agent),
    limits: p.limits,
    config: p.config,
    promptContext: p.promptContext,
    keys: p.keys,
    agentSet: p.agentSet,
    sandbox: p.sandbox,
    ...(p.mcpServers ? { mcpServers: p.mcpServers } : {}),
    ...(p.skills.length > 0 ? { skills: [...p.skills] } : {}),
    ...(p.skills.length > 0 && p.skillBudget !== undefined ? { skillBudget: p.skillBudget } : {}),
    ...(p.memory ? { memory: p.memory } : {}),
    ...(p.preloadedSkills.length > 0 ? { preloadedSkills: [...p.preloadedSkills] } : {}),
    ...(task.writes ? { writes: [...task.writes] } : {}),
    ...(p.settingsHooks && Object.keys(p.settingsHooks).length > 0
      ? { settingsHooks: p.settingsHooks }
      : {}),
    ...(p.commandGitSettings && p.commandGitSettings.length > 0
      ? { commandGitSettings: p.commandGitSettings.map(([k, v]): [string, string] => [k, v]) }
      : {}),
  };
}

/** What "none" is on the wire for each field an envelope may leave out. */
const NONE: Partial<Record<(typeof ENVELOPE_FIELDS)[number], unknown>> = {
  budget: false,
  pace: false,
  commandGitSettings: [],
  mcpServers: {},
  skills: [],
  preloadedSkills: [],
  settingsHooks: {},
};

/**
 * The envelope as the child reads it: every field of the protocol, in its
 * order, `null` (or the empty list or object {@link NONE} names) for one
 * that holds nothing.
 */
export function envelopeText(envelope: TaskEnvelope): string {
  const e = envelope as unknown as Record<string, unknown>;
  const wire: Record<string, unknown> = {};
  for (const field of ENVELOPE_FIELDS) {
    wire[field] = e[field] ?? (Object.hasOwn(NONE, field) ? NONE[field] : null);
  }
  const { mode, network, reach, required } = envelope.sandbox;
  wire.sandbox = { mode, network, reach: reach ?? null, required };
  const asked = envelope.modelSettings ?? {};
  wire.modelSettings = Object.fromEntries(MODEL_SETTING_KEYS.map((k) => [k, asked[k] ?? null]));
  return JSON.stringify(wire);
}

/** Why `envelope` may not be sent (over {@link MAX_ENVELOPE_BYTES}), naming its task. */
export function envelopeSizeProblem(envelope: TaskEnvelope): string | undefined {
  const bytes = Buffer.byteLength(envelopeText(envelope), "utf8");
  return bytes > MAX_ENVELOPE_BYTES
    ? `task "${envelope.id}": ${envelopeTooLarge(bytes)}`
    : undefined;
}
