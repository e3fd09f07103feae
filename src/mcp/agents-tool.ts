/**
 * The MCP `agents` tool: its arguments and what one call answers. A page of
 * the agents a `query` finds (all of them without one), each as name,
 * source and one-line description, bounded to {@link MAX_AGENTS_CHARS}
 * characters (text and structured content together, about 15 000 tokens at
 * four characters a token) and to `limit` entries; a signed `cursor` leads
 * to the next page. `name` answers one agent in full instead (a very long
 * description is cut, a very long output schema named, not sent). Pure, given
 * the agents and the server's cursor signer.
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";
import { summarizeDescription } from "../runner/task-description.ts";
import { unknownAgentMessage } from "../plan/guards.ts";
import { matchAgents } from "./agent-query.ts";
import type { CursorSigner } from "./cursor.ts";

/** The most characters one answer holds (text plus structured content). */
export const MAX_AGENTS_CHARS = 60_000;
/** Entries per page when the call gives no `limit`. */
export const DEFAULT_AGENTS_LIMIT = 100;
/** The largest `limit` taken. */
export const MAX_AGENTS_LIMIT = 1000;
/** The longest description `name` answers (longer ones are cut). */
const MAX_FULL_DESCRIPTION = 16_000;
/** The longest output schema `name` answers, as JSON (a longer one is named, not sent). */
const MAX_FULL_OUTPUT = 16_000;

export const AGENTS_TOOL = {
  name: "agents",
  description:
    "List the agents the task tool can run right now (rediscovered on every call): name, source and a one-line description each, a page at a time. " +
    "`query` finds agents by name or description (words, substrings, typos of a name); pass `nextCursor` back as `cursor` for the next page; " +
    "`name` shows one agent in full (description, tools, output schema, file).",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Words or part of a name to look for." },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_AGENTS_LIMIT,
        description:
          `Most entries in this page (default ${DEFAULT_AGENTS_LIMIT}; a page never exceeds about 15 000 tokens).`,
      },
      cursor: { type: "string", description: "The nextCursor of the previous page." },
      name: { type: "string", description: "One agent's exact name: that agent in full." },
    },
  },
  annotations: { readOnlyHint: true },
};

export interface AgentsInput {
  query?: string;
  limit: number;
  cursor?: string;
  name?: string;
}

/** Validates the tool's arguments; a string names what is wrong. */
export function readAgentsInput(args: unknown): AgentsInput | string {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "arguments must be an object";
  }
  const a = args as Record<string, unknown>;
  for (const key of ["query", "cursor", "name"] as const) {
    if (a[key] !== undefined && typeof a[key] !== "string") return `'${key}' must be a string`;
  }
  let limit = DEFAULT_AGENTS_LIMIT;
  if (a.limit !== undefined) {
    if (
      typeof a.limit !== "number" || !Number.isInteger(a.limit) || a.limit < 1 ||
      a.limit > MAX_AGENTS_LIMIT
    ) {
      return `'limit' must be a whole number from 1 to ${MAX_AGENTS_LIMIT}`;
    }
    limit = a.limit;
  }
  if (a.name !== undefined && (a.query !== undefined || a.cursor !== undefined)) {
    return "'name' shows one agent: give it without 'query' or 'cursor'";
  }
  return {
    limit,
    ...(a.query !== undefined ? { query: a.query as string } : {}),
    ...(a.cursor !== undefined ? { cursor: a.cursor as string } : {}),
    ...(a.name !== undefined ? { name: a.name as string } : {}),
  };
}

/** One entry of a page. */
export interface AgentEntry {
  name: string;
  source: AgentDefinition["source"];
  description: string;
}

export type AgentsAnswer =
  | { ok: true; text: string; structured: Record<string, unknown> }
  | { ok: false; message: string };

function entryLine(e: AgentEntry): string {
  return `- ${e.name} (${e.source}): ${e.description}`;
}

/** What one call of the tool answers for the agents discovered now. */
export function agentsAnswer(
  agents: readonly AgentDefinition[],
  input: AgentsInput,
  cursors: CursorSigner,
): AgentsAnswer {
  if (input.name !== undefined) return oneAgent(agents, input.name);
  let query = input.query ?? "";
  let offset = 0;
  if (input.cursor !== undefined) {
    const read = cursors.read(input.cursor);
    if (!read.ok) return read;
    if (input.query !== undefined && input.query !== read.page.query) {
      return {
        ok: false,
        message:
          `'query' differs from the one this cursor continues (${
            JSON.stringify(read.page.query)
          }); ` +
          "leave it out, or start again without a cursor",
      };
    }
    query = read.page.query;
    offset = read.page.offset;
  }
  const found = matchAgents(agents, query);
  const entries: AgentEntry[] = [];
  const lines: string[] = [];
  // Room for the heading, the closing line with its cursor and the structured fields.
  let size = 1000 + 2 * query.length;
  for (const a of found.slice(offset)) {
    if (entries.length >= input.limit) break;
    const entry = {
      name: a.name,
      source: a.source,
      description: summarizeDescription(a.description),
    };
    const line = entryLine(entry);
    const cost = line.length + 1 + JSON.stringify(entry).length + 1;
    // A page holds at least one entry, so paging always moves on.
    if (entries.length > 0 && size + cost > MAX_AGENTS_CHARS) break;
    entries.push(entry);
    lines.push(line);
    size += cost;
  }
  const next = offset + entries.length;
  const nextCursor = next < found.length ? cursors.issue({ query, offset: next }) : undefined;
  const what = query === "" ? "" : ` matching ${JSON.stringify(query)}`;
  const head = entries.length === 0
    ? found.length === 0 ? `No agents${what}.` : `No more agents${what} (${found.length} in all).`
    : `Agents${what}: ${offset + 1}–${next} of ${found.length}.`;
  const text = [
    head,
    ...lines,
    ...(nextCursor ? [`More: call agents with cursor "${nextCursor}".`] : []),
  ].join("\n");
  return {
    ok: true,
    text,
    structured: {
      agents: entries,
      total: found.length,
      offset,
      ...(nextCursor ? { nextCursor } : {}),
    },
  };
}

/** The agent's output schema, or a note saying where it is when it is too long to send. */
function outputField(output: unknown): Record<string, unknown> {
  if (output === undefined) return {};
  const size = JSON.stringify(output)?.length ?? 0;
  return size <= MAX_FULL_OUTPUT
    ? { output }
    : { outputNote: `an output schema of ${size} characters: see the agent's file` };
}

function oneAgent(agents: readonly AgentDefinition[], name: string): AgentsAnswer {
  const a = agents.find((x) => x.name === name);
  if (!a) {
    return {
      ok: false,
      message: unknownAgentMessage(
        name,
        agents.map((x) => x.name),
        "call agents with a query to find one",
      ),
    };
  }
  const description = a.description.length > MAX_FULL_DESCRIPTION
    ? a.description.slice(0, MAX_FULL_DESCRIPTION) + "… (cut; the agent's file has the rest)"
    : a.description;
  const agent = {
    name: a.name,
    description,
    source: a.source,
    family: a.family,
    ...(a.plugin ? { plugin: a.plugin } : {}),
    ...(a.filePath ? { filePath: a.filePath } : {}),
    tools: a.tools ?? "all",
    ...outputField(a.output),
  };
  const tools = a.tools ? a.tools.join(", ") : "all tools";
  const where = a.filePath ?? (a.plugin ? `plugin ${a.plugin}` : a.source);
  return {
    ok: true,
    text: `${a.name} (${a.source}, ${where})\ntools: ${tools}\n\n${description}`,
    structured: { agent },
  };
}
