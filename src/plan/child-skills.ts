/**
 * Which skills a child may load and which it starts with: every skill found
 * here that the model may invoke, when its tools include `skill`; and the
 * bodies of those its agent preloads (`skills:`), a name that matches no
 * skill being a warning. Skills are discovered only when either is needed.
 *
 * @module
 */
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { AgentDefinition, Diagnostic, SkillRef } from "../types.ts";

/** Where the skills are looked for, and who hears about problems. */
export interface ChildSkillsInputs {
  env: DiscoveryEnv;
  /** Discovery's warnings about skill files. */
  onDiscoveryWarnings?: (warnings: Diagnostic[]) => void;
  /** Warnings about the agent's `skills:` and the skills it preloads. */
  onWarnings?: (warnings: Diagnostic[]) => void;
}

/** The skills a child of `agent` may load (`mayLoad`: it has `skill`) and those it preloads. */
export async function childSkills(
  agent: AgentDefinition,
  mayLoad: boolean,
  i: ChildSkillsInputs,
): Promise<{ refs: SkillRef[]; preloaded: { name: string; body: string }[] }> {
  const wanted = agent.skills ?? [];
  if (!mayLoad && wanted.length === 0) return { refs: [], preloaded: [] };
  const { discoverSkills, readSkillBody } = await import("../discovery/skills.ts");
  const found = await discoverSkills(i.env);
  (i.onDiscoveryWarnings ?? i.onWarnings)?.(found.warnings);
  const preloaded: { name: string; body: string }[] = [];
  const warnings: Diagnostic[] = [];
  for (const name of wanted) {
    const skill = found.skills.find((s) => s.name === name);
    if (!skill) {
      warnings.push({
        level: "warning",
        file: agent.filePath,
        field: "skills",
        message: `'skills' names '${name}', which is no skill found here (xcsh skills lists them)`,
      });
      continue;
    }
    const read = await readSkillBody(skill.filePath);
    if ("error" in read) {
      warnings.push({ level: "warning", file: skill.filePath, message: read.error });
    } else preloaded.push({ name, body: read.body });
  }
  if (warnings.length > 0) i.onWarnings?.(warnings);
  // `disable-model-invocation`: never offered to the model, only preloaded.
  const refs = mayLoad
    ? found.skills.filter((s) => s.disableModelInvocation !== true).map((s) => ({
      name: s.name,
      description: s.description,
      filePath: s.filePath,
    }))
    : [];
  return { refs, preloaded };
}
