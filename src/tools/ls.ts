/**
 * The `ls` tool: the entries of one directory, sorted, directories marked
 * with a trailing `/` and symlinks with `@`, dotfiles included, at most 1 000.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { toolError, type ToolSpec } from "./tool-spec.ts";
import { confine } from "./confine.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export const LS_MAX_ENTRIES = 1000;

export const lsTool: ToolSpec = {
  name: "ls",
  description: "List a directory's entries (default: the working directory). Directories end " +
    "with `/`, symlinks with `@`.",
  readOnly: TOOL_READ_ONLY.ls,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Directory, relative to the working directory." },
    },
    additionalProperties: false,
  },
  async run(args: { path?: string }, ctx) {
    const where = await confine(ctx, args.path, true);
    if (!where.ok) return where.error;
    const { abs, shown } = where;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOTDIR") return toolError(`${shown} is a file: use read`);
      return toolError(`${shown}: no such directory`);
    }
    const names = entries
      .map((e) => e.name + (e.isDirectory() ? "/" : e.isSymbolicLink() ? "@" : ""))
      .sort();
    if (names.length === 0) {
      return { ok: true, output: "(empty directory)", summary: `${shown}: empty` };
    }
    let output = names.slice(0, LS_MAX_ENTRIES).join("\n");
    if (names.length > LS_MAX_ENTRIES) {
      output += `\n[${names.length - LS_MAX_ENTRIES} more entries not shown: use find]`;
    }
    return { ok: true, output, summary: `${shown}: ${names.length} entries` };
  },
};
