/**
 * A project's MCP servers as Claude Code records them: the nearest
 * `.mcp.json` at or above the working folder (`{"mcpServers": {name:
 * definition}}`), and which of them the user approved in that folder's
 * `.claude/settings.json` or `.claude/settings.local.json`
 * (`enableAllProjectMcpServers: true`, or the name in
 * `enabledMcpjsonServers`; a name in `disabledMcpjsonServers` is never
 * approved). A file that is unreadable, too large, malformed, owned by
 * another user or writable by others, or found in folders the walk's owner
 * rule refuses (`walk-up.ts`), is a warning naming it, and its servers (or
 * approvals) count as absent.
 *
 * @module
 */
import { join } from "node:path";
import { acceptedIn, existsInfo, findUp } from "../walk-up.ts";
import { checkMcpServerMap } from "../discovery/mcp-definition.ts";
import type { Diagnostic, McpServerDef } from "../types.ts";
import { isRecord } from "../values.ts";
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipHint,
  ownershipProblem,
  parseJsonFile,
  readCappedSync,
} from "../file-safety.ts";

export interface ProjectMcp {
  /** The folder holding `.mcp.json` (the project root for approvals). */
  root?: string;
  /** The `.mcp.json` read, when there is one. */
  file?: string;
  servers: Record<string, McpServerDef>;
  /** Approved names, or "all". */
  approved: "all" | ReadonlySet<string>;
  /** Names the settings refuse. */
  disabled: ReadonlySet<string>;
  warnings: Diagnostic[];
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
  return parseJsonFile(r.bytes.toString("utf8"));
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Reads the approvals of `.claude/settings.json` and `.claude/settings.local.json` in `root`. */
export function readApprovals(root: string): {
  approved: "all" | Set<string>;
  disabled: Set<string>;
  warnings: Diagnostic[];
} {
  const warnings: Diagnostic[] = [];
  let all = false;
  const approved = new Set<string>();
  const disabled = new Set<string>();
  for (const name of ["settings.json", "settings.local.json"]) {
    const file = join(root, ".claude", name);
    const walked: Diagnostic[] = [];
    if (!acceptedIn(root, join(".claude", name), existsInfo, walked)) {
      warnings.push(
        ...walked.map((w) => ({ ...w, message: `${w.message}; its MCP approvals are ignored` })),
      );
      continue;
    }
    const r = readJson(file);
    if (!r.ok) {
      warnings.push({
        level: "warning",
        file,
        message: `${r.reason}; its MCP approvals are ignored`,
      });
      continue;
    }
    if (!isRecord(r.value)) continue;
    if (r.value.enableAllProjectMcpServers === true) all = true;
    names(r.value.enabledMcpjsonServers).forEach((n) => approved.add(n));
    names(r.value.disabledMcpjsonServers).forEach((n) => disabled.add(n));
  }
  return { approved: all ? "all" : approved, disabled, warnings };
}

/**
 * The project's `.mcp.json` servers and approvals for `cwd`: the nearest
 * `.mcp.json` the walk of `walk-up.ts` accepts (refused ones are warnings).
 */
export function readProjectMcp(cwd: string, home: string): ProjectMcp {
  const walked: Diagnostic[] = [];
  const root = findUp(cwd, home, ".mcp.json", existsInfo, walked)?.dir;
  const refused = walked.map((w) => ({
    ...w,
    message: `${w.message}; its MCP servers are ignored`,
  }));
  if (!root) return { servers: {}, approved: new Set(), disabled: new Set(), warnings: refused };
  const file = join(root, ".mcp.json");
  const approvals = readApprovals(root);
  const warnings = [...refused, ...approvals.warnings];
  const base = { root, file, approved: approvals.approved, disabled: approvals.disabled };
  const r = readJson(file);
  if (!r.ok) {
    warnings.push({ level: "warning", file, message: `${r.reason}; its MCP servers are ignored` });
    return { ...base, servers: {}, warnings };
  }
  if (r.value === undefined) return { ...base, servers: {}, warnings };
  if (!isRecord(r.value) || r.value.mcpServers === undefined) {
    warnings.push({
      level: "warning",
      file,
      field: "mcpServers",
      message: `must hold {"mcpServers": {name: definition}}; its MCP servers are ignored`,
    });
    return { ...base, servers: {}, warnings };
  }
  const servers = checkMcpServerMap(r.value.mcpServers, "mcpServers");
  if (!servers.ok) {
    warnings.push({
      level: "warning",
      file,
      field: servers.field,
      message: `${servers.message}; its MCP servers are ignored`,
    });
    return { ...base, servers: {}, warnings };
  }
  return { ...base, servers: servers.value, warnings };
}
