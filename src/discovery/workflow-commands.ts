/**
 * Workflow commands: Markdown prompt templates a user runs by name.
 *
 * Decides where they are found — the same families and precedence as agents
 * (`.xcsh/commands` in the project, then `~/.xcsh/agent/commands`; then
 * `.claude`, `.codex`, `.gemini`; then Claude plugin `commands/` folders) with
 * the bundled commands (`init`) appended when no file defines them — and how
 * arguments expand: `$ARGUMENTS` and `$@` become all arguments, `$1`…`$9` one
 * each; a template with no placeholder gets the arguments appended.
 *
 * @example
 * ```ts
 * expandCommand("Fix issue $1 ($ARGUMENTS)", ["42", "now"]); // "Fix issue 42 (42 now)"
 * ```
 *
 * @module
 */
import { basename, join } from "node:path";
import initMd from "../../commands/init.md" with { type: "text" };
import { type DiscoveryEnv, getConfigDirs, projectFolderOf } from "./config-dirs.ts";
import { parseFrontmatter } from "../formats/frontmatter.ts";
import { isNeedsParser, type NeedsParser, parseOnDemand } from "../formats/full-parsers.ts";
import { mergeAgents, type Shadowed } from "./merge.ts";
import { listClaudePluginRoots } from "./plugins.ts";
import { readDefinitionFolder, type SourceFile } from "./read-files.ts";
import type { AgentFamily, AgentSource, Diagnostic, ParseLevel } from "../types.ts";

export interface WorkflowCommand {
  name: string;
  description: string;
  argumentHint?: string;
  /** The prompt template. */
  template: string;
  source: AgentSource;
  family: AgentFamily;
  filePath?: string;
  plugin?: string;
}

export interface CommandDiscovery {
  commands: WorkflowCommand[];
  shadowed: Shadowed<WorkflowCommand>[];
  warnings: Diagnostic[];
}

interface CommandOrigin {
  source: AgentSource;
  family: AgentFamily;
  plugin?: string;
}

/**
 * Parses one command file; its name is the file name without `.md`. A
 * {@link NeedsParser} when its frontmatter needs the full YAML parser first.
 */
export function parseCommand(
  file: SourceFile,
  origin: CommandOrigin,
  level: ParseLevel = "warn",
): { command?: WorkflowCommand; warnings: Diagnostic[] } | NeedsParser {
  const fm = parseFrontmatter(file.text, { file: file.path, level });
  if (isNeedsParser(fm)) return fm;
  if (fm.status === "unterminated" || fm.status === "invalid") {
    return { warnings: fm.warnings.map((w) => ({ ...w, message: `skipped: ${w.message}` })) };
  }
  const template = fm.body.trim();
  const warnings = [...fm.warnings];
  const d = fm.data.description;
  const description = typeof d === "string" && d.trim() !== ""
    ? d.trim()
    : (template.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^#+\s*/, "").slice(0, 100);
  const hint = fm.data["argument-hint"] ?? fm.data.argumentHint;
  const command: WorkflowCommand = {
    name: basename(file.path).replace(/\.md$/, ""),
    description,
    template,
    source: origin.source,
    family: origin.family,
    filePath: file.path,
  };
  if (typeof hint === "string" && hint !== "") command.argumentHint = hint;
  if (origin.plugin) command.plugin = origin.plugin;
  return { command, warnings };
}

let bundledCommandsCache: WorkflowCommand[] | undefined;

/** The commands compiled into the binary. */
export async function loadBundledCommands(): Promise<readonly WorkflowCommand[]> {
  if (!bundledCommandsCache) {
    const { command } = await parseOnDemand(() =>
      parseCommand(
        { path: "commands/init.md", text: initMd },
        { source: "bundled", family: "bundled" },
        "fatal",
      )
    );
    delete command!.filePath;
    bundledCommandsCache = [command!];
  }
  return bundledCommandsCache;
}

/** Discovers workflow commands in precedence order; first name wins. */
export async function discoverCommands(e: DiscoveryEnv): Promise<CommandDiscovery> {
  const walked: Diagnostic[] = [];
  const dirs = getConfigDirs("commands", e, { warnings: walked });
  const plugins = listClaudePluginRoots(e);
  const origins = [
    ...dirs.map((d) => ({
      path: d.path,
      origin: { source: d.scope, family: d.family } as CommandOrigin,
    })),
    ...plugins.roots.map((r) => ({
      path: join(r.path, "commands"),
      origin: {
        source: r.scope === "project" || r.scope === "local" ? "project" : "user",
        family: "plugin",
        plugin: r.id,
      } as CommandOrigin,
    })),
  ];
  const reads = await Promise.all(
    origins.map((o) =>
      readDefinitionFolder(o.path, [".md"], projectFolderOf({ ...o.origin, path: o.path }))
    ),
  );
  const files = await Promise.all(
    reads.map((read, i) =>
      Promise.all(
        read.files.map((file) => parseOnDemand(() => parseCommand(file, origins[i].origin))),
      )
    ),
  );
  const warnings: Diagnostic[] = [...walked, ...plugins.warnings];
  const groups = reads.map((read, i) => {
    warnings.push(...read.warnings);
    const group: WorkflowCommand[] = [];
    for (const r of files[i]) {
      warnings.push(...r.warnings);
      if (r.command) group.push(r.command);
    }
    return group;
  });
  const merged = mergeAgents([...groups, await loadBundledCommands()]);
  return { commands: merged.agents, shadowed: merged.shadowed, warnings };
}

/** The command named exactly `name`, or `undefined`. */
export function getCommand(
  commands: readonly WorkflowCommand[],
  name: string,
): WorkflowCommand | undefined {
  return commands.find((c) => c.name === name);
}

/** Expands a command template with its arguments. Pure. */
export function expandCommand(template: string, args: readonly string[]): string {
  const all = args.join(" ");
  let used = false;
  const out = template.replace(/\$ARGUMENTS|\$@|\$([1-9])/g, (_m, n?: string) => {
    used = true;
    if (n === undefined) return all;
    return args[Number(n) - 1] ?? "";
  });
  if (used || args.length === 0) return out;
  return `${out}\n\n${all}`;
}
