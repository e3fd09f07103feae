/**
 * Reference copy: the implementation before the search speed-up, kept
 * unchanged so equivalence tests can compare its results with the current
 * tools on generated trees. Not used by xcsh itself.
 *
 * The `grep` tool: lines matching a regular expression, as `path:line:text`.
 * Decides the search set (a file, or every file below a directory that
 * `.gitignore` does not exclude, optionally filtered by a glob), what is
 * skipped (binary files, and files over 2 MiB: an error for a file named
 * explicitly, a count on the last line when searching a directory) and the
 * caps (100 matches by default, at most 1 000; lines cut at 300 characters).
 * Pure TypeScript: no external `rg` or `grep` is needed.
 *
 * @module
 */
import { readFile, stat } from "node:fs/promises";
import { compileGlob } from "./glob.ts";
import { toolError, type ToolSpec } from "../../../src/tools/tool-spec.ts";
import { confine, linkStaysInside } from "../../../src/tools/confine.ts";
import { displayPath, looksBinary, walk } from "./walk.ts";

export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 1000;
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** {@link GREP_MAX_FILE_BYTES} as people write it. */
const GREP_MAX_FILE_LIMIT = "2 MiB";
export const GREP_MAX_LINE_CHARS = 300;

export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
  max_results?: number;
}

/**
 * The matching lines of one file's text, as `[lineNumber, line]`. Pure.
 *
 * @example
 * ```ts
 * grepText("a\nfoo\nb", /fo+/); // [[2, "foo"]]
 * ```
 */
export function grepText(text: string, re: RegExp, limit = Infinity): [number, string][] {
  const out: [number, string][] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    re.lastIndex = 0;
    if (re.test(lines[i])) out.push([i + 1, lines[i]]);
  }
  return out;
}

function cut(line: string): string {
  return line.length > GREP_MAX_LINE_CHARS ? line.slice(0, GREP_MAX_LINE_CHARS) + " …" : line;
}

export const grepTool: ToolSpec = {
  name: "grep",
  description: "Search file contents with a JavaScript regular expression. Searches every file " +
    "below `path` (default: the working directory) that .gitignore does not exclude; `glob` " +
    "filters file names (e.g. `*.ts`, `src/**/*.py`). Returns `path:line:text` lines, at most " +
    `max_results (default ${GREP_DEFAULT_RESULTS}).`,
  readOnly: true,
  inputSchema: {
    type: "object",
    properties: {
      pattern: {
        type: "string",
        minLength: 1,
        description: "Regular expression (JavaScript syntax).",
      },
      path: {
        type: "string",
        description: "File or directory to search (default: working directory).",
      },
      glob: { type: "string", description: "Only search files whose path matches this glob." },
      ignore_case: { type: "boolean", description: "Case-insensitive match." },
      max_results: { type: "integer", minimum: 1, maximum: GREP_MAX_RESULTS },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  async run(args: GrepArgs, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(args.pattern, args.ignore_case ? "i" : "");
    } catch (err) {
      return toolError(`invalid regular expression: ${(err as Error).message}`);
    }
    const limit = Math.min(args.max_results ?? GREP_DEFAULT_RESULTS, GREP_MAX_RESULTS);
    const where = await confine(ctx, args.path);
    if (!where.ok) return where.error;
    const start = where.abs;
    let st;
    try {
      st = await stat(start);
    } catch {
      return toolError(`${displayPath(ctx.cwd, start)}: no such file or directory`);
    }
    if (st.isFile() && st.size > GREP_MAX_FILE_BYTES) {
      return toolError(
        `${displayPath(ctx.cwd, start)} is ${st.size} bytes, over grep's ` +
          `${GREP_MAX_FILE_LIMIT} per-file limit: not searched`,
      );
    }
    const filter = args.glob ? compileGlob(args.glob) : undefined;
    const results: string[] = [];
    let files = 0;
    let tooLarge = 0;
    let more = false;

    const searchFile = async (abs: string) => {
      let buf: Buffer;
      try {
        const s = await stat(abs);
        if (!s.isFile()) return;
        if (s.size > GREP_MAX_FILE_BYTES) {
          tooLarge++;
          return;
        }
        buf = await readFile(abs);
      } catch {
        return;
      }
      if (looksBinary(buf)) return;
      files++;
      const shown = displayPath(ctx.cwd, abs);
      for (const [n, line] of grepText(buf.toString("utf8"), re, limit - results.length + 1)) {
        if (results.length >= limit) {
          more = true;
          return;
        }
        results.push(`${shown}:${n}:${cut(line)}`);
      }
    };

    let truncatedWalk = false;
    if (st.isFile()) {
      await searchFile(start);
    } else {
      const w = walk(start, { signal: ctx.signal, shouldStop: () => more });
      for await (const e of w.entries) {
        if (more) break;
        if (e.isDir) continue;
        if (filter && !filter(displayPath(start, e.abs))) continue;
        // A symlink met on the walk is searched only when it stays inside.
        if (e.isLink && !(await linkStaysInside(e.abs, where.roots))) continue;
        await searchFile(e.abs);
      }
      truncatedWalk = w.truncated();
    }
    if (ctx.signal.aborted) return toolError("cancelled");
    const skipped = tooLarge === 0 ? "" : `\n(${tooLarge} file${tooLarge === 1 ? "" : "s"} ` +
      `over ${GREP_MAX_FILE_LIMIT} not searched)`;
    if (results.length === 0) {
      return {
        ok: true,
        output: `No matches.${skipped}`,
        summary: `0 matches in ${files} files`,
      };
    }
    let output = results.join("\n");
    if (more) output += `\n[more matches not shown: narrow the pattern, path or glob]`;
    if (truncatedWalk) output += `\n[search stopped early: too many files below the path]`;
    output += skipped;
    return {
      ok: true,
      output,
      summary: `${results.length}${more ? "+" : ""} matches in ${files} files`,
    };
  },
};
