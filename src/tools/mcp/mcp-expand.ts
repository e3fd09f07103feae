/**
 * Fills `${VAR}` and `${VAR:-default}` in an MCP server definition from the
 * environment, as Claude Code does for `.mcp.json` (command, args, env, url,
 * headers). A variable that is unset and has no default is reported by
 * name, so the server's start fails with a message saying what to set. Pure.
 *
 * @example
 * ```ts
 * expandVariables("Bearer ${TOKEN}", { TOKEN: "abc" }); // { text: "Bearer abc", missing: [] }
 * expandVariables("${PORT:-8080}", {}); // { text: "8080", missing: [] }
 * ```
 *
 * @module
 */
import type { McpServerDef } from "../../types.ts";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `text` with its variables filled; `missing` names the unset ones. */
export function expandVariables(
  text: string,
  env: Record<string, string | undefined>,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(VARIABLE, (_, name: string, fallback?: string) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (!missing.includes(name)) missing.push(name);
    return "";
  });
  return { text: out, missing };
}

/** The definition with every variable filled, and the unset ones. */
export function expandDefinition(
  def: McpServerDef,
  env: Record<string, string | undefined>,
): { def: McpServerDef; missing: string[] } {
  const missing = new Set<string>();
  const fill = (s: string) => {
    const r = expandVariables(s, env);
    r.missing.forEach((m) => missing.add(m));
    return r.text;
  };
  const fillMap = (m: Record<string, string>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fill(v)]));
  const out: McpServerDef = def.type === "stdio"
    ? {
      type: "stdio",
      command: fill(def.command),
      args: def.args.map(fill),
      env: fillMap(def.env),
      ...(def.cwd !== undefined ? { cwd: fill(def.cwd) } : {}),
    }
    : { type: "http", url: fill(def.url), headers: fillMap(def.headers) };
  return { def: out, missing: [...missing] };
}
