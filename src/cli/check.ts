/**
 * `xcsh agents check [PATH...]`: lints the given files and folders, or every
 * file discovery would read, notes the models that will not run as written
 * with this config and environment, and exits 1 when an error (a file that
 * cannot load or run) is found.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { writeOut } from "../text/stdio.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_FAILURE, EXIT_OK } from "./errors.ts";
import { printJson } from "./output.ts";
import { checkAgentNeeds } from "./check-needs.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { type FileOutcome, lintAgentFiles } from "../discovery/lint.ts";
import { readSourceFile } from "../discovery/read-files.ts";
import { agentOrigins } from "../discovery/discover.ts";
import { agentOutcome, readAgentFolder } from "../discovery/cached-parse.ts";
import { discoverSkills } from "../discovery/skills.ts";
import type { AgentDefinition, AgentFamily, Diagnostic } from "../types.ts";
import { loadConfig } from "../config/load.ts";
import { resolveModel } from "../model/resolve.ts";
import { modelVariable } from "../protocol/variables.ts";

/** Guesses the family of a file from its path, for display and `.toml` handling. */
function familyOf(path: string): AgentFamily {
  const m = /\/\.(xcsh|claude|codex|gemini)\//.exec(path);
  return (m?.[1] as AgentFamily | undefined) ?? (path.endsWith(".toml") ? "codex" : "xcsh");
}

async function outcomesOfFolder(
  dir: string,
  family: AgentFamily,
  plugin?: string,
): Promise<{ outcomes: FileOutcome[]; warnings: Diagnostic[] }> {
  const { folder, outcomes } = await readAgentFolder(dir, { family, source: "project", plugin });
  return { outcomes, warnings: folder.warnings };
}

async function outcomesOfPaths(
  paths: string[],
): Promise<{ outcomes: FileOutcome[]; warnings: Diagnostic[] }> {
  const outcomes: FileOutcome[] = [];
  const warnings: Diagnostic[] = [];
  for (const p of paths) {
    const path = resolve(p);
    let isDir = false;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (err) {
      warnings.push({
        level: "error",
        file: p,
        message: `cannot read: ${(err as Error).message.split(":")[0]}`,
      });
      continue;
    }
    if (isDir) {
      const r = await outcomesOfFolder(path, familyOf(path + "/"));
      outcomes.push(...r.outcomes);
      warnings.push(...r.warnings);
      continue;
    }
    const read = await readSourceFile(path);
    if (typeof read === "string") {
      warnings.push({ level: "error", file: path, message: `skipped: ${read}` });
      continue;
    }
    if (!/\.(md|toml)$/.test(basename(path))) {
      warnings.push({
        level: "warning",
        file: path,
        message: "not a .md or .toml file; discovery would not read it",
      });
    }
    const origin = { family: familyOf(path), source: "project" as const };
    outcomes.push(await agentOutcome({ path, text: read.text }, origin));
  }
  return { outcomes, warnings };
}

/** An `output` no child could validate against is an error (loads the validator only when needed). */
async function checkOutputSchemas(outcomes: readonly FileOutcome[]): Promise<Diagnostic[]> {
  const withSchema = outcomes.filter((o) => o.agent?.output !== undefined);
  if (withSchema.length === 0) return [];
  const { compileOutputSchema } = await import("../schema/output-schema.ts");
  const out: Diagnostic[] = [];
  for (const o of withSchema) {
    const compiled = compileOutputSchema(o.agent!.output);
    if (!compiled.ok) {
      out.push({ level: "error", file: o.path, field: "output", message: compiled.error });
    }
  }
  return out;
}

export async function checkCommand(
  paths: string[],
  cwdFlag: string | undefined,
  json: boolean,
): Promise<number> {
  const env = discoveryEnv(cwdFlag);
  let read: { outcomes: FileOutcome[]; warnings: Diagnostic[] };
  if (paths.length > 0) {
    read = await outcomesOfPaths(paths);
  } else {
    const { origins, plugins, warnings: walked } = agentOrigins(env);
    const parts = await Promise.all(
      origins.map((o) => outcomesOfFolder(o.path, o.family, o.plugin)),
    );
    read = {
      outcomes: parts.flatMap((p) => p.outcomes),
      warnings: [...walked, ...plugins.warnings, ...parts.flatMap((p) => p.warnings)],
    };
  }
  const loaded = await loadConfig(env.cwd, env.home);
  const modelProblem = loaded.ok
    ? (a: AgentDefinition): string | undefined => {
      const r = resolveModel({
        agentName: a.name,
        agentModels: a.model,
        config: loaded.config,
        env: env.env,
        envModel: modelVariable(env.env),
      });
      if (r.ok) return r.value.note;
      // Said per model, without the agent's name, so that agents asking for
      // the same model share one line.
      if (!r.tried) return r.error;
      return `${a.model!.join(", ")} will not run here: ${
        r.tried.map((t) => `${t.what} (${t.why})`).join("; ")
      }`;
    }
    : undefined;
  // Skills are looked up only when some agent preloads one.
  const wantsSkills = read.outcomes.some((o) => (o.agent?.skills ?? []).length > 0);
  const skills = wantsSkills
    ? new Set((await discoverSkills(env)).skills.map((s) => s.name))
    : undefined;
  const report = lintAgentFiles(read.outcomes, { modelProblem, ...(skills ? { skills } : {}) });
  const folderProblems = read.warnings.map((w): Diagnostic => ({ ...w, level: "error" }));
  const schemaProblems = await checkOutputSchemas(read.outcomes);
  const needProblems = await checkAgentNeeds(read.outcomes, env);
  const diagnostics = [
    ...folderProblems,
    ...report.diagnostics,
    ...schemaProblems,
    ...needProblems,
  ];
  const errors = report.errors + folderProblems.length + schemaProblems.length;
  const warnings = report.warnings + needProblems.length;
  if (json) {
    printJson({
      version: 1,
      files: read.outcomes.map((o) => ({
        path: o.path,
        name: o.agent?.name ?? null,
        ok: o.agent !== undefined,
      })),
      diagnostics,
      errors,
      warnings,
    });
  } else {
    for (const d of diagnostics) {
      writeOut(formatDiagnostic(d).replace(/^xcsh: /, "") + "\n");
    }
    const n = read.outcomes.length;
    writeOut(
      `checked ${n} file${n === 1 ? "" : "s"}: ${errors} error${
        errors === 1 ? "" : "s"
      }, ${warnings} warning${warnings === 1 ? "" : "s"}\n`,
    );
  }
  return errors > 0 ? EXIT_FAILURE : EXIT_OK;
}
