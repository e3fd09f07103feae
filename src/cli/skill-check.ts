/**
 * `xcsh skills check [PATH...]`: reads the given skill folders, `SKILL.md`
 * files and folders of skills (looked into recursively), or every skill
 * discovery would read, and says what it found: a skill that cannot load
 * (no `SKILL.md`, too large, not UTF-8, no description, a folder refused by
 * confinement) is an error and the exit status is 1, as `agents check`'s;
 * a name that fell back to its folder's, and frontmatter keys outside the
 * Agent Skills specification and Claude Code's documented ones, are
 * warnings.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { writeOut } from "../text/stdio.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { EXIT_FAILURE, EXIT_OK } from "./errors.ts";
import { printJson } from "./output.ts";
import { discoveryEnv } from "./context.ts";
import { discoverSkills, readSkillFolder, type SkillFolder } from "../discovery/skills.ts";
import type { Diagnostic, SkillDefinition } from "../types.ts";

/** What reading the given paths found. */
async function readPaths(
  paths: readonly string[],
): Promise<{ skills: SkillDefinition[]; warnings: Diagnostic[] }> {
  const skills: SkillDefinition[] = [];
  const warnings: Diagnostic[] = [];
  for (const p of paths) {
    let path = resolve(p);
    let info;
    try {
      info = await stat(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
      warnings.push({ level: "error", file: p, message: `skipped: cannot read (${code})` });
      continue;
    }
    if (!info.isDirectory()) {
      if (basename(path) !== "SKILL.md") {
        warnings.push({ level: "error", file: p, message: "skipped: not a SKILL.md or a folder" });
        continue;
      }
      path = dirname(path);
    }
    const one = await stat(resolve(path, "SKILL.md")).then(() => true, () => false);
    const folder: SkillFolder = one
      ? {
        path: dirname(path),
        anchor: dirname(path),
        source: "project",
        family: "agents",
        only: basename(path),
      }
      : { path, anchor: path, source: "project", family: "agents", recursive: true };
    const r = await readSkillFolder(folder);
    if (r.skills.length === 0 && r.warnings.length === 0) {
      warnings.push({ level: "error", file: p, message: "skipped: no SKILL.md found there" });
    }
    skills.push(...r.skills);
    warnings.push(...r.warnings);
  }
  return { skills, warnings };
}

/** A skill's unknown frontmatter keys, as a warning. */
function unknownKeys(s: SkillDefinition): Diagnostic[] {
  if (!s.unknownKeys || s.unknownKeys.length === 0) return [];
  const keys = s.unknownKeys.map((k) => `'${k}'`).join(", ");
  return [{
    level: "warning",
    file: s.filePath,
    message: `${keys}: not in the Agent Skills specification nor among Claude Code's keys; ` +
      "ignored",
  }];
}

export async function skillCheckCommand(
  paths: string[],
  cwdFlag: string | undefined,
  json: boolean,
): Promise<number> {
  let read: { skills: SkillDefinition[]; warnings: Diagnostic[] };
  if (paths.length > 0) read = await readPaths(paths);
  else {
    const found = await discoverSkills(discoveryEnv(cwdFlag));
    read = {
      skills: [...found.skills, ...found.shadowed.map((s) => s.agent)],
      warnings: found.warnings,
    };
  }
  // A skill that cannot load is an error; anything else said of a file is a warning.
  const diagnostics: Diagnostic[] = [
    ...read.warnings.map((w): Diagnostic =>
      w.level === "error" || w.message.startsWith("skipped:") ? { ...w, level: "error" } : w
    ),
    ...read.skills.flatMap(unknownKeys),
  ];
  const errors = diagnostics.filter((d) => d.level === "error").length;
  const warnings = diagnostics.length - errors;
  if (json) {
    printJson({
      version: 1,
      skills: read.skills.map((s) => ({ name: s.name, filePath: s.filePath })),
      diagnostics,
      errors,
      warnings,
    });
  } else {
    for (const d of diagnostics) writeOut(formatDiagnostic(d).replace(/^xcsh: /, "") + "\n");
    const n = read.skills.length;
    writeOut(
      `checked ${n} skill${n === 1 ? "" : "s"}: ${errors} error${errors === 1 ? "" : "s"}, ` +
        `${warnings} warning${warnings === 1 ? "" : "s"}\n`,
    );
  }
  return errors > 0 ? EXIT_FAILURE : EXIT_OK;
}
