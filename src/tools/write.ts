/**
 * The `write` tool: creates or overwrites a file with the given content,
 * creating missing parent directories. Refuses to overwrite a directory.
 *
 * @module
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { toolError, type ToolSpec } from "./types.ts";
import { displayPath, resolvePath } from "./walk.ts";

export const writeTool: ToolSpec = {
  name: "write",
  description: "Create or overwrite a file with the given content (parent directories are " +
    "created). Prefer edit for changing part of an existing file.",
  readOnly: false,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "File path, relative to the working directory." },
      content: { type: "string", description: "The complete new content." },
    },
    required: ["path", "content"],
    additionalProperties: false,
  },
  async run(args: { path: string; content: string }, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    const existing = await stat(abs).catch(() => undefined);
    if (existing?.isDirectory()) return toolError(`${shown} is a directory`);
    try {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, args.content);
    } catch (err) {
      return toolError(`${shown}: ${(err as Error).message}`);
    }
    const bytes = Buffer.byteLength(args.content);
    const verb = existing ? "Overwrote" : "Created";
    return {
      ok: true,
      output: `${verb} ${shown} (${bytes} bytes).`,
      summary: `${shown}: ${bytes} bytes`,
    };
  },
};
