/**
 * The set of agents a run may spawn is fixed when the top-level run starts.
 *
 * The top-level `xcsh run` (or MCP call) fingerprints every agent it
 * discovered and hands the fingerprints down in the envelope of each child
 * that may start tasks (one without the `task` tool gets an empty set, which
 * would refuse every agent); deeper `task` calls rediscover, but refuse an
 * agent that was added or whose definition differs from the one the run
 * started with. Otherwise an agent allowed to
 * spawn only `explore` could write `.xcsh/agents/explore.md` with every tool
 * and then spawn it. A fingerprint is a SHA-256 over the definition with its
 * keys in a fixed order, so a file rewritten with the same meaning still
 * matches. Pure.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 *
 * declare const found: { agents: AgentDefinition[] }; // a discovery
 * declare const laterAgent: AgentDefinition; // "explore", read again later
 * const set = agentFingerprints(found.agents);
 * changedSince(set, laterAgent); // 'Agent "explore" changed during this run (/p/.xcsh/agents/explore.md)'
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";
import { sha256Hex } from "../runtime.ts";

/** JSON with object keys sorted, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // One string built by appending (every task's start fingerprints every agent).
  let out = "";
  const write = (v: unknown): void => {
    if (typeof v !== "object" || v === null) {
      out += JSON.stringify(v) ?? "null";
    } else if (Array.isArray(v)) {
      out += "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ",";
        write(v[i]);
      }
      out += "]";
    } else {
      // Default sort order is by UTF-16 code units, as `<` compares.
      const keys = Object.keys(v).sort();
      const record = v as Record<string, unknown>;
      out += "{";
      let first = true;
      for (const k of keys) {
        if (record[k] === undefined) continue;
        if (!first) out += ",";
        first = false;
        out += JSON.stringify(k) + ":";
        write(record[k]);
      }
      out += "}";
    }
  };
  write(value);
  return out;
}

/** One agent's fingerprint. */
export function agentFingerprint(agent: AgentDefinition): string {
  return sha256Hex(canonicalJson(agent)).slice(0, 32);
}

/** Fingerprints of every agent, by name. */
export function agentFingerprints(agents: readonly AgentDefinition[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of agents) out[a.name] = agentFingerprint(a);
  return out;
}

/**
 * Why `agent` (as discovered now) may not run under a run that started with
 * `set`, or undefined when it is the same definition.
 */
export function changedSince(
  set: Readonly<Record<string, string>>,
  agent: AgentDefinition,
): string | undefined {
  const where = agent.filePath ? ` (${agent.filePath})` : "";
  if (!Object.hasOwn(set, agent.name)) {
    return `Agent "${agent.name}" was added during this run${where}`;
  }
  if (set[agent.name] !== agentFingerprint(agent)) {
    return `Agent "${agent.name}" changed during this run${where}`;
  }
  return undefined;
}
