/**
 * A throw-away working folder and a tool context over it, for unit tests of
 * the child's tools.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { unavailableTaskRunner } from "../../src/tools/task.ts";
import type { ToolContext } from "../../src/tools/tool-spec.ts";

export interface Sandbox {
  dir: string;
  ctx: ToolContext;
  /** Writes files relative to `dir` (parents created). */
  put(files: Record<string, string>): void;
  remove(): void;
}

/** A fresh folder holding `files`, and a context whose cwd is that folder. */
export function sandbox(files: Record<string, string> = {}, signal?: AbortSignal): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-tool-"));
  const put = (fs: Record<string, string>) => {
    for (const [rel, text] of Object.entries(fs)) {
      const abs = join(dir, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  };
  put(files);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  return {
    dir,
    ctx: {
      cwd: dir,
      signal: signal ?? new AbortController().signal,
      env,
      findings: [],
      runTask: unavailableTaskRunner,
    },
    put,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
