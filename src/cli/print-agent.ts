/**
 * What `xcsh -p`'s `--allowedTools`, `--disallowedTools`, `--system-prompt`
 * and `--append-system-prompt` do to the agent that runs. The lists are
 * read as an agent file's `tools` and `disallowedTools` are (Claude Code's
 * permission-rule syntax, `tool-entries.ts`), and they only ever narrow:
 * `--allowedTools` keeps the agent's tools it names (a tool the agent
 * restricts by its own rules keeps those rules) plus the read-only ones,
 * which Claude Code never asks about either; `--disallowedTools` adds
 * to what the agent already refuses. Pure.
 *
 * @example
 * ```ts
 * const agent = {
 *   name: "task",
 *   description: "d",
 *   systemPrompt: "p",
 *   source: "bundled" as const,
 *   family: "bundled" as const,
 * };
 * const edits = readAgentEdits({ allowed: ["Bash(git diff *)"], disallowed: [] });
 * editAgent(agent, edits);
 * // tools: read, grep, find, ls, bash, submit_result; bash only for `git diff …`
 * ```
 *
 * @module
 */
import { parseAgentFields } from "../discovery/agent-fields.ts";
import { READ_ONLY_CORE } from "../discovery/tool-catalogue.ts";
import { UsageError } from "./errors.ts";
import type { AgentDefinition, PermissionRule } from "../types.ts";

/** The flags' lists, read; `undefined` where a flag was not given. */
export interface AgentEdits {
  /** Tool names `--allowedTools` grants, `submit_result` included. */
  tools?: string[];
  /** Its rules (only for tools it does not list bare). */
  allow: PermissionRule[];
  disallowedTools: string[];
  disallowedAgents: string[];
  deny: PermissionRule[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
}

/** Splits one flag value at commas and spaces outside parentheses. */
export function splitToolFlag(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let word = "";
  for (const c of value) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      if (word !== "") out.push(word);
      word = "";
    } else word += c;
  }
  if (word !== "") out.push(word);
  return out;
}

/** Reads the flags' values; a list that cannot be read is a usage error naming its flag. */
export function readAgentEdits(flags: {
  allowed: readonly string[];
  disallowed: readonly string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
}): AgentEdits {
  const read = (flag: string, key: string, values: readonly string[]) => {
    const parsed = parseAgentFields(
      { name: "print", description: flag, [key]: values.flatMap(splitToolFlag) },
      { file: flag },
    );
    if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.error.message}`);
    return parsed.value;
  };
  const edits: AgentEdits = { allow: [], disallowedTools: [], disallowedAgents: [], deny: [] };
  if (flags.allowed.length > 0) {
    const a = read("--allowedTools", "tools", flags.allowed);
    edits.tools = [...new Set([...READ_ONLY_CORE, ...a.tools ?? []])];
    edits.allow = a.permissions?.allow ?? [];
  }
  if (flags.disallowed.length > 0) {
    const d = read("--disallowedTools", "disallowedTools", flags.disallowed);
    edits.disallowedTools = d.disallowedTools ?? [];
    edits.disallowedAgents = d.disallowedAgents ?? [];
    edits.deny = d.permissions?.deny ?? [];
  }
  if (flags.systemPrompt !== undefined) edits.systemPrompt = flags.systemPrompt;
  if (flags.appendSystemPrompt !== undefined) edits.appendSystemPrompt = flags.appendSystemPrompt;
  return edits;
}

/** The agent with the edits applied: never a tool or rule it did not have. */
export function editAgent(agent: AgentDefinition, edits: AgentEdits): AgentDefinition {
  const out: AgentDefinition = { ...agent };
  const allow = [...agent.permissions?.allow ?? []];
  if (edits.tools) {
    const granted = new Set(edits.tools);
    out.tools = agent.tools ? agent.tools.filter((t) => granted.has(t)) : [...edits.tools];
    // A tool the agent restricts by its own rules keeps them; one it lists bare takes the flag's.
    const ruled = new Set(allow.map((r) => r.tool ?? r.family));
    allow.push(...edits.allow.filter((r) => !ruled.has(r.tool ?? r.family)));
  }
  const deny = [...agent.permissions?.deny ?? [], ...edits.deny];
  if (allow.length > 0 || deny.length > 0) out.permissions = { allow, deny };
  if (edits.disallowedTools.length > 0) {
    out.disallowedTools = [...new Set([...agent.disallowedTools ?? [], ...edits.disallowedTools])];
  }
  if (edits.disallowedAgents.length > 0) {
    out.disallowedAgents = [
      ...new Set([...agent.disallowedAgents ?? [], ...edits.disallowedAgents]),
    ];
  }
  if (edits.systemPrompt !== undefined) out.systemPrompt = edits.systemPrompt;
  if (edits.appendSystemPrompt !== undefined) {
    out.systemPrompt = `${out.systemPrompt}\n\n${edits.appendSystemPrompt}`;
  }
  return out;
}
