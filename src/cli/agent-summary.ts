/**
 * What `xcsh agents --json` and `agents show --json` show of an agent: its
 * fields without its prompt, the ones a listing leads with first in a fixed
 * order ({@link SUMMARY_LEAD}, the order `docs/discovery.md` gives), then
 * every other field it has, by name, but the few a listing leaves out
 * ({@link SUMMARY_LEFT_OUT}). A field added to `AgentDefinition` is listed
 * without a change here. Pure.
 *
 * @example
 * ```ts
 * agentSummary({ name: "a", description: "d", systemPrompt: "…", source: "user", family: "xcsh" });
 * // { name: "a", description: "d", source: "user", family: "xcsh" }
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";

/** The fields a listing shows first, in this order (each when the agent has it). */
export const SUMMARY_LEAD: readonly (keyof AgentDefinition)[] = [
  "name",
  "description",
  "source",
  "family",
  "plugin",
  "filePath",
  "tools",
  "unknownTools",
  "disallowedTools",
  "disallowedAgents",
  "permissions",
  "planMode",
  "hooks",
  "skills",
  "memory",
  "background",
  "mcpServers",
  "spawns",
  "model",
  "thinkingLevel",
  "maxTurns",
  "timeout",
  "recursive",
  "omitContextFiles",
  "sandbox",
  "temperature",
  "topP",
  "topK",
  "verbosity",
  "notRunnable",
  "ignoredFields",
  "output",
];

/**
 * The fields a listing leaves out: the prompt (`agents show` prints it on
 * its own), a remote agent's card and credentials, and what only a run
 * uses (its launcher, worktree, write lane and acceptance checks).
 */
export const SUMMARY_LEFT_OUT: readonly (keyof AgentDefinition)[] = [
  "systemPrompt",
  "remote",
  "launcher",
  "isolation",
  "writes",
  "accept",
  "acceptRetries",
];

/** The listing fields of an agent, in a stable order, without its prompt. */
export function agentSummary(a: AgentDefinition): Record<string, unknown> {
  const fields = a as unknown as Record<string, unknown>;
  const rest = Object.keys(fields)
    .filter((k) => !(SUMMARY_LEAD as readonly string[]).includes(k))
    .filter((k) => !(SUMMARY_LEFT_OUT as readonly string[]).includes(k))
    .sort();
  const out: Record<string, unknown> = {};
  for (const k of [...SUMMARY_LEAD, ...rest]) {
    const v = fields[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
