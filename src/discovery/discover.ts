/**
 * Finds every agent a task could run, in precedence order.
 *
 * Decides the order of sources — per family (xcsh, claude, codex, gemini) its
 * nearest project folder then its user folder(s); then Claude plugin roots
 * (project-scoped before user-scoped); then the bundled agents — and reads
 * them all concurrently while keeping that order. Each bad file becomes one
 * warning naming it; nothing stops discovery. Each file is read and parsed
 * through `cached-parse.ts`: one that has not changed since it was parsed is
 * not parsed again.
 *
 * @example
 * ```ts
 * import os from "node:os";
 *
 * const found = await discoverAgents({ cwd: process.cwd(), home: os.homedir(), env: process.env });
 * getAgent(found.agents, "explore");
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { type ConfigDir, type DiscoveryEnv, getConfigDirs } from "./config-dirs.ts";
import {
  cachedBundledAgents,
  type DiscoveryRound,
  finishRound,
  type FolderOrigin,
  readCachedFolder,
  startRound,
} from "./cached-parse.ts";
import { mergeAgents, type ShadowedAgent } from "./merge.ts";
import { listClaudePluginRoots, type PluginListing } from "./plugins.ts";
import type { AgentDefinition, AgentFamily, Diagnostic } from "../types.ts";

export { getAgent } from "./merge.ts";
export type { ShadowedAgent } from "./merge.ts";

/** A folder discovery looked at, in precedence order. */
export interface SearchedFolder {
  family: AgentFamily;
  scope: "project" | "user";
  path: string;
  exists: boolean;
  /** Set when the path is there but gave nothing: `not a folder`, `unreadable (…)`. */
  problem?: string;
  plugin?: string;
  /** How many valid definitions it gave. */
  count: number;
}

export interface DiscoveryResult {
  agents: AgentDefinition[];
  shadowed: ShadowedAgent[];
  warnings: Diagnostic[];
  folders: SearchedFolder[];
  plugins: PluginListing;
}

/** An agents folder in the precedence order, with the scope it is listed under. */
interface Origin extends FolderOrigin {
  scope: "project" | "user";
}

/** Joins one file's problems into a single warning line. */
function oneWarningPerFile(diags: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const key = d.file ?? "";
    if (!byFile.has(key)) byFile.set(key, []);
    byFile.get(key)!.push(d);
  }
  for (const [file, list] of byFile) {
    if (list.length === 1 || file === "") {
      out.push(...list);
      continue;
    }
    out.push({
      level: list.some((d) => d.level === "error") ? "error" : "warning",
      file,
      message: list.map((d) =>
        (d.field && !d.message.includes(`'${d.field}'`) ? `${d.field}: ` : "") + d.message
      )
        .join("; "),
    });
  }
  return out;
}

/** The agents of one folder, its warnings and whether it was there. */
async function readOrigin(
  origin: Origin,
  round: DiscoveryRound,
): Promise<
  { agents: AgentDefinition[]; warnings: Diagnostic[]; exists: boolean; problem?: string }
> {
  const { folder, outcomes } = await readCachedFolder(origin, round);
  const agents: AgentDefinition[] = [];
  const warnings = [...folder.warnings];
  for (const o of outcomes) {
    if (o.agent) agents.push(o.agent);
    if (o.more) agents.push(...o.more);
    for (const w of o.warnings) warnings.push(w);
  }
  return {
    agents,
    warnings,
    exists: folder.exists,
    ...(folder.problem ? { problem: folder.problem } : {}),
  };
}

function dirOrigin(d: ConfigDir): Origin {
  return { family: d.family, source: d.scope, scope: d.scope, path: d.path };
}

/** The agents folders in precedence order, plugin roots included. */
export function agentOrigins(
  e: DiscoveryEnv,
): { origins: Origin[]; plugins: PluginListing; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  const dirs = getConfigDirs("agents", e, { warnings });
  const plugins = listClaudePluginRoots(e);
  const origins: Origin[] = dirs.map(dirOrigin);
  for (const root of plugins.roots) {
    const scope = root.scope === "project" || root.scope === "local" ? "project" : "user";
    origins.push({
      family: "plugin",
      source: scope,
      scope,
      path: join(root.path, "agents"),
      plugin: root.id,
    });
  }
  return { origins, plugins, warnings };
}

/**
 * Discovers and merges every agent visible from `e.cwd`. Bundled agents come
 * last, so any file-based agent of the same name shadows them. `prompts:
 * false` is a listing: a file the caches hold is not read, and its agent's
 * prompt may be empty.
 */
export async function discoverAgents(
  e: DiscoveryEnv,
  { prompts = true }: { prompts?: boolean } = {},
): Promise<DiscoveryResult> {
  const { origins, plugins, warnings: walked } = agentOrigins(e);
  const round = startRound(e, { prompts });
  const reads = await Promise.all(origins.map((o) => readOrigin(o, round)));
  const bundled = await cachedBundledAgents(round);
  const { agents, shadowed } = mergeAgents([...reads.map((r) => r.agents), bundled]);
  const folders: SearchedFolder[] = origins.map((o, i) => ({
    family: o.family,
    scope: o.scope,
    path: o.path,
    exists: reads[i].exists,
    ...(reads[i].problem ? { problem: reads[i].problem } : {}),
    ...(o.plugin ? { plugin: o.plugin } : {}),
    count: reads[i].agents.length,
  }));
  const warnings = oneWarningPerFile([
    ...walked,
    ...plugins.warnings,
    ...reads.flatMap((r) => r.warnings),
  ]);
  finishRound(round);
  return { agents, shadowed, warnings, folders, plugins };
}
