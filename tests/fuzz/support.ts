/**
 * Shared by the fuzz tests: a seeded `check` that says how to replay a
 * failure, and the comparison of the frontmatter fast path with `yaml`.
 *
 * Every property runs with a fixed seed (FUZZ_SEED overrides it). A failure
 * reports the seed, the counterexample path and the shrunk input; rerun the
 * same file with that FUZZ_SEED to replay it.
 *
 * @module
 */
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { MAX_YAML_ALIASES } from "../../src/formats/frontmatter.ts";
import { parseSimpleYaml, type SimpleYaml } from "../../src/formats/simple-yaml.ts";

export const SEED = Number(process.env.FUZZ_SEED ?? 20260130);

/** Runs a property with the fixed seed; a failure names the seed to replay it. */
export function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => void, numRuns: number): void {
  const out = fc.check(fc.property(arb, predicate), { seed: SEED, numRuns });
  if (out.failed) {
    const shown = JSON.stringify(
      out.counterexample,
      (_k, v) =>
        typeof v === "string" && v.length > 2000 ? `${v.slice(0, 2000)}… (${v.length} chars)` : v,
    );
    throw new Error(
      `property failed with seed ${SEED} (replay: FUZZ_SEED=${SEED}; path ${out.counterexamplePath})\n` +
        `counterexample: ${shown}\n${String(out.errorInstance)}`,
    );
  }
}

/** What `yaml` makes of a block, in the shape of {@link SimpleYaml}. */
export function yamlReference(block: string): SimpleYaml | { ok: true; data: unknown } {
  try {
    const data = parseYaml(block, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: true });
    return { ok: true, data };
  } catch (err) {
    // The same reduction parseFrontmatter applies to yaml's message.
    const error = String((err as Error).message).split("\n")[0].trim().replace(/:$/, "");
    return { ok: false, error };
  }
}

/**
 * Asserts the fast path agrees with `yaml` on `block` (same values, same key
 * order and prototype, or the same error line); returns whether it took the
 * block at all.
 */
export function fastPathAgrees(block: string): boolean {
  const fast = parseSimpleYaml(block);
  if (fast === undefined) return false;
  const slow = yamlReference(block);
  const where = `block: ${JSON.stringify(block.length > 2000 ? block.slice(0, 2000) : block)}`;
  assert.deepStrictEqual(fast, slow, where);
  if (fast.ok && slow.ok) {
    assert.deepStrictEqual(Object.keys(fast.data), Object.keys(slow.data as object), where);
    assert.equal(Object.getPrototypeOf(fast.data), Object.getPrototypeOf(slow.data), where);
  }
  return true;
}
