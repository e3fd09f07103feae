/**
 * The raw-I/O floor discovery is measured against: the same `readdir` and
 * `readFile` calls discovery needs for a generated tree — every agents folder
 * listed, every definition file read as text, the plugin registry and the
 * settings files read — in the same concurrency style (`Promise.all` over
 * folders and, inside each, over files), and nothing else: no checks, no
 * parsing, no merging.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentFolder } from "./generate.ts";

export interface FloorInput {
  folders: AgentFolder[];
  jsonFiles: string[];
}

/** Reads what discovery reads; resolves to the number of files read. */
export async function rawFloor(tree: FloorInput): Promise<number> {
  const counts = await Promise.all([
    ...tree.folders.map(async (f) => {
      const entries = await readdir(f.path, { withFileTypes: true }).catch(() => []);
      // One `join` per folder: paying it per file would slow the floor down.
      const prefix = join(f.path, "x").slice(0, -1);
      const texts = await Promise.all(
        entries
          .filter((e) => f.extensions.some((x) => e.name.endsWith(x)))
          .map((e) => readFile(prefix + e.name, "utf8")),
      );
      return texts.length;
    }),
    ...tree.jsonFiles.map((p) => readFile(p, "utf8").then(() => 1, () => 0)),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}
