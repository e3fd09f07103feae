/**
 * The index `GET <base>/agents` answers: every served agent's name, one-line
 * description and card URL, so a client (or a person with curl) finds the
 * `agent_card_url` to configure. Pure.
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";
import { summarizeDescription } from "../runner/task-description.ts";
import { agentPath, CARD_PATH } from "./serve-route.ts";

/** The index body for `agents` served under `base`. */
export function agentsIndex(agents: readonly AgentDefinition[], base: string) {
  return {
    agents: agents.map((a) => ({
      name: a.name,
      description: summarizeDescription(a.description),
      url: base + agentPath(a.name),
      card: base + agentPath(a.name) + CARD_PATH,
    })),
  };
}
