/**
 * Reads a Codex agent (`.codex/agents/*.toml`) into agent frontmatter keys.
 *
 * Decides the mapping: `developer_instructions` is the system prompt,
 * `model_reasoning_effort` the thinking level (`none` → `off`), and
 * `sandbox_mode` is the agent's sandbox (`danger-full-access` meaning `off`),
 * and `"read-only"` also limits the agent to the read-only tools;
 * `[mcp_servers.<name>]` tables declare MCP servers (one with `enabled =
 * false` is left out; `bearer_token_env_var` becomes an `Authorization`
 * header). Validation of the mapped keys is {@link parseAgentFields}'s job.
 *
 * @example
 * ```ts
 * codexToFields('name = "x"\ndescription = "d"\ndeveloper_instructions = "Be brief."');
 * // { ok: true, fields: { name: "x", description: "d" }, body: "Be brief." }
 * ```
 *
 * @module
 */
import { isNeedsParser, type NeedsParser, tomlParser } from "../formats/full-parsers.ts";
import { parseSimpleToml } from "../formats/simple-toml.ts";
import { READ_ONLY_CORE } from "./tool-catalogue.ts";

/** Tools a read-only Codex sandbox allows. */
export const READ_ONLY_TOOLS = READ_ONLY_CORE;

/** The keys of a Codex agent mapped here (the rest pass through). */
const CODEX_MAPPED = new Set([
  "name",
  "description",
  "developer_instructions",
  "model",
  "model_reasoning_effort",
  "sandbox_mode",
  "mcp_servers",
]);

export type CodexMapping =
  | { ok: true; fields: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

/** Codex's `mcp_servers` tables in the shape agent files use elsewhere. */
function codexServers(v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(v)) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      out[name] = raw;
      continue;
    }
    const { enabled, bearer_token_env_var: tokenVar, ...def } = raw as Record<string, unknown>;
    if (enabled === false) continue;
    if (typeof tokenVar === "string" && tokenVar !== "") {
      const headers = (def.http_headers ?? def.headers ?? {}) as Record<string, unknown>;
      def.headers = { ...headers, Authorization: "Bearer ${" + tokenVar + "}" };
    } else if (def.http_headers !== undefined && def.headers === undefined) {
      def.headers = def.http_headers;
    }
    delete def.http_headers;
    out[name] = def;
  }
  return out;
}

/**
 * Why a TOML file cannot be read, as a line to act on: where, and what is
 * wrong there in the parser's words without its own preamble.
 */
function tomlReason(err: unknown): string {
  const e = err as { message?: unknown; line?: unknown; column?: unknown };
  const first = String(e?.message ?? err).split("\n")[0]
    .replace(/^Invalid TOML document:\s*/i, "");
  const where = typeof e?.line === "number"
    ? ` at line ${e.line}${typeof e.column === "number" ? `, column ${e.column}` : ""}`
    : "";
  return `invalid TOML${where}: ${first}; fix that line (a string needs its closing quote on ` +
    `the same line, or """ quotes to span lines)`;
}

/**
 * Maps TOML text to agent keys plus the prompt body. Never throws. A
 * {@link NeedsParser} for a file that is more than simple TOML
 * (`formats/simple-toml.ts`) while the TOML parser is not loaded.
 */
export function codexToFields(text: string): CodexMapping | NeedsParser {
  // The usual file takes the fast path and never loads smol-toml.
  const simple = parseSimpleToml(text);
  const parse = simple ? () => simple : tomlParser();
  if (isNeedsParser(parse)) return parse;
  let doc: Record<string, unknown>;
  try {
    doc = parse(text);
  } catch (err) {
    return { ok: false, reason: tomlReason(err) };
  }
  const fields: Record<string, unknown> = {
    name: doc.name,
    description: doc.description,
  };
  if (doc.model !== undefined) fields.model = doc.model;
  if (doc.model_reasoning_effort !== undefined) {
    fields.thinkingLevel = doc.model_reasoning_effort === "none"
      ? "off"
      : doc.model_reasoning_effort;
  }
  if (doc.sandbox_mode !== undefined) fields.sandbox_mode = doc.sandbox_mode;
  if (doc.sandbox_mode === "read-only") fields.tools = [...READ_ONLY_TOOLS];
  if (doc.mcp_servers !== undefined) fields.mcp_servers = codexServers(doc.mcp_servers);
  // Keys not mapped above go through as they are, so the field catalogue
  // names the ones xcsh does not use.
  for (const [k, v] of Object.entries(doc)) {
    if (!CODEX_MAPPED.has(k) && !(k in fields)) fields[k] = v;
  }
  const body = doc.developer_instructions;
  if (body !== undefined && typeof body !== "string") {
    return { ok: false, reason: "'developer_instructions' must be a string" };
  }
  return { ok: true, fields, body: body ?? "" };
}
