/**
 * The `write` tool: creates or overwrites a file with the given content,
 * creating missing parent directories, inside the project only.
 *
 * Decides what may be written: a regular file, or a new one. A folder, a
 * FIFO, a device or a socket is refused at once, never waited on: the path
 * is looked at first, then opened without blocking (`O_NONBLOCK`, so a FIFO
 * nobody reads fails instead of hanging), and the open file is checked again
 * before a byte is written.
 *
 * @module
 */
import { constants } from "node:fs";
import { mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { confine } from "./confine.ts";
import { toolError, type ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

/** Open for writing, created or truncated, never blocking (0 where a flag does not exist). */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC |
  (constants.O_NONBLOCK ?? 0);

export const writeTool: ToolSpec = {
  name: "write",
  description: "Create or overwrite a file with the given content (parent directories are " +
    "created). Prefer edit for changing part of an existing file.",
  readOnly: TOOL_READ_ONLY.write,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string" },
      content: { type: "string", description: "The complete new content." },
    },
    required: ["path", "content"],
    additionalProperties: false,
  },
  async run(args: { path: string; content: string }, ctx) {
    const where = await confine(ctx, args.path);
    if (!where.ok) return where.error;
    const { abs, shown } = where;
    const existing = await stat(abs).catch(() => undefined);
    if (existing?.isDirectory()) return toolError(`${shown} is a directory`);
    if (existing && !existing.isFile()) {
      return toolError(`${shown} is not a regular file (a FIFO, device or socket): not written`);
    }
    try {
      await mkdir(dirname(abs), { recursive: true });
      const file = await open(abs, WRITE_FLAGS, 0o666);
      try {
        // Swapped for something else since the look above: leave it alone.
        if (!(await file.stat()).isFile()) {
          return toolError(`${shown} is not a regular file: not written`);
        }
        await file.writeFile(args.content);
      } finally {
        await file.close();
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENXIO") return toolError(`${shown} is a FIFO with no reader: not written`);
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
