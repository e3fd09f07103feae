/**
 * What an MCP server definition means, wherever it is written: `mcpServers`
 * in xcsh config, a project's `.mcp.json` (Claude Code's format) and an
 * agent file's `mcpServers:` (Claude Code) or `mcp-servers:` (Copilot CLI).
 *
 * A stdio server has `command` (and optional `args`, `env`, `cwd`); an HTTP
 * server has `url` (and optional `headers`). `type` may be `stdio` or
 * `local` (Copilot's word), `http` or `streamable-http`; without it the keys
 * decide. Codex's `enabled_tools` and `disabled_tools` (lists of the
 * server's tool names; `enabledTools`/`disabledTools` as the envelope
 * carries them) restrict which of its tools are registered. Other keys are
 * ignored (the formats carry extras such as Copilot's `tools`). Every problem names the field. A relative `command` (one with a
 * `/`, such as `./tools/mcp.sh`; a bare name is looked up on `PATH`) and a
 * relative `cwd` mean paths from the folder of the file that defines them
 * ({@link anchorDefinition}), never from wherever xcsh happens to run.
 * Pure.
 *
 * @example
 * ```ts
 * checkMcpDefinition({ command: "npx", args: ["-y", "some-server"] }, "mcpServers.fs");
 * // { ok: true, value: { type: "stdio", command: "npx", args: ["-y", "some-server"], env: {} } }
 * ```
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { McpServerDef, McpServerRef, McpToolFilter } from "../types.ts";
import { describeValue, isRecord } from "../formats/values.ts";

export type McpCheck<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** Server names: what `mcp__<server>__<tool>` can carry. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

class FieldProblem extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

function text(v: unknown, field: string): string {
  if (typeof v !== "string" || v.trim() === "") {
    throw new FieldProblem(field, `'${field}' must be a non-empty string, got ${describeValue(v)}`);
  }
  return v.trim();
}

function stringMap(v: unknown, field: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) {
    throw new FieldProblem(field, `'${field}' must be a mapping, got ${describeValue(v)}`);
  }
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "number" || typeof x === "boolean") out[k] = String(x);
    else if (typeof x === "string") out[k] = x;
    else {
      throw new FieldProblem(
        `${field}.${k}`,
        `'${field}.${k}' must be a string, got ${describeValue(x)}`,
      );
    }
  }
  return out;
}

function stringList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    throw new FieldProblem(field, `'${field}' must be a list, got ${describeValue(v)}`);
  }
  return v.map((x, i) => {
    if (typeof x === "number" || typeof x === "boolean") return String(x);
    if (typeof x !== "string") {
      throw new FieldProblem(
        `${field}[${i}]`,
        `'${field}[${i}]' must be a string, got ${describeValue(x)}`,
      );
    }
    return x;
  });
}

/** Codex's `enabled_tools`/`disabled_tools` of definition `v`, as the filter fields. */
function toolFilter(v: Record<string, unknown>, field: string): McpToolFilter {
  const out: McpToolFilter = {};
  for (
    const [key, snake, camel] of [
      ["enabledTools", "enabled_tools", "enabledTools"],
      ["disabledTools", "disabled_tools", "disabledTools"],
    ] as const
  ) {
    const raw = v[snake] ?? v[camel];
    if (raw === undefined || raw === null) continue;
    out[key] = stringList(raw, `${field}.${v[snake] !== undefined ? snake : camel}`);
  }
  return out;
}

function definition(v: unknown, field: string): McpServerDef {
  if (!isRecord(v)) {
    throw new FieldProblem(
      field,
      `'${field}' must be a mapping (command or url), got ${describeValue(v)}`,
    );
  }
  const rawType = v.type === undefined ? undefined : text(v.type, `${field}.type`).toLowerCase();
  let type: "stdio" | "http";
  if (rawType === undefined) {
    if (v.command !== undefined) type = "stdio";
    else if (v.url !== undefined) type = "http";
    else throw new FieldProblem(field, `'${field}' needs a 'command' (stdio) or a 'url' (http)`);
  } else if (rawType === "stdio" || rawType === "local") type = "stdio";
  else if (rawType === "http" || rawType === "streamable-http" || rawType === "streamablehttp") {
    type = "http";
  } else if (rawType === "sse") {
    throw new FieldProblem(
      `${field}.type`,
      `'${field}.type' sse is not supported: use type http (streamable HTTP)`,
    );
  } else {
    throw new FieldProblem(
      `${field}.type`,
      `'${field}.type' must be stdio or http, got ${JSON.stringify(v.type)}`,
    );
  }
  if (type === "stdio") {
    const def: McpServerDef = {
      type,
      command: text(v.command, `${field}.command`),
      args: stringList(v.args, `${field}.args`),
      env: stringMap(v.env, `${field}.env`),
    };
    if (v.cwd !== undefined && v.cwd !== null) def.cwd = text(v.cwd, `${field}.cwd`);
    return { ...def, ...toolFilter(v, field) };
  }
  const url = text(v.url, `${field}.url`);
  // `${VAR}` parts are filled in when the server starts.
  if (!/^(https?:\/\/|\$\{)\S+$/.test(url)) {
    throw new FieldProblem(
      `${field}.url`,
      `'${field}.url' must be an http(s) URL, got ${describeValue(url)}`,
    );
  }
  return { type, url, headers: stringMap(v.headers, `${field}.headers`), ...toolFilter(v, field) };
}

function named(name: string, field: string): string {
  if (!MCP_SERVER_NAME.test(name)) {
    throw new FieldProblem(
      field,
      `'${field}' names MCP server ${
        JSON.stringify(name)
      }: a name may use only letters, digits, '.', '_' and '-'`,
    );
  }
  return name;
}

function wrap<T>(fn: () => T): McpCheck<T> {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err;
    return { ok: false, field: err.field, message: err.message };
  }
}

/** Checks one definition; `field` names it in messages (`mcpServers.github`). */
export function checkMcpDefinition(v: unknown, field: string): McpCheck<McpServerDef> {
  return wrap(() => definition(v, field));
}

/** Checks a mapping of server name → definition (`mcpServers` of config or `.mcp.json`). */
export function checkMcpServerMap(
  v: unknown,
  field: string,
): McpCheck<Record<string, McpServerDef>> {
  return wrap(() => {
    if (!isRecord(v)) {
      throw new FieldProblem(
        field,
        `'${field}' must be a mapping of server names, got ${describeValue(v)}`,
      );
    }
    const out: Record<string, McpServerDef> = {};
    for (const [name, def] of Object.entries(v)) {
      out[named(name, `${field}.${name}`)] = definition(def, `${field}.${name}`);
    }
    return out;
  });
}

/**
 * Reads an agent file's server declarations: a list whose items are names
 * or `{name: definition}` mappings (Claude Code), a mapping of name →
 * definition or null (Copilot CLI), or a comma-separated string of names.
 */
export function checkMcpDeclarations(v: unknown, field: string): McpCheck<McpServerRef[]> {
  return wrap(() => {
    const refs: McpServerRef[] = [];
    const add = (name: string, def: unknown, at: string) => {
      named(name, at);
      if (refs.some((r) => r.name === name)) return;
      refs.push(
        def === null || def === undefined || def === true
          ? { name }
          : { name, definition: definition(def, at) },
      );
    };
    if (typeof v === "string") {
      for (const name of v.split(",").map((s) => s.trim()).filter(Boolean)) add(name, null, field);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (typeof item === "string") add(item.trim(), null, `${field}[${i}]`);
        else if (isRecord(item)) {
          for (const [name, def] of Object.entries(item)) add(name, def, `${field}[${i}].${name}`);
        } else {
          throw new FieldProblem(
            `${field}[${i}]`,
            `'${field}[${i}]' must be a server name or a mapping of name to definition, got ${
              describeValue(item)
            }`,
          );
        }
      });
    } else if (isRecord(v)) {
      for (const [name, def] of Object.entries(v)) add(name, def, `${field}.${name}`);
    } else if (v !== null && v !== undefined) {
      throw new FieldProblem(
        field,
        `'${field}' must be a list or a mapping, got ${describeValue(v)}`,
      );
    }
    return refs;
  });
}

/** True for a path to resolve: relative, and not a `${VAR}` filled in later. */
function relativePath(p: string): boolean {
  return !isAbsolute(p) && !p.startsWith("${") && !p.startsWith("~");
}

/**
 * `def` with a relative `command` path and `cwd` made absolute from `base`,
 * the folder of the file that defines it. A bare command name (`node`,
 * `npx`) stays a name for `PATH`.
 *
 * @example
 * ```ts
 * anchorDefinition({ type: "stdio", command: "./tools/mcp.sh", args: [], env: {} }, "/p/.xcsh");
 * // { type: "stdio", command: "/p/.xcsh/tools/mcp.sh", args: [], env: {} }
 * ```
 */
export function anchorDefinition(def: McpServerDef, base: string): McpServerDef {
  if (def.type !== "stdio") return def;
  const out: McpServerDef = { ...def };
  if (def.command.includes("/") && relativePath(def.command)) {
    out.command = resolve(base, def.command);
  }
  if (def.cwd !== undefined && relativePath(def.cwd)) out.cwd = resolve(base, def.cwd);
  return out;
}

/** Every definition of `servers` anchored at `base` ({@link anchorDefinition}). */
export function anchorServers(
  servers: Record<string, McpServerDef>,
  base: string,
): Record<string, McpServerDef> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, def]) => [name, anchorDefinition(def, base)]),
  );
}
