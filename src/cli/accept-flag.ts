/**
 * How `--accept` and `--accept-retries` on `xcsh run` read: each `--accept`
 * is one check in the short form (`cmd: npm test`, `file: out.txt`,
 * `scope: src/**`, `changed: src/**`, `result: /ok == true`; see
 * `discovery/accept-checks.ts`) or `@FILE`, a JSON file holding a list of
 * checks in the object form an agent file's `accept:` takes. The flags'
 * checks run after the agent's own.
 *
 * @module
 */
import { parseAcceptList, parseAcceptRetries } from "../discovery/accept-checks.ts";
import { UsageError } from "./errors.ts";
import type { AcceptCheck } from "../types.ts";

/** The checks of every `--accept` value, in order. */
export async function readAcceptFlags(values: readonly string[]): Promise<AcceptCheck[]> {
  const checks: AcceptCheck[] = [];
  for (const value of values) {
    let entries: unknown = value;
    let where = "--accept";
    if (value.startsWith("@")) {
      where = `--accept ${value}`;
      let text: string;
      try {
        const { readFile } = await import("node:fs/promises");
        text = await readFile(value.slice(1), "utf8");
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        throw new UsageError(`${where}: cannot read the file (${e.code ?? e.message})`);
      }
      try {
        entries = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${where}: not valid JSON (${(err as Error).message})`);
      }
    }
    const parsed = parseAcceptList(entries, where);
    if (!parsed.ok) throw new UsageError(parsed.message);
    for (const c of parsed.checks) {
      if (checks.some((o) => o.name === c.name)) {
        throw new UsageError(`${where}: two checks are named '${c.name}'`);
      }
      checks.push(c);
    }
  }
  return checks;
}

/** Reads `--accept-retries`. */
export function readAcceptRetries(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = parseAcceptRetries(value);
  if (typeof n === "string") throw new UsageError(`--accept-retries: ${n}, got "${value}"`);
  return n;
}
