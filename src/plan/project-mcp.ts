/**
 * A project's MCP servers as Claude Code records them: the nearest
 * `.mcp.json` at or above the working folder (`{"mcpServers": {name:
 * definition}}`), and which of them the user approved.
 *
 * Approvals live in the user's state, never in files the repository ships.
 * A server is approved when
 *
 * - `xcsh trust` approved it for this project: the record names the
 *   `.mcp.json`, the server and a hash of its definition
 *   ({@link serverHash}), so a changed definition needs trusting again; or
 * - the user's own Claude settings (`~/.claude/settings.json`, or
 *   `$CLAUDE_CONFIG_DIR/settings.json`) approve it
 *   (`enableAllProjectMcpServers: true`, or the name in
 *   `enabledMcpjsonServers`) and the folder holding the `.mcp.json` is a
 *   project the user trusted (`xcsh trust`; a trusted folder above it does
 *   not count).
 *
 * The project's own `.claude/settings.json` and `.claude/settings.local.json`
 * approve nothing (the repository wrote them); their
 * `disabledMcpjsonServers`, like the user's, still turns a server off, since
 * that only tightens. A relative `command` or `cwd` is a path from the
 * `.mcp.json`'s own folder. A file that is unreadable, too large, malformed,
 * owned by another user or writable by others, or found in folders the
 * walk's owner rule refuses (`walk-up.ts`), is a warning naming it, and its
 * servers (or approvals) count as absent.
 *
 * @module
 */
import { dirname, join } from "node:path";
import process from "node:process";
import { claudeHome } from "../discovery/config-dirs.ts";
import { acceptedIn, existsInfo, findUp } from "../fs/walk-up.ts";
import { anchorServers, checkMcpServerMap } from "../discovery/mcp-definition.ts";
import {
  isMcpServerApproved,
  isProjectTrusted,
  realPathOf,
  trustStoreFor,
} from "../config/trust-store.ts";
import { canonicalJson } from "./agent-set.ts";
import { sha256Hex } from "../runtime.ts";
import type { Diagnostic, McpServerDef } from "../types.ts";
import { isRecord } from "../formats/values.ts";
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipHint,
  ownershipProblem,
  parseJsonFile,
  readCappedSync,
} from "../fs/file-safety.ts";

export interface ProjectMcp {
  /** The folder holding `.mcp.json` (the project root for approvals). */
  root?: string;
  /** The `.mcp.json` read, when there is one. */
  file?: string;
  servers: Record<string, McpServerDef>;
  /** Names the user approved (see the module comment), none of them disabled. */
  approved: ReadonlySet<string>;
  /** Names only the repository's own `.claude/settings*.json` approve (for the hint). */
  approvedByRepository: ReadonlySet<string>;
  warnings: Diagnostic[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** The hash `xcsh trust` records for a server definition: SHA-256 of its canonical JSON. */
export function serverHash(def: McpServerDef): string {
  return sha256Hex(canonicalJson(def));
}

/**
 * The parsed JSON of `file`, undefined when it does not exist, or why it is
 * not used: unreadable, too large, not JSON, or owned or writable by
 * someone else (it could start programs).
 */
function readJson(file: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const r = readCappedSync(file, MAX_SETTINGS_FILE_BYTES);
  if (!r.ok) {
    if (r.code === "ENOENT" || r.code === "ENOTDIR") return { ok: true, value: undefined };
    return { ok: false, reason: r.reason };
  }
  const problem = ownershipProblem(r.info);
  if (problem) return { ok: false, reason: `${problem}, ${ownershipHint(problem, file)}` };
  // Never the parser's message: it quotes the file's text.
  return parseJsonFile(r.bytes.toString("utf8"));
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

interface SettingsApprovals {
  all: boolean;
  enabled: Set<string>;
  disabled: Set<string>;
  warnings: Diagnostic[];
}

/** The MCP approval keys of Claude settings `files` (later files add to earlier). */
export function readApprovals(files: readonly string[]): SettingsApprovals {
  const out: SettingsApprovals = {
    all: false,
    enabled: new Set(),
    disabled: new Set(),
    warnings: [],
  };
  for (const file of files) {
    const r = readJson(file);
    if (!r.ok) {
      out.warnings.push({
        level: "warning",
        file,
        message: `${r.reason}; its MCP approvals are ignored`,
      });
      continue;
    }
    if (!isRecord(r.value)) continue;
    if (r.value.enableAllProjectMcpServers === true) out.all = true;
    names(r.value.enabledMcpjsonServers).forEach((n) => out.enabled.add(n));
    names(r.value.disabledMcpjsonServers).forEach((n) => out.disabled.add(n));
  }
  return out;
}

const approves = (a: SettingsApprovals, name: string) => a.all || a.enabled.has(name);

/** The project's `.mcp.json` servers and the user's approvals of them, for `cwd`. */
export function readProjectMcp(cwd: string, home: string, env: Env = process.env): ProjectMcp {
  const none: ProjectMcp = {
    servers: {},
    approved: new Set(),
    approvedByRepository: new Set(),
    warnings: [],
  };
  const walked: Diagnostic[] = [];
  const root = findUp(cwd, home, ".mcp.json", existsInfo, walked)?.dir;
  const warnings: Diagnostic[] = walked.map((w) => ({
    ...w,
    message: `${w.message}; its MCP servers are ignored`,
  }));
  if (!root) return { ...none, warnings };
  const file = join(root, ".mcp.json");
  const base = { ...none, root, file, warnings };
  const r = readJson(file);
  if (!r.ok) {
    warnings.push({ level: "warning", file, message: `${r.reason}; its MCP servers are ignored` });
    return base;
  }
  if (r.value === undefined) return base;
  if (!isRecord(r.value) || r.value.mcpServers === undefined) {
    warnings.push({
      level: "warning",
      file,
      field: "mcpServers",
      message: `must hold {"mcpServers": {name: definition}}; its MCP servers are ignored`,
    });
    return base;
  }
  const checked = checkMcpServerMap(r.value.mcpServers, "mcpServers");
  if (!checked.ok) {
    warnings.push({
      level: "warning",
      file,
      field: checked.field,
      message: `${checked.message}; its MCP servers are ignored`,
    });
    return base;
  }
  const servers = anchorServers(checked.value, dirname(realPathOf(file)));
  const user = readApprovals(home ? [join(claudeHome(home, env), "settings.json")] : []);
  // The repository's settings only turn servers off; files the walk's rule
  // refuses do not even do that.
  const repoFiles: string[] = [];
  for (const name of ["settings.json", "settings.local.json"]) {
    const refused: Diagnostic[] = [];
    if (acceptedIn(root, join(".claude", name), existsInfo, refused)) {
      repoFiles.push(join(root, ".claude", name));
    } else {
      warnings.push(
        ...refused.map((w) => ({ ...w, message: `${w.message}; its MCP settings are ignored` })),
      );
    }
  }
  const repo = readApprovals(repoFiles);
  warnings.push(...user.warnings, ...repo.warnings);
  const store = trustStoreFor(env, home);
  // The folder itself, not one above it: a vendored sub-repository's
  // .mcp.json inside a trusted project is not covered by that trust.
  const projectTrusted = isProjectTrusted(root, store);
  const approved = new Set<string>();
  const approvedByRepository = new Set<string>();
  for (const [name, def] of Object.entries(servers)) {
    if (user.disabled.has(name) || repo.disabled.has(name)) continue;
    if (
      isMcpServerApproved(file, name, serverHash(def), store) ||
      (projectTrusted && approves(user, name))
    ) {
      approved.add(name);
    } else if (approves(repo, name)) approvedByRepository.add(name);
  }
  return { ...base, servers, approved, approvedByRepository };
}
