/**
 * What `xcsh agents check` reports about a set of agent files.
 *
 * Decides severities: a file that does not load, an unknown tool name, an
 * unknown thinking level or any dropped field, and two files of one folder
 * defining the same name are errors; YAML read through the `key: value`
 * fallback is a warning (the file loads, but strict YAML tools will reject
 * it). Pure: it judges parse results, it reads nothing.
 *
 * @module
 */
import { dirname } from "node:path";
import type { AgentDefinition, Diagnostic } from "../types.ts";

/** One file's parse outcome, as discovery produced it. */
export interface FileOutcome {
  path: string;
  agent?: AgentDefinition;
  /** Warnings from parsing (skips included, with messages starting `skipped:`). */
  warnings: Diagnostic[];
}

export interface LintReport {
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
}

const FALLBACK = /^invalid YAML frontmatter/;

/** Judges parse outcomes in the order given. */
export function lintAgentFiles(files: readonly FileOutcome[]): LintReport {
  const diagnostics: Diagnostic[] = [];
  for (const f of files) {
    for (const w of f.warnings) {
      const isFallback = FALLBACK.test(w.message) && f.agent !== undefined;
      diagnostics.push({ ...w, file: w.file ?? f.path, level: isFallback ? "warning" : "error" });
    }
    if (f.agent?.unknownTools?.length) {
      diagnostics.push({
        level: "error",
        file: f.path,
        field: "tools",
        message: `unknown tool name(s) ${f.agent.unknownTools.join(", ")}: they grant nothing`,
      });
    }
  }
  const seen = new Map<string, string>();
  for (const f of files) {
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
