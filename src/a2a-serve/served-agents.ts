/**
 * Which of the discovered agents `xcsh a2a` publishes: those that can run
 * here (not a remote agent xcsh cannot reach, say) and that the config does
 * not disable. Pure.
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";

/** The agents served, in discovery order. */
export function servedAgents(
  agents: readonly AgentDefinition[],
  disabled: readonly string[],
): AgentDefinition[] {
  return agents.filter((a) => !a.notRunnable && !disabled.includes(a.name));
}
