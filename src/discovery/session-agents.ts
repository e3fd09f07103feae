/**
 * Agents defined for one run on the command line (`xcsh run --agents
 * '{"name": {...}}'`), in Claude Code's JSON shape: each key is an agent's
 * name, each value its fields as an agent file's frontmatter has them, with
 * `prompt` as the system prompt. They are the user's own (typed by them),
 * and they take precedence over every discovered agent of that run. Bad
 * input is one error naming the agent and field. Pure.
 *
 * @example
 * ```ts
 * parseSessionAgents('{"rev": {"description": "Reviews", "prompt": "Review.", "tools": ["Read"]}}');
 * // { ok: true, agents: [{ name: "rev", description: "Reviews", systemPrompt: "Review.", tools: ["read", "submit_result"], … }], warnings: [] }
 * ```
 *
 * @module
 */
import { parseAgentFields } from "./agent-fields.ts";
import type { AgentDefinition, Diagnostic } from "../types.ts";
import { isRecord } from "../formats/values.ts";

/** Named in every diagnostic about these agents. */
export const SESSION_AGENTS_ORIGIN = "--agents";

export type SessionAgents =
  | { ok: true; agents: AgentDefinition[]; warnings: Diagnostic[] }
  | { ok: false; error: string };

/** Reads the value of `--agents`. */
export function parseSessionAgents(text: string): SessionAgents {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `--agents: not valid JSON (${(err as Error).message})` };
  }
  if (!isRecord(doc)) {
    return { ok: false, error: `--agents: must be a JSON object of agent names to definitions` };
  }
  const agents: AgentDefinition[] = [];
  const warnings: Diagnostic[] = [];
  for (const [name, def] of Object.entries(doc)) {
    if (!isRecord(def)) {
      return {
        ok: false,
        error: `--agents: '${name}' must be an object ({description, prompt, …})`,
      };
    }
    const { prompt, ...fm } = def;
    if (typeof prompt !== "string" || prompt.trim() === "") {
      return { ok: false, error: `--agents: '${name}': 'prompt' must be a non-empty string` };
    }
    const file = `${SESSION_AGENTS_ORIGIN} ${name}`;
    const parsed = parseAgentFields({ ...fm, name }, { file, family: "claude" });
    if (!parsed.ok) return { ok: false, error: `--agents: '${name}': ${parsed.error.message}` };
    warnings.push(...parsed.warnings);
    agents.push({
      ...parsed.value,
      systemPrompt: prompt.trim(),
      source: "user",
      family: "claude",
    });
  }
  return { ok: true, agents, warnings };
}

/** `agents` with the session's in front, shadowing any of the same name. */
export function withSessionAgents(
  session: readonly AgentDefinition[] | undefined,
  agents: readonly AgentDefinition[],
): AgentDefinition[] {
  if (!session || session.length === 0) return [...agents];
  const names = new Set(session.map((a) => a.name));
  return [...session, ...agents.filter((a) => !names.has(a.name))];
}
