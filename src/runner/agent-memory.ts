/**
 * Where an agent's memory folder is (`memory:` in its file), laid out as
 * Claude Code lays it: `user` in `~/.claude/agent-memory/<name>/`, `project`
 * in `<project>/.claude/agent-memory/<name>/`, `local` in
 * `<project>/.claude/agent-memory-local/<name>/`; and what of its
 * `MEMORY.md` goes in the prompt (the first 200 lines). A repository's agent
 * file may not have a folder outside its project until the project is
 * trusted: that would widen what the agent may write. The folder is made
 * when missing.
 *
 * @example
 * ```ts
 * memoryDir({ name: "rev", memory: "local" }, { projectRoot: "/p", claudeHome: "/h/.claude" });
 * // "/p/.claude/agent-memory-local/rev"
 * ```
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MAX_SETTINGS_FILE_BYTES, readCappedSync } from "../fs/file-safety.ts";
import type { AgentDefinition } from "../types.ts";
import { isAgentName } from "../discovery/agent-name.ts";

/** Lines of `MEMORY.md` the prompt holds. */
export const MEMORY_HEAD_LINES = 200;

/** The memory folder of `agent`, or why it has none. Pure. */
export function memoryDir(
  agent: Pick<AgentDefinition, "name" | "memory">,
  at: { projectRoot: string; claudeHome: string },
): { dir: string } | { error: string } | undefined {
  if (!agent.memory) return undefined;
  // Discovery lets no other name through; checked again because the folder is made.
  if (!isAgentName(agent.name) || agent.name.includes("..")) {
    return { error: `the name "${agent.name}" cannot name a memory folder` };
  }
  if (agent.memory === "user") return { dir: join(at.claudeHome, "agent-memory", agent.name) };
  const sub = agent.memory === "project" ? "agent-memory" : "agent-memory-local";
  return { dir: join(at.projectRoot, ".claude", sub, agent.name) };
}

/** The first lines of `text`, at most {@link MEMORY_HEAD_LINES}. Pure. */
export function memoryHead(text: string): string {
  const lines = text.split("\n");
  const head = lines.slice(0, MEMORY_HEAD_LINES).join("\n").trimEnd();
  return lines.length > MEMORY_HEAD_LINES
    ? `${head}\n[… ${lines.length - MEMORY_HEAD_LINES} more lines in MEMORY.md]`
    : head;
}

/** Makes `dir` when missing and reads the head of its `MEMORY.md` ("" when there is none). */
export function openMemory(dir: string): { head: string } | { error: string } {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    return { error: `cannot make ${dir}: ${(err as Error).message}` };
  }
  const r = readCappedSync(join(dir, "MEMORY.md"), MAX_SETTINGS_FILE_BYTES);
  if (!r.ok) return r.code === "ENOENT" ? { head: "" } : { error: `MEMORY.md ${r.reason}` };
  return { head: memoryHead(new TextDecoder().decode(r.bytes)) };
}
