/**
 * The envelope's `promptContext`: its type (the instruction files and
 * environment facts the parent gathered), whether it is well formed (its own
 * `version`, 1; every problem names the field) and how it reads in the
 * child's system prompt. The child only formats the files, in the order
 * given. Pure.
 *
 * @example
 * ```ts
 * formatInstructions([{ path: "/p/AGENTS.md", scope: "project", text: "Use tabs." }]);
 * // "## Instructions from the user and the project\n\n…### /p/AGENTS.md (project)\n\nUse tabs."
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

export const PROMPT_CONTEXT_VERSION = 1;

/** One instruction file, as read by the parent. */
export interface ContextFile {
  /** Absolute path. */
  path: string;
  scope: "user" | "project";
  text: string;
}

/** Facts about where the task runs, for the prompt's environment block. */
export interface EnvironmentFacts {
  /** Today, ISO (`2026-12-01`), local time. */
  date: string;
  os: string;
  shell: string;
  cwd: string;
  /** Absent when `cwd` is not in a git repository (or git is missing). */
  gitBranch?: string;
  /** `git status --short`, capped; absent with `gitBranch`. */
  gitStatus?: string;
}

/** The envelope's `promptContext` (its own version, 1). */
export interface PromptContext {
  version: 1;
  /** In prompt order: the user's, then the project's from its root down. */
  files: ContextFile[];
  /** What the size cap cut, when it cut anything. */
  note?: string;
  environment: EnvironmentFacts;
}

/** A field of `promptContext` that is not what it must be. */
export class PromptContextError extends Error {}

function str(o: Record<string, unknown>, key: string, field: string, optional = false) {
  const v = o[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== "string") throw new PromptContextError(`'${field}' must be a string`);
  return v;
}

/** Checks `promptContext`; absent stays absent. Throws {@link PromptContextError}. */
export function parsePromptContext(v: unknown): PromptContext | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new PromptContextError("'promptContext' must be an object");
  if (v.version !== PROMPT_CONTEXT_VERSION) {
    throw new PromptContextError(
      `'promptContext.version' must be ${PROMPT_CONTEXT_VERSION}, got ${
        JSON.stringify(v.version) ?? "nothing"
      }`,
    );
  }
  if (!Array.isArray(v.files)) {
    throw new PromptContextError("'promptContext.files' must be a list");
  }
  const files = v.files.map((f, i): ContextFile => {
    const at = `promptContext.files[${i}]`;
    if (!isRecord(f)) throw new PromptContextError(`'${at}' must be an object`);
    if (f.scope !== "user" && f.scope !== "project") {
      throw new PromptContextError(`'${at}.scope' must be "user" or "project"`);
    }
    return {
      path: str(f, "path", `${at}.path`)!,
      scope: f.scope,
      text: str(f, "text", `${at}.text`)!,
    };
  });
  const e = v.environment;
  if (!isRecord(e)) throw new PromptContextError("'promptContext.environment' must be an object");
  const at = (k: string) => `promptContext.environment.${k}`;
  const environment: EnvironmentFacts = {
    date: str(e, "date", at("date"))!,
    os: str(e, "os", at("os"))!,
    shell: str(e, "shell", at("shell"))!,
    cwd: str(e, "cwd", at("cwd"))!,
  };
  const branch = str(e, "gitBranch", at("gitBranch"), true);
  const status = str(e, "gitStatus", at("gitStatus"), true);
  if (branch !== undefined) environment.gitBranch = branch;
  if (status !== undefined) environment.gitStatus = status;
  const out: PromptContext = { version: 1, files, environment };
  const note = str(v, "note", "promptContext.note", true);
  if (note !== undefined) out.note = note;
  return out;
}

/** The instructions section, or "" when there are no files and no note. */
export function formatInstructions(files: readonly ContextFile[], note?: string): string {
  if (files.length === 0 && !note) return "";
  const parts = [
    "## Instructions from the user and the project\n\n" +
    "The user's own instruction files come first, then the project's from its root down to " +
    "the working directory: when they disagree, the later, more specific one wins. Follow " +
    "them unless the assignment says otherwise.",
  ];
  for (const f of files) parts.push(`### ${f.path} (${f.scope})\n\n${f.text.trim()}`);
  if (note) parts.push(`(${note})`);
  return parts.join("\n\n");
}

/** The environment block. */
export function formatEnvironment(e: EnvironmentFacts): string {
  const lines = [
    `Date: ${e.date}`,
    `OS: ${e.os}`,
    `Shell: ${e.shell}`,
    `Working directory: ${e.cwd}. Relative paths in tool calls start there.`,
  ];
  if (e.gitBranch !== undefined) {
    lines.push(`Git branch: ${e.gitBranch}`);
    lines.push(`Git status (short):\n\`\`\`\n${e.gitStatus ?? "(unknown)"}\n\`\`\``);
  } else {
    lines.push("Git: not a git repository");
  }
  return `## Environment\n\n${lines.join("\n")}`;
}
