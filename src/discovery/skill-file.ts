/**
 * What one `SKILL.md` says, per the Agent Skills specification: `name`
 * (lower-case letters, digits and single hyphens, at most 64 characters,
 * the name of its folder) and `description` (at most 1024 characters) are
 * required; `license`, `compatibility` (at most 500 characters), `metadata`
 * (string to string) and `allowed-tools` (space-separated; informative only:
 * a skill grants no tool) are optional; other keys are kept out. A file
 * without a usable name or description is skipped with one warning; a name
 * that is not its folder's is a warning. Pure.
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
  metadata?: Record<string, string>;
  allowedTools?: string[];
}

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
  const rawName = fm.name;
  if (typeof rawName !== "string" || rawName.trim() === "") {
    return fail("name", "skipped: a SKILL.md needs a 'name'");
  }
  const name = rawName.trim();
  if (name.length > 64 || !NAME.test(name)) {
    return fail(
      "name",
      `skipped: 'name' must be at most 64 lower-case letters, digits and single hyphens, not "${name}"`,
    );
  }
  if (name !== ctx.folder) {
    warn("name", `'name' is "${name}" but its folder is "${ctx.folder}"; the name is used`);
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
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(m)) out[k] = String(v);
      fields.metadata = out;
    } else warn("metadata", "'metadata' must be a mapping of strings; ignored");
  }
  const tools = fm["allowed-tools"];
  if (typeof tools === "string" && tools.trim() !== "") {
    fields.allowedTools = tools.trim().split(/\s+/);
  } else if (Array.isArray(tools)) fields.allowedTools = tools.map(String);
  return { ok: true, value: fields, warnings };
}
