/**
 * Whether a task's checks can be evaluated at all, decided before any child
 * starts: every scope glob compiles (the glob syntax of `find` and `grep`,
 * `fs/glob.ts`) and every file schema is a JSON Schema or JTD Ajv
 * accepts. The problem is one line naming where the check came from.
 *
 * @module
 */
import { compileGlob } from "../fs/glob.ts";
import type { AcceptCheck } from "../types.ts";

/** Why one of `checks` (from `origin`, e.g. `--accept` or the agent file) cannot run. */
export async function checksProblem(
  checks: readonly AcceptCheck[],
  origin: string,
): Promise<string | undefined> {
  for (const c of checks) {
    if (c.kind === "scope") {
      for (const g of c.globs) {
        try {
          compileGlob(g);
        } catch (err) {
          return `${origin}: check '${c.name}': invalid glob '${g}' (${(err as Error).message})`;
        }
      }
    }
    if (c.kind === "file" && c.schema !== undefined) {
      const { compileOutputSchema } = await import("../schema/output-schema.ts");
      const compiled = compileOutputSchema(c.schema);
      if (!compiled.ok) return `${origin}: check '${c.name}': ${compiled.error}`;
    }
  }
  return undefined;
}
