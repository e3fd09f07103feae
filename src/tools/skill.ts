/**
 * The `skill` tool: progressive disclosure of Agent Skills. The prompt lists
 * each skill's name and description; a call loads one skill's instructions
 * (its `SKILL.md` body) and lists the files of its folder, which the model
 * reads with the ordinary `read` tool (the skills' folders are readable,
 * never writable). Nothing in a skill runs by itself: its scripts are files
 * like any other.
 *
 * @example
 * ```ts
 * listSkillFiles("/home/u/.claude/skills/pdf"); // ["SKILL.md", "scripts/fill.py", "reference.md"]
 * ```
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { readSkillBody } from "../discovery/skills.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";
import { toolError, type ToolSpec } from "./tool-spec.ts";

/** Files listed for one skill, at most. */
export const MAX_SKILL_FILES = 200;

/** The files of a skill's folder, relative, breadth first, at most {@link MAX_SKILL_FILES}. */
export function listSkillFiles(dir: string, max = MAX_SKILL_FILES): string[] {
  const out: string[] = [];
  const queue = [""];
  while (queue.length > 0 && out.length < max) {
    const rel = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!e.name.startsWith(".")) queue.push(path);
      } else if (out.length < max) out.push(path);
    }
  }
  return out;
}

export const skillTool: ToolSpec = {
  name: "skill",
  readOnly: TOOL_READ_ONLY.skill,
  description: "Load one of the skills listed in your instructions: returns its instructions " +
    "and the files of its folder (read those with the read tool when the instructions " +
    "point to them). Load a skill when its description fits the task.",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", description: "The skill's name, as listed." } },
    required: ["name"],
    additionalProperties: false,
  },
  async run(args: { name: string }, ctx) {
    const skills = ctx.skills ?? [];
    const skill = skills.find((s) => s.name === args.name);
    if (!skill) {
      return toolError(
        `no skill '${args.name}'. Skills: ${skills.map((s) => s.name).join(", ") || "none"}`,
      );
    }
    const read = await readSkillBody(skill.filePath);
    if ("error" in read) return toolError(read.error);
    const dir = dirname(skill.filePath);
    const files = listSkillFiles(dir);
    const output = [
      `Skill: ${skill.name}`,
      `Folder: ${dir}`,
      "",
      read.body,
      "",
      `Files (${files.length}${files.length >= MAX_SKILL_FILES ? "+" : ""}):`,
      ...files.map((f) => `- ${join(dir, f)}`),
    ].join("\n");
    return { ok: true, output, summary: `loaded skill ${skill.name} (${files.length} files)` };
  },
};
