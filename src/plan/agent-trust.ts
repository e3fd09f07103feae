/**
 * Which of an agent file's own settings apply before the user trusts it.
 *
 * A project's agent file is repository content: until `xcsh trust` recorded
 * the file with its current content (`agentFileTrusted` in `mcp-plan.ts`),
 * it may only tighten what the user's own settings allow. Its `sandbox`
 * (Codex `sandbox_mode`) applies when it is at least as strict as the mode
 * the task would get without it (`read-only` is stricter than
 * `workspace-write`, which is stricter than `off`); a `timeout` above the
 * user's `task.timeout` and a `maxTurns` above the default are ignored. Each
 * agent file loosening something gets one warning naming the file and the
 * fields. Its inline MCP servers (programs it would start) are decided in
 * `mcp-plan.ts` by the same trust. Agents from the user's own folders,
 * plugins and bundled agents apply in full. Pure.
 *
 * {@link trustNeeds} names what `xcsh trust` records a file for: the fields
 * that could start a program or loosen a setting.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 *
 * declare const agent: AgentDefinition; // a project agent asking for `sandbox: off`
 * restrictAgent(agent, { trusted: false, sandbox: "workspace-write", timeout: 600, maxTurns: 50 });
 * // { agent: { ...agent, sandbox: undefined }, warning: { file, message: "'sandbox: off' ignored: …" } }
 * ```
 *
 * @module
 */
import { looserThan } from "../sandbox/mode.ts";
import type { AgentDefinition, Diagnostic, SandboxMode } from "../types.ts";

export interface AgentLimits {
  /** True when the agent's own file is trusted by content (or is not repository content). */
  trusted: boolean;
  /** The mode the task gets without the agent's own `sandbox`. */
  sandbox: SandboxMode;
  /** The user's `task.timeout` (seconds). */
  timeout: number;
  /** The default `maxTurns`. */
  maxTurns: number;
}

/** How the agent's file spells its sandbox field. */
function sandboxField(agent: AgentDefinition): string {
  return agent.family === "codex" ? "sandbox_mode" : "sandbox";
}

/**
 * The fields of `agent` that need trust when it is a project agent: inline
 * MCP servers, a sandbox other than `read-only`, a `timeout` or `maxTurns`,
 * hooks, user-scope memory, acceptance-check commands, a remote (A2A) agent.
 */
export function trustNeeds(agent: AgentDefinition): string[] {
  const out: string[] = [];
  for (const ref of agent.mcpServers ?? []) {
    if (ref.definition) out.push(`mcpServers.${ref.name}`);
  }
  if (agent.sandbox !== undefined && agent.sandbox !== "read-only") {
    out.push(`${sandboxField(agent)}: ${agent.sandbox}`);
  }
  if (agent.timeout !== undefined) out.push("timeout");
  if (agent.maxTurns !== undefined) out.push("maxTurns");
  // Hooks start programs; user-scope memory writes outside the project.
  if (agent.hooks !== undefined && Object.keys(agent.hooks).length > 0) out.push("hooks");
  if (agent.memory === "user") out.push("memory: user");
  // The parent runs an acceptance check's command: a program, like a hook.
  if (agent.accept?.some((c) => c.kind === "cmd")) out.push("accept");
  // A remote agent sends the task to the address its file names.
  if (agent.remote) out.push("kind: remote");
  return out;
}

/** `agent` without the settings it may not use yet, and the warning naming them. */
export function restrictAgent(
  agent: AgentDefinition,
  limits: AgentLimits,
): { agent: AgentDefinition; warning?: Diagnostic } {
  if (agent.source !== "project" || limits.trusted) return { agent };
  const out: AgentDefinition = { ...agent };
  const ignored: [field: string, text: string][] = [];
  if (agent.sandbox !== undefined && looserThan(agent.sandbox, limits.sandbox)) {
    const field = sandboxField(agent);
    ignored.push([field, `'${field}: ${agent.sandbox}' (${limits.sandbox} applies)`]);
    delete out.sandbox;
  }
  if (agent.timeout !== undefined && agent.timeout > limits.timeout) {
    ignored.push(["timeout", `'timeout: ${agent.timeout}' (above task.timeout ${limits.timeout})`]);
    delete out.timeout;
  }
  if (agent.maxTurns !== undefined && agent.maxTurns > limits.maxTurns) {
    ignored.push(["maxTurns", `'maxTurns: ${agent.maxTurns}' (above ${limits.maxTurns})`]);
    delete out.maxTurns;
  }
  if (ignored.length === 0) return { agent };
  return {
    agent: out,
    warning: {
      level: "warning",
      ...(agent.filePath ? { file: agent.filePath } : {}),
      field: ignored[0][0],
      message: `agent '${agent.name}': ${ignored.map(([, t]) => t).join(", ")} ignored: ` +
        "this project agent file is not trusted and may only tighten your settings " +
        "(run 'xcsh trust' after reading it)",
    },
  };
}
