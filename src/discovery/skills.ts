/**
 * Where Agent Skills are found, and the skills there: each a folder holding
 * a `SKILL.md` (parsed by `skill-file.ts`).
 *
 * Decides the folders and their precedence. Unlike agents, the user's own
 * folders come first, as in Claude Code (a repository must not replace a
 * skill the user wrote, whose text the user's agents preload): the user
 * folders `~/.xcsh/agent/skills`, `~/.claude/skills`, `~/.agents/skills`
 * (the tree Claude Code and Codex share), `~/.codex/skills`,
 * `~/.gemini/skills`, then the nearest project folders in the same order
 * (`.xcsh/skills`, `.claude/skills`, `.agents/skills`, `.codex/skills`,
 * `.gemini/skills`), then Claude plugins' `skills/` (the user's plugins
 * first). Codex's roots (`~/.codex/skills` or `$CODEX_HOME/skills`, the
 * project's `.codex/skills`) and `.agents/skills` are scanned recursively,
 * as Codex does (`<category>/<skill>`, its `.system` folder too), down to
 * {@link MAX_SKILL_DEPTH} folders; the others one level. A plugin's skills
 * are named `plugin:skill` (the plugin id's name part), as Claude Code shows
 * them. The first skill of a name wins; the others are kept for `--all`. Bad
 * input never stops discovery: a folder without `SKILL.md`, a file over
 * 1 MiB, one that is not UTF-8, one owned by another user or writable by
 * others, or a file without a description is skipped with one warning
 * naming it (a missing or invalid name falls back to the folder's). Each skill
 * folder must lie where it belongs (`fs/confined-folder.ts`): a project's
 * inside the folder the walk found it in, the user's inside the user's config
 * folder, a plugin's inside the plugin, with no symlink on the way; its
 * `SKILL.md` must really lie inside it. A skill's path is its real path.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { type ConfinedFolder, confinedFolder, fileInside } from "../fs/confined-folder.ts";
import { type ConfigDir, type DiscoveryEnv, getConfigDirs, isDirectory } from "./config-dirs.ts";
import { parseFrontmatter } from "../formats/frontmatter.ts";
import { mergeAgents, type Shadowed } from "./merge.ts";
import { parseOnDemand } from "../formats/full-parsers.ts";
import { listClaudePluginRoots } from "./plugins.ts";
import { MAX_AGENT_FILE_BYTES } from "./read-files.ts";
import { parseSkillFields } from "./skill-file.ts";
import {
  ownershipHint,
  ownershipProblem,
  readCappedSync,
  tooLargeReason,
} from "../fs/file-safety.ts";
import { findUp, isFolderInfo } from "../fs/walk-up.ts";
import type { Diagnostic, SkillDefinition } from "../types.ts";

/** One folder skills are looked for in. */
export interface SkillFolder {
  path: string;
  /** The place it belongs: the folder holding its `.claude` (…), or a plugin's folder. */
  anchor: string;
  source: "user" | "project";
  family: SkillDefinition["family"];
  plugin?: string;
  /** Looked into recursively, as Codex does (its roots and `.agents/skills`). */
  recursive?: boolean;
  /** Only this sub-folder is read (`skills check PATH` of one skill). */
  only?: string;
}

export interface SkillDiscovery {
  skills: SkillDefinition[];
  shadowed: Shadowed<SkillDefinition>[];
  warnings: Diagnostic[];
  /** Every folder searched, in precedence order, and whether it exists. */
  folders: (SkillFolder & { exists: boolean })[];
}

/**
 * The skill folders of `e`, in precedence order. Project folders come from
 * the walk of `walk-up.ts` (it stops below HOME and refuses folders others
 * could have written, each refusal a warning in `warnings`).
 */
export function skillFolders(e: DiscoveryEnv, warnings: Diagnostic[] = []): SkillFolder[] {
  const anchors: SkillFolder[] = getConfigDirs("skills", e, { warnings }).map((d: ConfigDir) => ({
    path: d.path,
    anchor: d.scope === "user" ? dirname(d.path) : dirname(dirname(d.path)),
    source: d.scope,
    family: d.family,
  }));
  // `.agents/skills`: after Claude's folders, before Codex's.
  const nearest = findUp(e.cwd, e.home, join(".agents", "skills"), isFolderInfo, warnings)?.path;
  const shared: SkillFolder[] = [
    ...(nearest
      ? [{
        path: nearest,
        anchor: dirname(dirname(nearest)),
        source: "project" as const,
        family: "agents" as const,
      }]
      : []),
    ...(e.home
      ? [{
        path: join(e.home, ".agents", "skills"),
        anchor: join(e.home, ".agents"),
        source: "user" as const,
        family: "agents" as const,
      }]
      : []),
  ];
  const at = anchors.findIndex((f) => f.family === "codex" || f.family === "gemini");
  const ordered = at < 0 ? [...anchors, ...shared] : [
    ...anchors.slice(0, at),
    ...shared,
    ...anchors.slice(at),
  ];
  for (const f of ordered) if (f.family === "codex" || f.family === "agents") f.recursive = true;
  const plugins = listClaudePluginRoots(e).roots.map((r): SkillFolder => ({
    path: join(r.path, "skills"),
    anchor: r.path,
    source: r.scope === "project" || r.scope === "local" ? "project" : "user",
    family: "plugin",
    plugin: r.id,
  }));
  return [...usersFirst(ordered), ...usersFirst(plugins)];
}

/** `folders` with the user's before the project's, each side in its order. */
function usersFirst(folders: readonly SkillFolder[]): SkillFolder[] {
  return [
    ...folders.filter((f) => f.source === "user"),
    ...folders.filter((f) => f.source !== "user"),
  ];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads the skills of one folder, in byte order of their folder names, and their warnings. */
export async function readSkillFolder(
  folder: SkillFolder,
): Promise<{ skills: SkillDefinition[]; warnings: Diagnostic[] }> {
  const warnings: Diagnostic[] = [];
  const rule = {
    kind: "skill",
    where: folder.plugin ? "its plugin" : folder.source === "user" ? folder.anchor : "the project",
  };
  const rel = relative(folder.anchor, folder.path);
  const top = confinedFolder(folder.anchor, rel, rule);
  if (!top.ok) {
    if (!top.missing) {
      warnings.push({ level: "warning", file: folder.path, message: `skipped: ${top.error}` });
    }
    return { skills: [], warnings };
  }
  const out: SkillDefinition[] = [];
  for (const found of skillDirs(folder, top.value.path, rel, rule, warnings)) {
    const { name, checked } = found;
    const dir = checked.path;
    const file = join(dir, "SKILL.md");
    const skip = (message: string) =>
      warnings.push({ level: "warning", file, message: `skipped: ${message}` });
    const r = readSkillFile(checked);
    if (!r.ok) {
      if (r.code === "ENOENT") {
        warnings.push({
          level: "warning",
          file: dir,
          message: "skipped: a skill folder needs a SKILL.md",
        });
      } else if (r.code === "EFBIG") {
        skip(tooLargeReason(r.size ?? MAX_AGENT_FILE_BYTES + 1, MAX_AGENT_FILE_BYTES));
      } else skip(r.reason);
      continue;
    }
    const problem = ownershipProblem(r.info);
    if (problem) {
      skip(`${problem}; ${ownershipHint(problem, file)}`);
      continue;
    }
    let text: string;
    try {
      text = utf8.decode(r.bytes);
    } catch {
      skip("file is not valid UTF-8 text");
      continue;
    }
    const fm = await parseOnDemand(() => parseFrontmatter(text, { file, level: "warn" }));
    if (fm.status === "none" || fm.status === "unterminated" || fm.status === "invalid") {
      skip(
        fm.warnings[0]?.message ??
          "a SKILL.md starts with a '---' block holding name and description",
      );
      continue;
    }
    const parsed = parseSkillFields(fm.data, { file, folder: name });
    warnings.push(...fm.warnings, ...parsed.warnings);
    if (!parsed.ok) {
      warnings.push(
        parsed.error.level === "error" ? { ...parsed.error, level: "warning" } : parsed.error,
      );
      continue;
    }
    out.push({
      ...parsed.value,
      // A plugin's skills go by `plugin:skill`, as Claude Code shows them.
      ...(folder.plugin ? { name: `${pluginName(folder.plugin)}:${parsed.value.name}` } : {}),
      filePath: file,
      source: folder.source,
      family: folder.family,
      ...(folder.plugin ? { plugin: folder.plugin } : {}),
    });
  }
  return { skills: out, warnings };
}

/** How deep below a recursive root a skill folder may lie (`<category>/<skill>` is 2). */
export const MAX_SKILL_DEPTH = 4;
/** Folders looked at below one root, at most: the rest is skipped with a warning. */
const MAX_SKILL_FOLDERS = 5_000;

/** The name part of a plugin id (`name@marketplace`). */
export function pluginName(id: string): string {
  const at = id.indexOf("@");
  return at > 0 ? id.slice(0, at) : id;
}

/** The sub-folders of `dir`, in byte order, or none when it cannot be read. */
function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * The skill folders below `folder` (`rel` from its anchor), each checked by
 * `confinedFolder` (a symlink on the way is refused, so no loop is followed).
 * One level, except in Codex's roots and `.agents/skills`, which Codex scans
 * recursively (`<category>/<skill>`, its `.system` folder too): there a
 * folder without a `SKILL.md` that holds folders is looked into, down to
 * {@link MAX_SKILL_DEPTH}.
 */
function skillDirs(
  folder: SkillFolder,
  root: string,
  rel: string,
  rule: { kind: string; where: string },
  warnings: Diagnostic[],
): { name: string; checked: ConfinedFolder }[] {
  const recursive = folder.recursive === true;
  const out: { name: string; checked: ConfinedFolder }[] = [];
  let seen = 0;
  const walk = (sub: string, depth: number): void => {
    const names = subfolders(join(root, sub));
    for (const name of sub === "" && folder.only ? names.filter((n) => n === folder.only) : names) {
      const path = join(folder.path, sub, name);
      if (++seen > MAX_SKILL_FOLDERS) {
        if (seen === MAX_SKILL_FOLDERS + 1) {
          warnings.push({
            level: "warning",
            file: folder.path,
            message: `skipped: more than ${MAX_SKILL_FOLDERS} folders; the rest is not read`,
          });
        }
        return;
      }
      const checked = confinedFolder(folder.anchor, join(rel, sub, name), rule);
      if (!checked.ok) {
        warnings.push({ level: "warning", file: path, message: `skipped: ${checked.error}` });
        continue;
      }
      const hasFile = fileInside(checked.value, "SKILL.md");
      // A folder holding folders is a category; an empty one is a skill missing its file.
      if (
        recursive && !hasFile.ok && hasFile.missing && subfolders(checked.value.path).length > 0
      ) {
        if (depth < MAX_SKILL_DEPTH) walk(join(sub, name), depth + 1);
        else {
          warnings.push({
            level: "warning",
            file: path,
            message: `skipped: deeper than ${MAX_SKILL_DEPTH} folders below ${folder.path}`,
          });
        }
        continue;
      }
      out.push({ name, checked: checked.value });
    }
  };
  walk("", 1);
  return out;
}

/** Discovers the skills of `e`; the first of a name wins. */
export async function discoverSkills(e: DiscoveryEnv): Promise<SkillDiscovery> {
  const warnings: Diagnostic[] = [];
  const folders = skillFolders(e, warnings);
  const reads = await Promise.all(folders.map(readSkillFolder));
  for (const r of reads) warnings.push(...r.warnings);
  const merged = mergeAgents(reads.map((r) => r.skills));
  return {
    skills: merged.agents,
    shadowed: merged.shadowed,
    warnings,
    folders: folders.map((f) => ({ ...f, exists: isDirectory(f.path) })),
  };
}

/**
 * The `SKILL.md` of a checked skill folder, read only when it really lies
 * inside the folder (a link out of it reads as a failure naming it).
 */
function readSkillFile(folder: ConfinedFolder): ReturnType<typeof readCappedSync> {
  const inside = fileInside(folder, "SKILL.md");
  if (!inside.ok) {
    return inside.missing
      ? { ok: false, code: "ENOENT", reason: inside.error }
      : { ok: false, code: "ELINK", reason: inside.error };
  }
  return readCappedSync(inside.path, MAX_AGENT_FILE_BYTES);
}

/**
 * The body of a skill's `SKILL.md` (after its frontmatter), or why it cannot
 * be read: its folder is checked again (no symlink on the way, from the root
 * of the file system: the path discovery gave is real), and the file must lie
 * inside it.
 */
export async function readSkillBody(
  filePath: string,
): Promise<{ body: string } | { error: string }> {
  const folder = confinedFolder("/", dirname(filePath).slice(1), {
    kind: "skill",
    where: "the folder it was found in",
  });
  if (!folder.ok) return { error: folder.error };
  const r = readSkillFile(folder.value);
  if (!r.ok) return { error: `${filePath}: ${r.reason}` };
  let text: string;
  try {
    text = utf8.decode(r.bytes);
  } catch {
    return { error: `${filePath}: file is not valid UTF-8 text` };
  }
  const fm = await parseOnDemand(() => parseFrontmatter(text, { file: filePath, level: "off" }));
  return { body: fm.body.trim() };
}
