/**
 * `xcsh skills`: lists the Agent Skills found (name, where, description);
 * `skills show NAME` prints one skill's instructions and files.
 *
 * @module
 */
import process from "node:process";
import { dirname } from "node:path";
import { writeErr, writeOut } from "../text/stdio.ts";
import { LISTING_FLAGS, parseFlags, showTarget } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK, EXIT_USAGE } from "./errors.ts";
import {
  isVerbose,
  printDescribedListing,
  printJson,
  reportDiscoveryWarnings,
  unknownNameExit,
} from "./output.ts";
import { discoverSkills, readSkillBody } from "../discovery/skills.ts";
import { listSkillFiles } from "../tools/skill.ts";
import type { SkillDefinition } from "../types.ts";

const HELP = `Usage:
  xcsh skills [--all] [--json] [--cwd DIR]
  xcsh skills show NAME [--json] [--cwd DIR]
  xcsh skills check [PATH...] [--json] [--cwd DIR]

Agent Skills are folders holding a SKILL.md, found in .xcsh/skills,
.claude/skills, .agents/skills, .codex/skills and .gemini/skills (the user's
own, then the nearest in the project; Codex's and .agents/skills looked into
recursively) and in Claude plugins' skills/ (named plugin:skill). A task's
model sees each skill's name and description, within a budget of about 1 %
of its context window, and loads one with its 'skill' tool;
disable-model-invocation skills it never sees. An agent's 'skills:' field
preloads them. 'skills check' reads the given skill folders (or every skill
found) and exits 1 when one cannot load.

  --all       also list skills hidden by a higher-precedence one of the same name
  --json      machine-readable output
  --verbose   print every warning about skill files (default: one summary line)
  --cwd DIR   discover as if run from DIR (default: the current directory)
`;

const FLAGS = LISTING_FLAGS;

function summary(s: SkillDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: s.name,
    description: s.description,
    source: s.source,
    family: s.family,
    filePath: s.filePath,
  };
  if (s.plugin) out.plugin = s.plugin;
  if (s.license) out.license = s.license;
  if (s.compatibility) out.compatibility = s.compatibility;
  if (s.metadata) out.metadata = s.metadata;
  if (s.allowedTools) out.allowedTools = s.allowedTools;
  if (s.disableModelInvocation) out.disableModelInvocation = true;
  return out;
}

export async function skillsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("skills", args, FLAGS);
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  if (positionals[0] === "check") {
    const { skillCheckCommand } = await import("./skill-check.ts");
    return skillCheckCommand(positionals.slice(1), values.cwd, values.json === true);
  }
  const { show } = showTarget("skills", "skill", positionals);
  const found = await discoverSkills(discoveryEnv(values.cwd));
  reportDiscoveryWarnings(found.warnings, isVerbose(values.verbose, process.env), "skill");
  if (show) {
    const { name } = show;
    const skill = found.skills.find((s) => s.name === name);
    if (!skill) {
      return unknownNameExit("skill", "skills", name, found.skills.map((s) => s.name));
    }
    const read = await readSkillBody(skill.filePath);
    if ("error" in read) {
      writeErr(`xcsh: ${read.error}\n`);
      return EXIT_USAGE;
    }
    const files = listSkillFiles(dirname(skill.filePath));
    if (values.json) {
      printJson({ version: 1, skill: { ...summary(skill), body: read.body, files } });
    } else {
      writeOut(
        [
          `name:         ${skill.name}`,
          `description:  ${skill.description}`,
          `file:         ${skill.filePath}`,
          `files:        ${files.join(", ")}`,
          "",
          read.body,
          "",
        ].join("\n"),
      );
    }
    return EXIT_OK;
  }
  printDescribedListing("skills", found.skills, found.shadowed, {
    all: values.all === true,
    json: values.json === true,
    summary,
  });
  return EXIT_OK;
}
