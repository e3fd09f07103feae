/**
 * What one agent definition file gives: its agent, or the reasons it gives
 * none, plus its warnings.
 *
 * Decides how a file is read by its name: `.toml` is a Codex file (mapped by
 * `codex.ts`, its prompt from `developer_instructions`), anything else
 * Markdown with frontmatter (`agent-fields.ts`). A file that gives no agent
 * ends with one warning `skipped: …`, after the warnings it had. Pure: no
 * cache is kept here (`cached-parse.ts` keeps them), and a file that needs
 * a full parser not loaded yet gives a {@link NeedsParser}.
 *
 * @example
 * ```ts
 * const r = parseAgentFile(
 *   { path: "/p/.xcsh/agents/a.md", text: "---\nname: a\ndescription: d\n---\nGo." },
 *   { family: "xcsh", source: "project" },
 * );
 * // r.agent?.name === "a"
 * ```
 *
 * @module
 */
import { codexToFields } from "./codex.ts";
import { isNeedsParser, type NeedsParser } from "../formats/full-parsers.ts";
import { parseAgent, parseAgentFields } from "./agent-fields.ts";
import type { SourceFile } from "./read-files.ts";
import type { AgentDefinition, AgentFamily, AgentSource, Diagnostic } from "../types.ts";

/** Where a file was found: what its agent is labelled with. */
export interface FileOrigin {
  family: AgentFamily;
  source: AgentSource;
  plugin?: string;
}

/** One file's parse: its agent if it gave one, and its warnings. */
export interface FileParse {
  agent?: AgentDefinition;
  /** The file's other agents, when it holds several (Gemini CLI's list of remote agents). */
  more?: AgentDefinition[];
  warnings: Diagnostic[];
  /** Where the agent's prompt is in the file's text (see `prompt-ref.ts`). */
  promptAt?: [number, number];
}

/** A file that gives no agent: its warnings, then why it was skipped. */
function skippedFile(warnings: readonly Diagnostic[], error: Diagnostic): FileParse {
  return {
    warnings: [...warnings, { ...error, level: "warning", message: `skipped: ${error.message}` }],
  };
}

/** Parses one definition file found at `origin`. */
export function parseAgentFile(file: SourceFile, origin: FileOrigin): FileParse | NeedsParser {
  if (file.path.endsWith(".toml")) {
    const mapped = codexToFields(file.text);
    if (isNeedsParser(mapped)) return mapped;
    if (!mapped.ok) {
      return skippedFile([], { level: "error", file: file.path, message: mapped.reason });
    }
    const fields = parseAgentFields(mapped.fields, { file: file.path });
    if (!fields.ok) return skippedFile(fields.warnings, fields.error);
    const agent: AgentDefinition = {
      ...fields.value,
      systemPrompt: mapped.body.trim(),
      source: origin.source,
      filePath: file.path,
      family: origin.family,
    };
    return { agent, warnings: fields.warnings };
  }
  const base = {
    file: file.path,
    source: origin.source,
    family: origin.family,
    plugin: origin.plugin,
  };
  const parsed = parseAgent(file.text, base, "warn");
  if (isNeedsParser(parsed)) return parsed;
  if (!parsed.ok) return skippedFile(parsed.warnings, parsed.error);
  return {
    agent: parsed.value,
    ...(parsed.more ? { more: parsed.more } : {}),
    warnings: parsed.warnings,
  };
}
