/**
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
import { stat } from "node:fs/promises";
import { fileReader } from "./file-bytes.ts";
import { SHARE, SharedSearch } from "./grep-share.ts";
import { compileGlob } from "../../fs/glob.ts";
import { type LineSearch, lineSearcher, searchText } from "./line-search.ts";
import { toolError, type ToolSpec } from "../tool-spec.ts";
import { confine, linkStaysInside } from "../confine.ts";
import { pacer } from "./pace.ts";
import { type BatchResult, SEARCHED, TOO_LARGE } from "./search-batch.ts";
import { displayPath, entryPath, looksBinary, walk } from "./walk.ts";
import { TOOL_READ_ONLY } from "../../discovery/tool-catalogue.ts";
import { readDenyFilter, ruleAnchors } from "../permission-check.ts";

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
  return searchText(text, re, limit);
}

function cut(line: string): string {
  return line.length > GREP_MAX_LINE_CHARS ? line.slice(0, GREP_MAX_LINE_CHARS) + " …" : line;
}

export const grepTool: ToolSpec = {
  name: "grep",
  description: "Search with a JavaScript regular expression every file below `path` that " +
    ".gitignore does not exclude. Returns `path:line:text` lines, at most max_results " +
    `(default ${GREP_DEFAULT_RESULTS}).`,
  readOnly: TOOL_READ_ONLY.grep,
  inputSchema: {
    type: "object",
    properties: {
      pattern: { type: "string", minLength: 1 },
      path: { type: "string", description: "File or directory (default: working directory)." },
      glob: { type: "string", description: "Only paths matching it, e.g. `*.ts`, `src/**/*.py`." },
      ignore_case: { type: "boolean", description: "Case-insensitive match." },
      max_results: { type: "integer", minimum: 1, maximum: GREP_MAX_RESULTS },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  async run(args: GrepArgs, ctx) {
    let search: LineSearch;
    try {
      search = lineSearcher(args.pattern, args.ignore_case === true);
    } catch (err) {
      return toolError(`invalid regular expression: ${(err as Error).message}`);
    }
    const limit = Math.min(args.max_results ?? GREP_DEFAULT_RESULTS, GREP_MAX_RESULTS);
    const where = await confine(ctx, args.path, true);
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
    const read = fileReader(GREP_MAX_FILE_BYTES);
    const results: string[] = [];
    let files = 0;
    let tooLarge = 0;
    let more = false;

    // Searches one file; true once more matches than the cap were seen.
    // `known`: the listing (or a stat) found a regular file there.
    const searchFile = (abs: string, known = true): boolean => {
      const got = read(abs, known);
      if (got.kind === "too-large") tooLarge++;
      if (got.kind !== "bytes" || looksBinary(got.bytes)) return false;
      files++;
      const found = search(got.bytes, limit - results.length + 1);
      if (found.length === 0) return false;
      const shown = displayPath(ctx.cwd, abs);
      for (const [n, line] of found) {
        if (results.length >= limit) return (more = true);
        results.push(`${shown}:${n}:${cut(line)}`);
      }
      return false;
    };

    // Adds batch results as searchFile would have, file by file, in order.
    const mergeBatches = (paths: string[][], done: (BatchResult | undefined)[]) => {
      for (let b = 0; b < paths.length; b++) {
        const r = done[b];
        if (r === undefined) return;
        let h = 0;
        for (let i = 0; i < r.kinds.length; i++) {
          const kind = r.kinds[i];
          if (kind === TOO_LARGE) tooLarge++;
          if (kind !== SEARCHED) continue;
          files++;
          if (h >= r.hits.length || r.hits[h][0] !== i) continue;
          const found = r.hits[h++][1];
          const shown = displayPath(ctx.cwd, paths[b][i]);
          for (const [n, line] of found) {
            if (results.length >= limit) {
              more = true;
              return;
            }
            results.push(`${shown}:${n}:${cut(line)}`);
          }
        }
      }
    };

    // The first files are searched as the walk meets them; past that, the
    // walk collects them for a search on two threads (./grep-share.ts),
    // merged here in walk order.
    let shared: SharedSearch | undefined;
    const take = (abs: string): boolean => {
      if (shared === undefined) {
        if (files + tooLarge < SHARE.inlineFiles) return searchFile(abs);
        let seen = results.length;
        shared = new SharedSearch({
          job: {
            pattern: args.pattern,
            ignoreCase: args.ignore_case === true,
            perFile: limit + 1,
            maxBytes: GREP_MAX_FILE_BYTES,
          },
          search,
          read,
          // More matches than the cap: no later file matters.
          enough: (r) => {
            for (const [, found] of r.hits) seen += found.length;
            return seen > limit;
          },
        });
      }
      shared.add(abs);
      return shared.stopped;
    };

    let truncatedWalk = false;
    if (st.isFile()) {
      searchFile(start, st.isFile());
    } else {
      const pace = pacer();
      try {
        const denied = readDenyFilter(ctx.permissions, ruleAnchors(ctx));
        const w = await walk(start, { signal: ctx.signal, pace }, (e) => {
          if (e.isDir || !e.isFile) return false;
          if (filter && !filter(e.rel)) return false;
          const abs = entryPath(e);
          // A file a deny Read(…) rule covers is not searched.
          if (denied?.(abs)) return false;
          if (!e.isLink) return take(abs);
          // A symlink met on the walk is searched only when it stays inside.
          return linkStaysInside(abs, where.roots).then((inside) => inside && take(abs));
        });
        if (shared !== undefined && !ctx.signal.aborted) {
          const done = await shared.finish(ctx.signal, pace);
          mergeBatches(done.paths, done.results);
        }
        truncatedWalk = w.truncated && !more;
      } finally {
        shared?.close();
      }
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
