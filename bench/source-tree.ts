/**
 * Builds the search tools' bench tree: the JavaScript, TypeScript, JSON and
 * Markdown files of this repository's `node_modules` copied (hidden entries
 * left out) into `copies` sibling folders, so the tree looks like a large
 * repository's sources. A `.git` folder marks it as a repository, and a root
 * `.gitignore` excludes source maps and `coverage/` folders, as real ones do.
 *
 *   bun bench/source-tree.ts DIR [COPIES]
 *
 * @module
 */
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

const SOURCE = /\.(?:[cm]?js|[cm]?ts|tsx|jsx|json|md)$/;

export interface SourceTree {
  root: string;
  files: number;
  bytes: number;
}

/** The source files below `dir` (relative paths), hidden entries left out. */
function sources(dir: string, rel = "", out: string[] = []): string[] {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) sources(dir, r, out);
    else if (e.isFile() && SOURCE.test(e.name)) out.push(r);
  }
  return out;
}

/** Writes the tree under `rootArg` from `from` (a `node_modules` folder). */
export function buildSourceTree(rootArg: string, from: string, copies: number): SourceTree {
  const root = resolve(rootArg);
  const list = sources(from);
  let files = 0;
  let bytes = 0;
  for (let c = 1; c <= copies; c++) {
    const made = new Set<string>();
    for (const rel of list) {
      const dest = join(root, `copy${c}`, rel);
      const parent = dest.slice(0, dest.lastIndexOf("/"));
      if (!made.has(parent)) {
        mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      copyFileSync(join(from, rel), dest);
      bytes += statSync(dest).size;
      files++;
    }
  }
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "*.map\ncoverage/\n");
  return { root, files, bytes };
}

if (import.meta.main) {
  const [dir, copies] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: bun bench/source-tree.ts DIR [COPIES]");
    process.exit(2);
  }
  const from = resolve(import.meta.dirname ?? ".", "..", "node_modules");
  console.log(JSON.stringify(buildSourceTree(dir, from, Number(copies ?? 4))));
}
