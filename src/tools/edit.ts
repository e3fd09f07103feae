/**
 * The `edit` tool: replaces an exact string in a file. Decides the matching
 * rule (exact text, no regex, no whitespace folding; in a CRLF file a
 * multi-line `old_string` with plain `\n` line breaks matches too) and when
 * to refuse: anything but a regular file, no match, several (possibly
 * overlapping) matches unless `all` is set, an empty `old_string`, or a
 * replacement identical to the original.
 *
 * @module
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { toolError, type ToolOutcome, type ToolSpec } from "./tool-spec.ts";
import { confine } from "./confine.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export interface EditArgs {
  path: string;
  old_string: string;
  new_string: string;
  all?: boolean;
}

/** Counts non-overlapping occurrences of `needle` in `text`. Pure. */
export function countOccurrences(text: string, needle: string): number {
  return matchSpans(text, needle).filter(nonOverlapping()).length;
}

/** Counts every position where `needle` starts in `text`, overlaps included. Pure. */
export function countPositions(text: string, needle: string): number {
  return matchSpans(text, needle).length;
}

/**
 * Every `[start, end)` where `needle` matches in `text`, overlapping ones
 * included (the search moves on by one character). With `crlf`, each `\n` of
 * the needle also matches a `\r\n` in the text.
 */
function matchSpans(text: string, needle: string, crlf = false): [number, number][] {
  const spans: [number, number][] = [];
  if (needle === "") return spans;
  if (!crlf) {
    for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
      spans.push([i, i + needle.length]);
    }
    return spans;
  }
  const source = needle.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/\n/g, "\\r?\\n");
  const re = new RegExp(source, "g");
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // A match starting at the `\n` of a `\r\n` was already found at its `\r`.
    if (!(m[0].startsWith("\n") && text[m.index - 1] === "\r")) {
      spans.push([m.index, m.index + m[0].length]);
    }
    re.lastIndex = m.index + 1;
  }
  return spans;
}

/** A filter keeping the spans that do not overlap an earlier kept one (spans in order). */
function nonOverlapping(): (span: [number, number]) => boolean {
  let end = 0;
  return ([s, e]) => {
    if (s < end) return false;
    end = e;
    return true;
  };
}

/**
 * Applies one edit to `text`, or says why it cannot. Pure.
 *
 * Matching is exact, with one allowance: when the text has CRLF line endings
 * and `old_string` has no `\r` (as copied from `read`, which shows lines
 * without it), each `\n` of `old_string` also matches `\r\n`, and the line
 * breaks of `new_string` are written as `\r\n`. Several matches are an error
 * even when they overlap; `all` replaces them left to right, skipping one
 * that overlaps a match already replaced.
 *
 * @example
 * ```ts
 * applyEdit("a b a", { old_string: "a", new_string: "c", all: true }); // { ok: true, text: "c b c", count: 2 }
 * applyEdit("a b a", { old_string: "a", new_string: "c" });            // { ok: false, error: "… 2 times …" }
 * applyEdit("x\r\ny\r\n", { old_string: "x\ny", new_string: "z\nw" }); // { ok: true, text: "z\r\nw\r\n", count: 1 }
 * ```
 */
export function applyEdit(
  text: string,
  e: Pick<EditArgs, "old_string" | "new_string" | "all">,
): { ok: true; text: string; count: number } | { ok: false; error: string } {
  if (e.old_string === "") return { ok: false, error: "old_string is empty" };
  if (e.old_string === e.new_string) {
    return { ok: false, error: "old_string and new_string are identical: nothing to change" };
  }
  // A CRLF file edited with plain `\n` line breaks (as `read` shows them).
  const crlf = text.includes("\r\n") && !e.old_string.includes("\r");
  const replacement = crlf ? e.new_string.replace(/\r?\n/g, "\r\n") : e.new_string;
  const spans = matchSpans(text, e.old_string, crlf && e.old_string.includes("\n"));
  if (spans.length === 0) {
    return {
      ok: false,
      error: "old_string was not found. It must match the file exactly, including whitespace " +
        "and indentation: read the file and copy the text",
    };
  }
  if (spans.length > 1 && !e.all) {
    const disjoint = spans.filter(nonOverlapping()).length;
    const overlap = disjoint < spans.length ? " (some of them overlapping)" : "";
    return {
      ok: false,
      error: `old_string occurs ${spans.length} times${overlap}. Add surrounding lines to make ` +
        "it unique, or set all: true to replace every occurrence",
    };
  }
  // Replace from left to right, skipping a match that overlaps one already replaced.
  const chosen = spans.filter(nonOverlapping());
  let out = "";
  let at = 0;
  for (const [s, end] of chosen) {
    out += text.slice(at, s) + replacement;
    at = end;
  }
  return { ok: true, text: out + text.slice(at), count: chosen.length };
}

export const editTool: ToolSpec = {
  name: "edit",
  description: "Replace exact text in a file. old_string must match exactly once (include " +
    "enough surrounding lines to make it unique), or set all: true to replace every occurrence.",
  readOnly: TOOL_READ_ONLY.edit,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string" },
      old_string: { type: "string" },
      new_string: { type: "string" },
      all: { type: "boolean", description: "Default false." },
    },
    required: ["path", "old_string", "new_string"],
    additionalProperties: false,
  },
  async run(args: EditArgs, ctx): Promise<ToolOutcome> {
    const where = await confine(ctx, args.path);
    if (!where.ok) return where.error;
    const { abs, shown } = where;
    let text: string;
    try {
      // Stat first: opening a FIFO would block, and a device may never end.
      if (!(await stat(abs)).isFile()) return toolError(`${shown} is not a regular file`);
      text = await readFile(abs, "utf8");
    } catch {
      return toolError(`${shown}: no such file (use write to create one)`);
    }
    const r = applyEdit(text, args);
    if (!r.ok) return toolError(`${shown}: ${r.error}`);
    await writeFile(abs, r.text);
    const what = `${r.count} occurrence${r.count === 1 ? "" : "s"}`;
    return {
      ok: true,
      output: `Replaced ${what} in ${shown}.`,
      summary: `${shown}: replaced ${what}`,
    };
  },
};
