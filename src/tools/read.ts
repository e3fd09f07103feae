/**
 * The `read` tool: a text file's lines, numbered, optionally a range of
 * them. Decides the caps (2 000 lines and 256 KiB of output per call, lines
 * cut at 2 000 characters) and refuses directories, anything else that is not
 * a regular file (FIFOs, devices) and binary files with a message saying why.
 *
 * @module
 */
import { readFile, stat } from "node:fs/promises";
import { confine } from "./confine.ts";
import { looksBinary } from "./search/walk.ts";
import { toolError, type ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export const READ_MAX_LINES = 2000;
export const READ_MAX_BYTES = 256 * 1024;
export const READ_MAX_LINE_CHARS = 2000;
/** Files larger than this are refused (a search tool suits them better). */
export const READ_MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface ReadArgs {
  path: string;
  start_line?: number;
  end_line?: number;
}

/**
 * Formats lines `from`..`to` (1-based, inclusive) as `N\ttext`, within the
 * caps; says where it stopped when a cap cut it short. Pure.
 *
 * @example
 * ```ts
 * numberLines(["a", "b", "c"], 2, 3).text; // "2\tb\n3\tc"
 * ```
 */
export function numberLines(
  lines: readonly string[],
  from: number,
  to: number,
): { text: string; shown: [number, number] } {
  const out: string[] = [];
  let bytes = 0;
  let last = from - 1;
  for (let n = from; n <= to && n <= lines.length; n++) {
    if (n - from >= READ_MAX_LINES) break;
    let line = lines[n - 1];
    if (line.length > READ_MAX_LINE_CHARS) {
      line = line.slice(0, READ_MAX_LINE_CHARS) + ` … [line cut at ${READ_MAX_LINE_CHARS} chars]`;
    }
    const entry = `${n}\t${line}`;
    bytes += entry.length + 1;
    if (bytes > READ_MAX_BYTES && out.length > 0) break;
    out.push(entry);
    last = n;
  }
  return { text: out.join("\n"), shown: [from, last] };
}

export const readTool: ToolSpec = {
  name: "read",
  description: "Read a text file; lines come back numbered (`N<TAB>text`), at most " +
    `${READ_MAX_LINES} per call. start_line and end_line (1-based, inclusive) read part of it.`,
  readOnly: TOOL_READ_ONLY.read,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Relative to the working directory." },
      start_line: { type: "integer", minimum: 1, description: "Default 1." },
      end_line: { type: "integer", minimum: 1, description: "Default: the last line." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  async run(args: ReadArgs, ctx) {
    const where = await confine(ctx, args.path, true);
    if (!where.ok) return where.error;
    const { abs, shown } = where;
    let st;
    try {
      st = await stat(abs);
    } catch {
      return toolError(`${shown}: no such file`);
    }
    if (st.isDirectory()) return toolError(`${shown} is a directory: use ls to list it`);
    // A FIFO would block the read and a device such as /dev/zero never ends.
    if (!st.isFile()) return toolError(`${shown} is not a regular file`);
    if (st.size > READ_MAX_FILE_BYTES) {
      return toolError(`${shown} is ${st.size} bytes, too large to read: search it with grep`);
    }
    const buf = await readFile(abs);
    if (looksBinary(buf)) return toolError(`${shown} looks like a binary file`);
    const text = buf.toString("utf8");
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const total = text === "" ? 0 : lines.length;
    const from = args.start_line ?? 1;
    const to = Math.min(args.end_line ?? total, total);
    if (total === 0) return { ok: true, output: "(empty file)", summary: `${shown}: empty` };
    if (from > total) {
      return toolError(`${shown} has ${total} lines; start_line ${from} is past the end`);
    }
    if (to < from) return toolError(`end_line ${to} is before start_line ${from}`);
    const r = numberLines(lines, from, to);
    let output = r.text;
    if (r.shown[1] < to) {
      output += `\n[stopped at line ${r.shown[1]} of ${total} (output cap): ` +
        `continue with start_line ${r.shown[1] + 1}]`;
    } else if (to < total && args.end_line === undefined) {
      output += `\n[file has ${total} lines]`;
    }
    return {
      ok: true,
      output,
      summary: `${shown}:${r.shown[0]}-${r.shown[1]} of ${total} lines`,
    };
  },
};
