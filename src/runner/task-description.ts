/**
 * What a model or an MCP client is told about the `task` tool: a short
 * preamble (which points at the `agents` tool first, for clients that cut
 * long descriptions) and one line per agent (name, a one-line summary of its
 * description, its tools), bounded to {@link MAX_TASK_DESCRIPTION} characters
 * however many agents there are; the agents that do not fit are counted and
 * left to the `agents` tool. Pure.
 *
 * @example
 * ```ts
 * summarizeDescription("Use this agent when … Examples: <example>…</example>");
 * // "Use this agent when …"
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";

/** The longest description the `task` tool gets, in characters. */
export const MAX_TASK_DESCRIPTION = 8000;
/** The longest summary of one agent's description. */
export const MAX_SUMMARY = 160;

const PREAMBLE = [
  "Delegate work to a specialised agent that runs as a separate process with its own context.",
  "The list below may be cut or out of date: call the `agents` tool to see every agent and to",
  "find one by name or description (`query`).",
  "Give each task a self-contained assignment: the agent sees only the assignment and the shared",
  "context, not this conversation. Several tasks in one call run in parallel.",
  "A result too long to return whole comes back as its start and end with the file that",
  "holds all of it (its path; over MCP also a resource link): read that file in parts.",
  "",
  "Agents:",
];

/**
 * One line of an agent description: examples and their `<example>` blocks
 * left out, escaped and real line breaks folded, cut at a word near `max`.
 */
export function summarizeDescription(description: string, max = MAX_SUMMARY): string {
  let text = description
    .replace(/\\n/g, " ")
    .replace(/<example>[\s\S]*?(?:<\/example>|$)/gi, " ");
  const examples = /\bExamples?\s*:/i.exec(text);
  if (examples && examples.index > 0) text = text.slice(0, examples.index);
  text = text.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "") + "…";
}

function agentLine(a: AgentDefinition): string {
  const tools = a.tools ? a.tools.filter((t) => t !== "submit_result").join(", ") : "all tools";
  const schema = a.output !== undefined ? "; returns structured data" : "";
  return `- ${a.name}: ${summarizeDescription(a.description)} (tools: ${tools}${schema})`;
}

function moreLine(n: number): string {
  return `… and ${n} more: call the \`agents\` tool for the full list.`;
}

/** The task tool's description for a given agent list, at most {@link MAX_TASK_DESCRIPTION} characters. */
export function taskToolDescription(agents: readonly AgentDefinition[]): string {
  const lines = [...PREAMBLE];
  let length = lines.join("\n").length;
  // Room kept for the closing line, whatever the count.
  const reserve = moreLine(agents.length).length + 1;
  for (const [i, a] of agents.entries()) {
    const line = agentLine(a);
    const last = i === agents.length - 1;
    const after = length + 1 + line.length;
    // Every line pushed leaves room for the closing line, unless it is the last.
    if (after > MAX_TASK_DESCRIPTION - reserve && !(last && after <= MAX_TASK_DESCRIPTION)) {
      lines.push(moreLine(agents.length - i));
      return lines.join("\n");
    }
    lines.push(line);
    length += 1 + line.length;
  }
  return lines.join("\n");
}
