/**
 * The `find` tool: paths matching a glob below a directory. Decides the
 * matching rule (a glob without `/` matches the base name at any depth, one
 * with `/` matches the whole path relative to the search directory), that
 * `.gitignore`d paths are left out, that directories are shown with a
 * trailing `/`, and the cap (200 paths by default, at most 1 000).
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { compileGlob } from "../../fs/glob.ts";
import { toolError, type ToolSpec } from "../tool-spec.ts";
import { confine } from "../confine.ts";
import { displayPath, entryPath, walk } from "./walk.ts";
import { TOOL_READ_ONLY } from "../../discovery/tool-catalogue.ts";

export const FIND_DEFAULT_RESULTS = 200;
export const FIND_MAX_RESULTS = 1000;

export interface FindArgs {
  pattern: string;
  path?: string;
  max_results?: number;
}

export const findTool: ToolSpec = {
  name: "find",
  description: "Find files and directories by glob pattern, e.g. `*.ts` (any depth), " +
    "`src/**/*.test.ts`, `*.{yml,yaml}`. Skips what .gitignore excludes. Directories end " +
    "with `/`.",
  readOnly: TOOL_READ_ONLY.find,
  inputSchema: {
    type: "object",
    properties: {
      pattern: { type: "string", minLength: 1 },
      path: { type: "string", description: "Directory (default: working directory)." },
      max_results: { type: "integer", minimum: 1, maximum: FIND_MAX_RESULTS },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  async run(args: FindArgs, ctx) {
    const where = await confine(ctx, args.path, true);
    if (!where.ok) return where.error;
    const start = where.abs;
    try {
      if (!(await stat(start)).isDirectory()) {
        return toolError(`${displayPath(ctx.cwd, start)} is not a directory`);
      }
    } catch {
      return toolError(`${displayPath(ctx.cwd, start)}: no such directory`);
    }
    const limit = Math.min(args.max_results ?? FIND_DEFAULT_RESULTS, FIND_MAX_RESULTS);
    const match = compileGlob(args.pattern);
    const found: string[] = [];
    let more = false;
    const w = await walk(start, { signal: ctx.signal }, (e) => {
      if (!match(e.rel)) return false;
      if (found.length >= limit) return (more = true);
      found.push(displayPath(ctx.cwd, entryPath(e)) + (e.isDir ? "/" : ""));
      return false;
    });
    if (ctx.signal.aborted) return toolError("cancelled");
    if (found.length === 0) return { ok: true, output: "No matches.", summary: "0 paths" };
    let output = found.join("\n");
    if (more) output += `\n[more paths not shown: narrow the pattern or path]`;
    if (w.truncated) output += `\n[search stopped early: too many files below the path]`;
    return { ok: true, output, summary: `${found.length}${more ? "+" : ""} paths` };
  },
};
