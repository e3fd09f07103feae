/**
 * Where an agent's memory folder is (`memory:` in its file), laid out as
 * Claude Code lays it: `user` in `~/.claude/agent-memory/<name>/`, `project`
 * in `<project>/.claude/agent-memory/<name>/`, `local` in
 * `<project>/.claude/agent-memory-local/<name>/`; and what of its
 * `MEMORY.md` goes in the prompt (the first 200 lines). A repository's agent
 * file may not have a folder outside its project until the project is
 * trusted: that would widen what the agent may write. The folder is made
 * when missing, and opened only where it belongs (`fs/confined-folder.ts`):
 * the project's inside the project, the user's inside the user's Claude
 * folder, with no symlink on the way; a `MEMORY.md` leading out of its folder
 * is not read.
 *
 * @example
 * ```ts
 * memoryDir({ name: "rev", memory: "local" }, { projectRoot: "/p", claudeHome: "/h/.claude" });
 * // { dir: "/p/.claude/agent-memory-local/rev", anchor: "/p",
 * //   rel: ".claude/agent-memory-local/rev", where: "the project" }
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { confinedFolder, fileInside } from "../fs/confined-folder.ts";
import { MAX_SETTINGS_FILE_BYTES, readCappedSync } from "../fs/file-safety.ts";
import type { AgentDefinition } from "../types.ts";
import { isAgentName } from "../discovery/agent-name.ts";

/** Lines of `MEMORY.md` the prompt holds. */
export const MEMORY_HEAD_LINES = 200;

/** Where a memory folder is: `rel` below `anchor`, the place it belongs (`where`). */
export interface MemoryPlace {
  dir: string;
  anchor: string;
  rel: string;
  where: string;
}

/** The memory folder of `agent`, or why it has none. Pure. */
export function memoryDir(
  agent: Pick<AgentDefinition, "name" | "memory">,
  at: { projectRoot: string; claudeHome: string },
): MemoryPlace | { error: string } | undefined {
  if (!agent.memory) return undefined;
  // Discovery lets no other name through; checked again because the folder is made.
  if (!isAgentName(agent.name) || agent.name.includes("..")) {
    return { error: `the name "${agent.name}" cannot name a memory folder` };
  }
  const [anchor, rel, where] = agent.memory === "user"
    ? [at.claudeHome, join("agent-memory", agent.name), at.claudeHome]
    : [
      at.projectRoot,
      join(
        ".claude",
        agent.memory === "project" ? "agent-memory" : "agent-memory-local",
        agent.name,
      ),
      "the project",
    ];
  return { dir: join(anchor, rel), anchor, rel, where };
}

/** The first lines of `text`, at most {@link MEMORY_HEAD_LINES}. Pure. */
export function memoryHead(text: string): string {
  const lines = text.split("\n");
  const head = lines.slice(0, MEMORY_HEAD_LINES).join("\n").trimEnd();
  return lines.length > MEMORY_HEAD_LINES
    ? `${head}\n[… ${lines.length - MEMORY_HEAD_LINES} more lines in MEMORY.md]`
    : head;
}

/**
 * Makes the folder of `place` when missing (refusing a symlink on the way)
 * and reads the head of its `MEMORY.md` ("" when there is none). `dir` is the
 * folder's real path.
 */
export function openMemory(
  place: Pick<MemoryPlace, "anchor" | "rel" | "where">,
): { dir: string; head: string } | { error: string } {
  const folder = confinedFolder(place.anchor, place.rel, {
    kind: "memory",
    where: place.where,
    make: true,
  });
  if (!folder.ok) return { error: folder.error };
  const dir = folder.value.path;
  const file = fileInside(folder.value, "MEMORY.md");
  if (!file.ok) return file.missing ? { dir, head: "" } : { error: file.error };
  const r = readCappedSync(file.path, MAX_SETTINGS_FILE_BYTES);
  if (!r.ok) return r.code === "ENOENT" ? { dir, head: "" } : { error: `MEMORY.md ${r.reason}` };
  return { dir, head: memoryHead(new TextDecoder().decode(r.bytes)) };
}
