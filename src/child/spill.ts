/**
 * Where a long tool result goes: the model reads at most its share of the
 * window (`tools/result-share.ts` decides how much), and the whole result is
 * written to the task's artifacts folder — the folder the parent named in
 * the envelope, made 0700 here on first need, each result a new 0600 file —
 * whose real path then becomes one of the folders `read` may look in, so
 * the model can read the rest in parts. Every tool's result passes through
 * here (bash, read, grep, find, MCP tools, web_fetch, skill, task).
 *
 * @module
 */
import { realpath } from "node:fs/promises";
import type { ToolContext, ToolSpec } from "../tools/tool-spec.ts";
import { cutToShare, type Kept, needsSpill } from "../tools/result-share.ts";
import { privateFolder, writeNew } from "../fs/private-files.ts";

/**
 * The tools with results over the limit `limitOf` answers (asked at the
 * first result, so the window table loads only once a tool ran) cut and
 * kept whole in `folder` (absent: not kept).
 */
export function spillingTools(
  tools: ReadonlyMap<string, ToolSpec>,
  limitOf: () => Promise<number>,
  folder: string | undefined,
): Map<string, ToolSpec> {
  let limit: Promise<number> | undefined;
  let count = 0;
  let real: Promise<string> | undefined;
  /** Saves `text`, adding the folder to `ctx`'s read roots once it exists. */
  const keep = async (tool: string, text: string, ctx: ToolContext): Promise<Kept> => {
    if (!folder) return { error: "this task has no artifacts folder" };
    try {
      real ??= privateFolder(folder).then((dir) => realpath(dir));
      const dir = await real;
      if (!(ctx.readRoots ?? []).includes(dir)) ctx.readRoots = [...(ctx.readRoots ?? []), dir];
      const stem = `${String(++count).padStart(3, "0")}-${
        tool.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60)
      }`;
      return { path: await writeNew(dir, stem, text) };
    } catch (err) {
      real = undefined;
      return { error: (err as Error).message };
    }
  };
  const out = new Map<string, ToolSpec>();
  for (const [name, spec] of tools) {
    out.set(name, {
      ...spec,
      run: async (args, ctx) => {
        const o = await spec.run(args, ctx);
        limit ??= limitOf();
        const max = await limit;
        if (!needsSpill(o.output, max, o.full)) return { ...o, full: undefined };
        const whole = o.full ?? o.output;
        const kept = await keep(name, whole, ctx);
        const shown = cutToShare(o.output, max, kept, whole.length);
        return { ok: o.ok, output: shown.text, summary: o.summary };
      },
    });
  }
  return out;
}
