/**
 * Which memory a child of an agent keeps: the agent's memory folder (made
 * when missing, `agent-memory.ts`) and the head of its `MEMORY.md`, or none,
 * with a warning when the agent asked for memory it cannot have. A
 * repository's agent keeps a folder outside its project only once the
 * project is trusted.
 *
 * @module
 */
import { claudeHome, type DiscoveryEnv } from "../discovery/config-dirs.ts";
import { projectRoot } from "../sandbox/project-root.ts";
import type { AgentDefinition, Diagnostic } from "../types.ts";
import { memoryDir, openMemory } from "./agent-memory.ts";
import { agentFileTrusted } from "./agent-file-trust.ts";

/** The memory folder of `agent` and the head of its `MEMORY.md`, or undefined. */
export function childMemory(
  agent: AgentDefinition,
  env: DiscoveryEnv,
  onWarnings?: (warnings: Diagnostic[]) => void,
): { dir: string; head: string } | undefined {
  if (!agent.memory) return undefined;
  const warn = (message: string) =>
    onWarnings?.([{ level: "warning", file: agent.filePath, field: "memory", message }]);
  const where = memoryDir(agent, {
    projectRoot: projectRoot(env.cwd, env.home),
    claudeHome: claudeHome(env.home, env.env),
  });
  if (!where) return undefined;
  if ("error" in where) {
    warn(`${where.error}; the agent runs without memory`);
    return undefined;
  }
  if (agent.memory === "user" && agent.source === "project" && !agentFileTrusted(agent, env)) {
    warn(
      "'memory: user' of a project's agent file is not kept: it would write outside the " +
        "project, which is not trusted (run 'xcsh trust', or use memory: local)",
    );
    return undefined;
  }
  const opened = openMemory(where);
  if ("error" in opened) {
    warn(`${opened.error}; the agent runs without memory`);
    return undefined;
  }
  return opened;
}
