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

/** The fields placed by name: led with, or left out. */
const PLACED: ReadonlySet<string> = new Set([...SUMMARY_LEAD, ...SUMMARY_LEFT_OUT]);

/** The listing fields of an agent, in a stable order, without its prompt. */
export function agentSummary(a: AgentDefinition): Record<string, unknown> {
  const fields = a as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of SUMMARY_LEAD) {
    const v = fields[k];
    if (v !== undefined) out[k] = v;
  }
  const rest: string[] = [];
  for (const k of Object.keys(fields)) if (!PLACED.has(k) && fields[k] !== undefined) rest.push(k);
  for (const k of rest.sort()) out[k] = fields[k];
  return out;
}
