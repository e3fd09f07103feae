/**
 * What one `SKILL.md` says, per the Agent Skills specification: `name`
 * (lower-case letters, digits and single hyphens, at most 64 characters,
 * the name of its folder) and `description` (at most 1024 characters),
 * `license`, `compatibility` (at most 500 characters), `metadata` (a
 * mapping, kept as written, nested values too) and `allowed-tools`
 * (space-separated; informative only: a skill grants no tool). Of Claude
 * Code's extensions, `disable-model-invocation: true` is honoured (the skill
 * is neither listed to the model nor loadable by it, only preloaded by an
 * agent's `skills:`); the others it documents are known and unused; any
 * other key is named in `unknownKeys` (`xcsh skills check` says so). A
 * missing or invalid `name` falls back to the folder's name with a warning,
 * as Claude Code does; a name that is not its folder's is a warning. A file
 * without a description is skipped with one warning. Pure.
 *
 * @example
 * ```ts
 * parseSkillFields({ name: "pdf", description: "Reads PDFs" }, { file: "/s/pdf/SKILL.md", folder: "pdf" });
 * // { ok: true, value: { name: "pdf", description: "Reads PDFs" }, warnings: [] }
 * ```
 *
 * @module
 */
import type { Diagnostic, Parsed } from "../types.ts";

/** A skill's fields, before where it was found is attached. */
export interface SkillFields {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, unknown>;
  allowedTools?: string[];
  /** `disable-model-invocation: true`: only an agent's `skills:` loads it. */
  disableModelInvocation?: boolean;
  /** Keys outside the specification and Claude Code's documented ones. */
  unknownKeys?: string[];
}

/** The keys of the Agent Skills specification. */
const SPEC_KEYS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
/** The keys Claude Code documents beyond the specification (and the common `version`). */
const CLAUDE_KEYS = [
  "version",
  "when_to_use",
  "argument-hint",
  "arguments",
  "disable-model-invocation",
  "user-invocable",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "paths",
  "shell",
];
const KNOWN_KEYS: ReadonlySet<string> = new Set([...SPEC_KEYS, ...CLAUDE_KEYS]);

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Validates the frontmatter of a `SKILL.md` found in folder `folder`. */
export function parseSkillFields(
  fm: Record<string, unknown>,
  ctx: { file: string; folder: string },
): Parsed<SkillFields> {
  const warnings: Diagnostic[] = [];
  const fail = (field: string, message: string): Parsed<SkillFields> => ({
    ok: false,
    error: { level: "error", file: ctx.file, field, message },
    warnings,
  });
  const warn = (field: string, message: string) =>
    warnings.push({ level: "warning", file: ctx.file, field, message });
  const rawName = typeof fm.name === "string" ? fm.name.trim() : "";
  let name = rawName;
  if (rawName === "") {
    name = ctx.folder;
    warn("name", `no 'name'; loaded under its folder's name "${ctx.folder}"`);
  } else if (rawName.length > 64 || !NAME.test(rawName)) {
    name = ctx.folder;
    warn(
      "name",
      `'name' must be at most 64 lower-case letters, digits and single hyphens, not ` +
        `"${rawName}"; loaded under its folder's name "${ctx.folder}"`,
    );
  } else if (rawName !== ctx.folder) {
    warn("name", `'name' is "${rawName}" but its folder is "${ctx.folder}"; the name is used`);
  }
  if (name === "" || /[\s:/]/.test(name)) {
    return fail("name", `skipped: "${name}" cannot name a skill (no spaces, ':' or '/')`);
  }
  const d = fm.description;
  if (typeof d !== "string" || d.trim() === "") {
    return fail("description", "skipped: a SKILL.md needs a 'description'");
  }
  const fields: SkillFields = { name, description: d.trim() };
  if (fields.description.length > 1024) {
    warn("description", "'description' is over 1024 characters; it is cut there");
    fields.description = fields.description.slice(0, 1024);
  }
  if (typeof fm.license === "string" && fm.license.trim() !== "") {
    fields.license = fm.license.trim();
  }
  if (typeof fm.compatibility === "string" && fm.compatibility.trim() !== "") {
    fields.compatibility = fm.compatibility.trim().slice(0, 500);
    if (fm.compatibility.trim().length > 500) {
      warn("compatibility", "'compatibility' is over 500 characters; it is cut there");
    }
  }
  if (fm.metadata !== undefined && fm.metadata !== null) {
    const m = fm.metadata;
    if (typeof m === "object" && !Array.isArray(m)) {
      fields.metadata = { ...(m as Record<string, unknown>) };
    } else warn("metadata", "'metadata' must be a mapping; ignored");
  }
  const off = fm["disable-model-invocation"];
  if (off === true) fields.disableModelInvocation = true;
  else if (off !== undefined && off !== null && off !== false) {
    warn("disable-model-invocation", "'disable-model-invocation' must be true or false; ignored");
  }
  const unknown = Object.keys(fm).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) fields.unknownKeys = unknown;
  const tools = fm["allowed-tools"];
  if (typeof tools === "string" && tools.trim() !== "") {
    fields.allowedTools = tools.trim().split(/\s+/);
  } else if (Array.isArray(tools)) fields.allowedTools = tools.map(String);
  return { ok: true, value: fields, warnings };
}
