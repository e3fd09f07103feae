/**
 * What the entries of an agent's `tools` or `disallowedTools` mean: bare
 * tool names (any ecosystem's, see `tool-names.ts`), MCP names and
 * patterns, Gemini's `*` (every tool) and `mcp_*` / `mcp_<server>_*`
 * wildcards, `Agent(a, b)` / `Task(a, b)` (the `task` tool, allowed to spawn
 * `a` and `b`; bare `Agent` spawns any), and permission rules in Claude
 * Code's syntax: `Bash(git status:*)`, `Bash(npm test)`, `Read(./src/**)`,
 * `Edit(docs/**)`, `WebFetch(domain:example.com)`.
 *
 * A comma-separated string is split outside parentheses, so
 * `Read, Agent(explore, reviewer)` is two entries. An entry that cannot be
 * read (unbalanced parentheses, an empty rule, a rule for a tool that takes
 * none) is an error: the agent is invalid, so a broken rule never grants or
 * leaves out anything. Pure.
 *
 * @example
 * ```ts
 * const split = splitToolList("Read, Bash(git status:*), Agent(explore)");
 * if ("list" in split) readToolEntries(split.list, "tools");
 * // { names: ["read", "bash", "task"], bare: ["read"], spawns: ["explore"],
 * //   rules: [{ text: "Bash(git status:*)", family: "bash", tool: "bash", pattern: "git status:*" }], … }
 * ```
 *
 * @module
 */
import { parseAllowEntry } from "../net/net-address.ts";
import { canonicalToolName } from "./tool-names.ts";
import type { PermissionRule } from "../types.ts";

/** Splits a comma-separated tool list outside parentheses. */
export function splitToolList(value: string): { list: string[] } | { error: string } {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth < 0) return { error: `unbalanced parentheses in '${value.trim()}'` };
    } else if (c === "," && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) {
    return { error: `unbalanced parentheses in '${value.slice(start).trim()}'` };
  }
  out.push(value.slice(start));
  return { list: out.map((s) => s.trim()).filter((s) => s !== "") };
}

/** What a list of entries grants (or, for `disallowedTools`, takes away). */
export interface ToolEntries {
  /** Canonical tool names and MCP patterns, first-seen order, no duplicates. */
  names: string[];
  /** The names listed bare (no rule): those tools are unrestricted. */
  bare: string[];
  /** True when `*` (every tool) was listed. */
  all: boolean;
  /** Names that mean no tool. */
  unknown: string[];
  /** From `Agent(…)` / `Task(…)`: the agents the `task` tool may spawn. */
  spawns?: "*" | string[];
  rules: PermissionRule[];
  /** Entries that cannot be read, one message each. */
  errors: string[];
}

const RULE = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)$/;
const GEMINI_MCP = /^mcp_(?:([A-Za-z0-9][A-Za-z0-9.-]*?)_)?\*$/;

function familyOf(tool: string): PermissionRule["family"] | "task" | undefined {
  if (tool === "bash") return "bash";
  if (tool === "read" || tool === "grep" || tool === "find" || tool === "ls") return "read";
  if (tool === "edit" || tool === "write") return "edit";
  if (tool === "web_fetch") return "web_fetch";
  if (tool === "task") return "task";
  return undefined;
}

/** Why a rule's specifier cannot be used, or undefined. */
function specProblem(family: PermissionRule["family"], spec: string): string | undefined {
  if (family === "bash") {
    const i = spec.indexOf(":*");
    if (i >= 0 && i !== spec.length - 2) return "':*' may only end a command pattern";
    if (spec.replace(/:\*$/, "").trim() === "") return "the command pattern is empty";
    return undefined;
  }
  if (family === "web_fetch") {
    if (!spec.startsWith("domain:")) return "a WebFetch rule reads 'domain:<host>'";
    // A host name (international ones too), `*.domain`, an address or a range.
    const d = spec.slice(7).trim();
    const bare = d.replace(/^\[([^\]]*)\]/, "$1");
    if (typeof parseAllowEntry(bare) === "string" && !/^(\*\.)?[\p{L}\p{N}_.-]+$/u.test(d)) {
      return "the domain is empty or not a host name or address";
    }
    return undefined;
  }
  return undefined;
}

function add(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

/**
 * Reads `entries` of the field `field` (`tools` or `disallowedTools`).
 * Rules in `tools` grant their tool restricted to what they match; in
 * `disallowedTools` they refuse matching calls and keep the tool.
 */
export function readToolEntries(entries: readonly string[], field: string): ToolEntries {
  const r: ToolEntries = { names: [], bare: [], all: false, unknown: [], rules: [], errors: [] };
  const allow = field !== "disallowedTools";
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (entry === "*") {
      r.all = true;
      continue;
    }
    const gemini = GEMINI_MCP.exec(entry);
    if (gemini) {
      add(r.names, gemini[1] ? `mcp__${gemini[1]}__*` : "mcp__*");
      add(r.bare, gemini[1] ? `mcp__${gemini[1]}__*` : "mcp__*");
      continue;
    }
    if (entry.includes("(") || entry.includes(")")) {
      const m = RULE.exec(entry);
      if (!m || "error" in splitToolList(m[2])) {
        r.errors.push(`'${field}': cannot read '${entry}': unbalanced parentheses`);
        continue;
      }
      const tool = canonicalToolName(m[1]);
      const family = tool === undefined ? undefined : familyOf(tool);
      const spec = m[2].trim();
      if (tool === undefined) {
        r.errors.push(
          `'${field}': '${entry}' is a rule for '${m[1]}', which is no tool xcsh knows`,
        );
        continue;
      }
      if (family === undefined) {
        r.errors.push(`'${field}': '${m[1]}' takes no rule in parentheses ('${entry}')`);
        continue;
      }
      if (family === "task") {
        const names = splitToolList(spec);
        if ("error" in names || names.list.length === 0) {
          r.errors.push(`'${field}': '${entry}' names no agent`);
          continue;
        }
        add(r.names, "task");
        if (names.list.includes("*")) r.spawns = "*";
        else if (r.spawns !== "*") {
          r.spawns = [...new Set([...(r.spawns ?? []), ...names.list])];
        }
        continue;
      }
      if (spec === "") {
        r.errors.push(`'${field}': '${entry}' has an empty pattern`);
        continue;
      }
      if (family === "bash" && (spec === "*" || spec === ":*")) {
        // `Bash(*)` is the whole tool.
        add(r.names, tool);
        add(r.bare, tool);
        continue;
      }
      const problem = specProblem(family, spec);
      if (problem) {
        r.errors.push(`'${field}': cannot read '${entry}': ${problem}`);
        continue;
      }
      // Gemini's `run_shell_command(git)` is a prefix of the command.
      const pattern = family === "bash" && /^run_shell_command$/i.test(m[1]) && !spec.endsWith(":*")
        ? `${spec}:*`
        : spec;
      r.rules.push({ text: entry, family, ...(allow ? { tool } : {}), pattern });
      if (allow) add(r.names, tool);
      continue;
    }
    const tool = canonicalToolName(entry);
    if (tool === undefined) {
      add(r.unknown, entry);
      continue;
    }
    add(r.names, tool);
    add(r.bare, tool);
    if (tool === "task" && allow) r.spawns = "*";
  }
  return r;
}
