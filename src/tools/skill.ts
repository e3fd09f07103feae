/**
 * The `skill` tool: progressive disclosure of Agent Skills. The prompt lists
 * each skill's name and description; a call loads one skill's instructions
 * (its `SKILL.md` body) and lists the files of its folder (past the
 * prompt's budget, a `query` searches the names and descriptions of all), which the model
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
import type { SkillRef } from "../types.ts";

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

/** Matches listed for one query, at most. */
export const MAX_SKILL_MATCHES = 20;

/**
 * The skills of `skills` that `query` fits: every word of it (case aside)
 * in the name or description, best first (more words in the name). Pure.
 */
export function searchSkills<T extends { name: string; description: string }>(
  skills: readonly T[],
  query: string,
): T[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  if (words.length === 0) return [];
  const scored = skills.flatMap((s) => {
    const name = s.name.toLowerCase();
    const text = `${name} ${s.description.toLowerCase()}`;
    const hits = words.filter((w) => text.includes(w)).length;
    if (hits === 0) return [];
    const inName = words.filter((w) => name.includes(w)).length;
    return [{ s, score: hits * 2 + inName }];
  });
  return scored.sort((a, b) => b.score - a.score).map((x) => x.s);
}

export const skillTool: ToolSpec = {
  name: "skill",
  readOnly: TOOL_READ_ONLY.skill,
  description: "Load one of the skills listed in your instructions: returns its instructions " +
    "and the files of its folder (read those with the read tool when the instructions " +
    "point to them). Load a skill when its description fits the task. When the list in " +
    "your instructions is not complete, call it with `query` (words of the job) to find " +
    "skills by name and description, then load one by `name`.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The skill's name, as listed: loads it." },
      query: {
        type: "string",
        description: "Words to search the names and descriptions of every skill for.",
      },
    },
    additionalProperties: false,
  },
  run(args: { name?: string; query?: string }, ctx) {
    const skills = ctx.skills ?? [];
    if (typeof args.name === "string" && args.name !== "") return loadSkill(args.name, skills);
    if (typeof args.query === "string" && args.query.trim() !== "") {
      const found = searchSkills(skills, args.query);
      const shown = found.slice(0, MAX_SKILL_MATCHES);
      const output = found.length === 0
        ? `no skill fits '${args.query}' (${skills.length} skills searched)`
        : [
          `${found.length} skill${found.length === 1 ? "" : "s"} fit '${args.query}'` +
          (found.length > shown.length ? ` (the first ${shown.length} shown)` : "") +
          "; load one by name:",
          ...shown.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, " ")}`),
        ].join("\n");
      return Promise.resolve({
        ok: true,
        output,
        summary: `searched skills for '${args.query}' (${found.length} found)`,
      });
    }
    return Promise.resolve(toolError("give `name` (a skill to load) or `query` (words to search)"));
  },
};

/** Loads skill `name` of `skills`: its instructions and its files. */
async function loadSkill(
  name: string,
  skills: readonly SkillRef[],
): Promise<ReturnType<typeof toolError> | { ok: true; output: string; summary: string }> {
  const skill = skills.find((s) => s.name === name);
  if (!skill) {
    // A few skills are named; many are searched for the name's words.
    if (skills.length <= 30) {
      return toolError(
        `no skill '${name}'. Skills: ${skills.map((s) => s.name).join(", ") || "none"}`,
      );
    }
    const near = searchSkills(skills, name).slice(0, 5).map((s) => s.name);
    return toolError(
      `no skill '${name}'` + (near.length > 0 ? `. Did you mean: ${near.join(", ")}?` : "") +
        ` (${skills.length} skills: search them with \`query\`)`,
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
}
