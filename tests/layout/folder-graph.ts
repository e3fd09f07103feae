/**
 * Which folders of `src/` import which, and whether that graph has a cycle.
 *
 * A folder is the first path segment under `src/` (`src/runner/guards.ts` is
 * in `runner`); files directly in `src/` (`types.ts`, `runtime.ts`) are shared
 * leaves and belong to no folder. Only static and dynamic relative imports
 * count; package imports do not.
 *
 * @example
 * ```ts
 * const graph = folderGraph({ "cli/a.ts": ["../runner/b.ts"], "runner/b.ts": [] });
 * findCycle(graph); // undefined
 * ```
 *
 * @module
 */
import { posix } from "node:path";

/** Folder name → the folders it imports (never itself). */
export type FolderGraph = Map<string, Set<string>>;

const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** The relative import specifiers of one source text. */
export function relativeImports(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1]);
}

function folderOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
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
      const to = folderOf(posix.normalize(posix.join(posix.dirname(file), spec)));
      if (to && to !== from) graph.get(from)!.add(to);
    }
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
