/**
 * What a write lane is: the globs (relative to the project root) a task may
 * write, whether a glob is one a lane may hold, the literal prefix of a glob
 * (the folder or file every path it matches lies in), whether a path lies in
 * a lane, whether two lanes may overlap, and whether a lane stays within
 * another (a delegated task's lane within its caller's). Pure.
 *
 * The overlap rule is conservative: two lanes are disjoint only when every
 * pair of their globs has literal prefixes of which neither is the other or
 * a folder above it, segment by segment. Every path a glob matches starts
 * with the glob's literal prefix, so two globs whose prefixes are disjoint
 * folders or files can match no common path; any other pair is said to
 * overlap (even `src/*.ts` and `src/*.md`).
 *
 * @example
 * ```ts
 * lanePrefix("src/api/**"); // "src/api"
 * lanePrefix("**\/*.test.ts"); // "" (the whole project)
 * lanesOverlap(["src/api/**"], ["src/ui/**"]); // false
 * lanesOverlap(["src/**"], ["src/api/x.ts"]); // true
 * inLane("src/api/a.ts", ["src/**"]); // true
 * ```
 *
 * @module
 */
import { compileNodes } from "./glob-match.ts";
import { parseGlob } from "./glob-syntax.ts";

/** The characters that make a path segment a pattern rather than a name. */
const META = /[*?[\]{}\\]/;

/** Why `glob` cannot be a lane glob (outside the project, empty, invalid), or undefined. */
export function laneGlobProblem(glob: string): string | undefined {
  if (typeof glob !== "string" || glob.trim() === "") return "a lane glob is empty";
  if (glob.startsWith("/") || /^[A-Za-z]:[\\/]/.test(glob) || glob.startsWith("~")) {
    return `'${glob}' is not relative to the project: a lane lies inside the project ` +
      "(write it relative to the project root, e.g. src/**)";
  }
  const segments = glob.replace(/^\.\//, "").replace(/\/$/, "").split("/");
  if (segments.some((s) => s === "..")) {
    return `'${glob}' leaves the project ('..'): a lane lies inside the project`;
  }
  if (segments.some((s) => s === "." || s === "")) {
    return `'${glob}' has an empty or '.' path segment`;
  }
  if (/[\r\n\0]/.test(glob)) return `'${JSON.stringify(glob)}' holds a control character`;
  try {
    parseGlob(glob);
  } catch (err) {
    return `'${glob}' is no valid glob: ${(err as Error).message}`;
  }
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "{") depth++;
    else if (glob[i] === "}") depth--;
    if (depth < 0 || depth > 1) return `'${glob}' is no valid glob: unbalanced or nested braces`;
  }
  if (depth !== 0) return `'${glob}' is no valid glob: an unclosed '{'`;
  return undefined;
}

/** The first problem of a lane's globs, naming `field`, or undefined. */
export function laneProblem(globs: readonly string[], field: string): string | undefined {
  if (globs.length === 0) return `${field}: a lane needs at least one glob`;
  for (const g of globs) {
    const p = laneGlobProblem(g);
    if (p) return `${field}: ${p}`;
  }
  return undefined;
}

/** `glob` without a leading `./` and with a trailing `/` read as everything below. */
function normal(glob: string): string {
  const g = glob.replace(/^\.\//, "");
  return g.endsWith("/") ? g + "**" : g;
}

/**
 * The literal prefix of `glob`: its leading path segments that hold no
 * pattern character, joined by `/` ("" when the first one does). Every path
 * the glob matches is this prefix or lies below it.
 */
export function lanePrefix(glob: string): string {
  const out: string[] = [];
  for (const s of normal(glob).split("/")) {
    if (META.test(s)) break;
    out.push(s);
  }
  return out.join("/");
}

/** True when prefix `a` is `b`, or a folder above it, or below it (segment-wise). */
function nested(a: string, b: string): boolean {
  if (a === "" || b === "" || a === b) return true;
  return a.startsWith(b + "/") || b.startsWith(a + "/");
}

/** Whether some path could lie in both lanes (conservative: see the module comment). */
export function lanesOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => nested(lanePrefix(x), lanePrefix(y))));
}

/**
 * Whether every path `inner` may match lies in `outer` (conservative): each
 * glob of `inner` is one of `outer`, or lies below the prefix of an `outer`
 * glob that is a whole folder (`P/**`).
 */
export function laneWithin(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((g) =>
    outer.some((o) => {
      const n = normal(o);
      if (normal(g) === n) return true;
      if (n !== "**" && !n.endsWith("/**")) return false;
      const folder = n === "**" ? "" : n.slice(0, -3);
      if (META.test(folder)) return false;
      const p = lanePrefix(g);
      return folder === "" || p === folder || p.startsWith(folder + "/");
    })
  );
}

/** A matcher for a lane: true when the relative path `rel` matches one of its globs. */
export function laneMatcher(globs: readonly string[]): (rel: string) => boolean {
  const tests = globs.map((g) => compileNodes(parseGlob(normal(g))));
  return (rel) => tests.some((t) => t(rel));
}

/** True when the relative path `rel` lies in the lane `globs`. */
export function inLane(rel: string, globs: readonly string[]): boolean {
  return laneMatcher(globs)(rel);
}
