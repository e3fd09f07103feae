/**
 * The `edit` tool: replaces an exact string in a file. Decides the matching
 * rule (exact text, no regex, no whitespace folding) and when to refuse: no
 * match, several matches unless `all` is set, an empty `old_string`, or a
 * replacement identical to the original.
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { toolError, type ToolOutcome, type ToolSpec } from "./types.ts";
import { displayPath, resolvePath } from "./walk.ts";

export interface EditArgs {
  path: string;
  old_string: string;
  new_string: string;
  all?: boolean;
}

/** Counts non-overlapping occurrences of `needle` in `text`. Pure. */
export function countOccurrences(text: string, needle: string): number {
  if (needle === "") return 0;
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Applies one edit to `text`, or says why it cannot. Pure.
 *
 * @example
 * ```ts
 * applyEdit("a b a", { old_string: "a", new_string: "c", all: true }); // { ok: true, text: "c b c", count: 2 }
 * applyEdit("a b a", { old_string: "a", new_string: "c" });            // { ok: false, error: "… 2 times …" }
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
  const count = countOccurrences(text, e.old_string);
  if (count === 0) {
    return {
      ok: false,
      error: "old_string was not found. It must match the file exactly, including whitespace " +
        "and indentation: read the file and copy the text",
    };
  }
  if (count > 1 && !e.all) {
    return {
      ok: false,
      error: `old_string occurs ${count} times. Add surrounding lines to make it unique, or set ` +
        "all: true to replace every occurrence",
    };
  }
  return { ok: true, text: text.split(e.old_string).join(e.new_string), count };
}

export const editTool: ToolSpec = {
  name: "edit",
  description: "Replace exact text in a file. old_string must match exactly once (include " +
    "enough surrounding lines to make it unique), or set all: true to replace every occurrence.",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "File to edit, relative to the working directory." },
      old_string: { type: "string", description: "Exact text to replace." },
      new_string: { type: "string", description: "Replacement text." },
      all: { type: "boolean", description: "Replace every occurrence (default false)." },
    },
    required: ["path", "old_string", "new_string"],
    additionalProperties: false,
  },
  async run(args: EditArgs, ctx): Promise<ToolOutcome> {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    let text: string;
    try {
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
