/**
 * What `xcsh agents check` reports about a set of agent files.
 *
 * Decides severities: errors are only what stops a file from loading or
 * running — a file that does not load, and a second file of one folder
 * defining the same name (it is ignored). Everything about a file that loads
 * is a warning (except an agent that cannot run, such as a remote one): a
 * dropped field, a key xcsh does not use (listed once per key), YAML read through the `key: value`
 * fallback, an empty `tools`. Tool names that mean no xcsh tool (known names
 * come from the tool-name table, so a tool added there stops being reported)
 * and models that will not run here are listed once per name, with the
 * agents asking for it. Pure: it judges parse results, it reads nothing.
 *
 * @module
 */
import { dirname } from "node:path";
import type { AgentDefinition, Diagnostic } from "../types.ts";
import { IGNORED_FIELDS } from "./field-catalogue.ts";

/** One file's parse outcome, as discovery produced it. */
export interface FileOutcome {
  path: string;
  agent?: AgentDefinition;
  /** The file's other agents (a list of remote agents). */
  more?: AgentDefinition[];
  /** Warnings from parsing (skips included, with messages starting `skipped:`). */
  warnings: Diagnostic[];
}

/** A diagnostic about several files at once lists them. */
export type LintDiagnostic = Diagnostic & { files?: string[] };

export interface LintReport {
  diagnostics: LintDiagnostic[];
  errors: number;
  warnings: number;
}

export interface LintOptions {
  /**
   * Why an agent's model will not run as written here (a fallback note or
   * an error), or undefined when it will; agents without a `model` are not asked.
   */
  modelProblem?: (agent: AgentDefinition) => string | undefined;
  /** The names of the skills found here: a `skills:` entry naming none is a warning. */
  skills?: ReadonlySet<string>;
}

/** Agent names shown in a grouped message before "and N more". */
const SHOWN_NAMES = 5;

function agentList(agents: readonly AgentDefinition[]): string {
  const names = agents.slice(0, SHOWN_NAMES).map((a) => a.name).join(", ");
  const more = agents.length > SHOWN_NAMES ? ` and ${agents.length - SHOWN_NAMES} more` : "";
  return `${agents.length} agent${agents.length === 1 ? "" : "s"}: ${names}${more}`;
}

/** Adds `agent` to the group of `key`, keeping first-seen order. */
function group(
  groups: Map<string, AgentDefinition[]>,
  key: string,
  agent: AgentDefinition,
): void {
  const list = groups.get(key);
  if (list) list.push(agent);
  else groups.set(key, [agent]);
}

function files(agents: readonly AgentDefinition[]): string[] {
  return agents.flatMap((a) => a.filePath ? [a.filePath] : []);
}

/** Judges parse outcomes in the order given. */
export function lintAgentFiles(
  outcomes: readonly FileOutcome[],
  opts: LintOptions = {},
): LintReport {
  const diagnostics: LintDiagnostic[] = [];
  const unknownTools = new Map<string, AgentDefinition[]>();
  const models = new Map<string, AgentDefinition[]>();
  const ignored = new Map<string, AgentDefinition[]>();
  const missingSkills = new Map<string, AgentDefinition[]>();
  for (const f of outcomes) {
    for (const w of f.warnings) {
      // A file that loads has warnings; one that does not has errors.
      const level = f.agent !== undefined ? "warning" : "error";
      diagnostics.push({ ...w, file: w.file ?? f.path, level });
    }
    if (!f.agent) continue;
    const agent = f.agent.filePath ? f.agent : { ...f.agent, filePath: f.path };
    for (const tool of agent.unknownTools ?? []) group(unknownTools, tool, agent);
    for (const key of agent.ignoredFields ?? []) group(ignored, key, agent);
    if (opts.skills) {
      for (const s of agent.skills ?? []) if (!opts.skills.has(s)) group(missingSkills, s, agent);
    }
    if (agent.notRunnable) {
      diagnostics.push({
        level: "error",
        file: agent.filePath,
        field: "kind",
        message: `agent '${agent.name}' cannot run: ${agent.notRunnable}`,
      });
    }
    if (agent.model?.length && opts.modelProblem) {
      const problem = opts.modelProblem(agent);
      if (problem) group(models, problem, agent);
    }
  }
  for (const [tool, agents] of unknownTools) {
    diagnostics.push({
      level: "warning",
      field: "tools",
      message: `'${tool}' is not an xcsh tool, so it grants nothing (asked for by ${
        agentList(agents)
      }); the agents run without it`,
      files: files(agents),
    });
  }
  for (const [skill, agents] of missingSkills) {
    diagnostics.push({
      level: "warning",
      field: "skills",
      message: `'${skill}' is no skill found here (preloaded by ${
        agentList(agents)
      }); the agents run without it (xcsh skills lists them)`,
      files: files(agents),
    });
  }
  for (const [key, agents] of ignored) {
    diagnostics.push({
      level: "warning",
      field: key,
      message: `'${key}' is not used by xcsh: ${IGNORED_FIELDS[key]} (${agentList(agents)})`,
      files: files(agents),
    });
  }
  for (const [message, agents] of models) {
    diagnostics.push({
      level: "warning",
      field: "model",
      message: `${message} (${agentList(agents)})`,
      files: files(agents),
    });
  }
  const seen = new Map<string, string>();
  for (const f of outcomes) {
    if (!f.agent) continue;
    const key = `${dirname(f.path)}\0${f.agent.name}`;
    const first = seen.get(key);
    if (first) {
      diagnostics.push({
        level: "error",
        file: f.path,
        field: "name",
        message:
          `name "${f.agent.name}" is already defined by ${first} in the same folder; this file is ignored`,
      });
    } else seen.set(key, f.path);
  }
  const errors = diagnostics.filter((d) => d.level === "error").length;
  return { diagnostics, errors, warnings: diagnostics.length - errors };
}
