/**
 * Gathers a task call's `promptContext` once, in the parent: the instruction
 * files (`context-files.ts` says which and in what order; `context-read.ts`
 * reads each safely) and the environment facts. Every child of the call gets
 * the same value in its envelope; children never read these files themselves.
 * A file that cannot be used is skipped with one warning naming it.
 *
 * @example
 * ```ts
 * const { context, warnings } = await gatherPromptContext({ cwd, home, env, files: true });
 * ```
 *
 * @module
 */
import { statSync } from "node:fs";
import type { Diagnostic, PromptContext } from "../types.ts";
import { contextCandidates, fitContext, type FolderProbe } from "./context-files.ts";
import { readContextFile } from "./context-read.ts";
import { environmentFacts } from "./environment-facts.ts";

/** Folder checks on the real file system. */
export const REAL_PROBE: FolderProbe = {
  exists: (path) => {
    try {
      return statSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  },
  isFolder: (path) => {
    try {
      return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      return false;
    }
  },
};

export interface GatherOptions {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** False when the agent opted out of instruction files. */
  files: boolean;
  probe?: FolderProbe;
  now?: Date;
}

export interface Gathered {
  context: PromptContext;
  warnings: Diagnostic[];
  /** Files left out because an earlier one had the same text. */
  duplicates: string[];
}

/** Reads the instruction files and the environment facts for one task call. */
export async function gatherPromptContext(o: GatherOptions): Promise<Gathered> {
  const warnings: Diagnostic[] = [];
  const gitNotes: string[] = [];
  const candidates = o.files ? contextCandidates(o.cwd, o.home, o.env, o.probe ?? REAL_PROBE) : [];
  const [reads, environment] = await Promise.all([
    Promise.all(candidates.map((c) => readContextFile(c.path))),
    environmentFacts(o.cwd, o.env, o.now, o.home, gitNotes),
  ]);
  for (const note of gitNotes) {
    warnings.push({ level: "warning", message: `git facts left out of the prompt: ${note}` });
  }
  const found = candidates.flatMap((c, i) => {
    const r = reads[i];
    if (r.kind === "skipped") {
      warnings.push({
        level: "warning",
        file: c.path,
        message: `instruction file skipped: it ${r.reason}`,
      });
    }
    return r.kind === "text" ? [{ path: c.path, scope: c.scope, text: r.text }] : [];
  });
  const fitted = fitContext(found);
  const context: PromptContext = { version: 1, files: fitted.files, environment };
  if (fitted.note) context.note = fitted.note;
  return { context, warnings, duplicates: fitted.duplicates };
}
