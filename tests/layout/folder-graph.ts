/**
 * Which folders and which files of `src/` import which, and whether either
 * graph has a cycle.
 *
 * A folder is the first path segment under `src/` (`src/runner/guards.ts` is
 * in `runner`); a file directly in `src/` (`types.ts`, `runtime.ts`) is a node
 * of its own, named by its file name. In the file graph every file is a node,
 * named by its path under `src/`, and only imports of files that exist count.
 * Only static and dynamic relative imports count, type-only ones included;
 * package imports and imports inside comments do not.
 *
 * @example
 * ```ts
 * import { fileGraph, findCycle, folderGraph } from "./folder-graph.ts";
 *
 * const files = { "cli/a.ts": ["../runner/b.ts"], "runner/b.ts": ["../types.ts"], "types.ts": [] };
 * findCycle(folderGraph(files)); // undefined
 * findCycle(fileGraph(files)); // undefined
 * ```
 *
 * @module
 */
import { posix } from "node:path";

/** Node name → the nodes it imports (never itself). */
export type FolderGraph = Map<string, Set<string>>;

const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
/** A block comment that starts its line (module and JSDoc comments, with their examples). */
const BLOCK_COMMENT = /^[ \t]*\/\*[^]*?\*\//gm;
/** A line that is a comment. */
const LINE_COMMENT = /^[ \t]*\/\/.*$/gm;

/** `source` without its comment lines and the block comments that start a line. */
export function withoutComments(source: string): string {
  return source.replace(BLOCK_COMMENT, "").replace(LINE_COMMENT, "");
}

/**
 * The relative import specifiers of one source text. Imports written in
 * comments (an `@example` block's, say) are not the module's and do not count.
 */
export function relativeImports(source: string): string[] {
  return [...withoutComments(source).matchAll(IMPORT)].map((m) => m[1]);
}

/** The folder (or top-level file) a path under `src/` belongs to; undefined outside `src/`. */
function folderOf(path: string): string | undefined {
  return path.startsWith("../") ? undefined : path.split("/")[0];
}

function resolve(file: string, spec: string): string {
  return posix.normalize(posix.join(posix.dirname(file), spec));
}

/**
 * Builds the folder graph from files keyed by their path under `src/`
 * (POSIX separators) and the relative specifiers each imports.
 */
export function folderGraph(files: Record<string, readonly string[]>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [file, specs] of Object.entries(files)) {
    const from = folderOf(file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const spec of specs) {
      const to = folderOf(resolve(file, spec));
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/**
 * Builds the file graph from the same input as {@link folderGraph}: each file
 * is a node, with an edge to every file of the input it imports.
 */
export function fileGraph(files: Record<string, readonly string[]>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [file, specs] of Object.entries(files)) {
    const to = new Set<string>();
    for (const spec of specs) {
      const target = resolve(file, spec);
      if (target !== file && Object.hasOwn(files, target)) to.add(target);
    }
    graph.set(file, to);
  }
  return graph;
}

/** One cycle as a path `a → b → … → a`, or undefined when there is none. */
export function findCycle(graph: FolderGraph): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, "open");
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === "open") return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return undefined;
}
