/**
 * Where skill folders are, by name: the folders below a project folder that
 * hold skills, and the user's own. Discovery (`skills.ts`) decides their
 * order; the child's workspace uses these names to keep every skill folder
 * of the project read-only, whether or not its agent loads skills.
 *
 * @example
 * ```ts
 * PROJECT_SKILL_FOLDERS; // [".xcsh/skills", ".claude/skills", ".codex/skills", ".gemini/skills", ".agents/skills"]
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { type DiscoveryEnv, FAMILIES, userConfigDirs } from "./config-dirs.ts";

/** The skill folders of a project folder, relative to it. */
export const PROJECT_SKILL_FOLDERS: readonly string[] = [
  ...FAMILIES.map((f) => join(`.${f}`, "skills")),
  join(".agents", "skills"),
];

/** The user's skill folders (plugins' aside). */
export function userSkillFolders(e: Pick<DiscoveryEnv, "home" | "env">): string[] {
  if (!e.home) return [];
  return [...userConfigDirs("skills", e).map((d) => d.path), join(e.home, ".agents", "skills")];
}
