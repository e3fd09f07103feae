/**
 * Whether a child's work passes its acceptance checks, judged by the
 * parent after the child submits, in the order the checks are listed:
 * a command must exit 0 (`check-command.ts`); a file (relative to the
 * task's folder, and inside the task's folders as its tools see them, its
 * real path checked) must exist, and match its pattern or satisfy its schema;
 * every file the task changed since it started (`changes.ts`) must match one
 * of the scope's globs (relative to the repository's top), and with
 * `changed` at least one must have changed; the value a JSON Pointer names
 * in the structured result must exist, and equal or match what is asked.
 * A command whose script the task changed fails unrun (`check-scripts.ts`).
 * Each outcome keeps the tail of its output ({@link OUTPUT_TAIL_CHARS}).
 * Checks the caller could not trust are listed as skipped, never passed.
 *
 * @module
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { isInside } from "../../fs/path-inside.ts";
import { workspaceRoots } from "../../child/workspace.ts";
import { readCapped } from "../../fs/file-safety.ts";
import { compileGlob } from "../../fs/glob.ts";
import type { AcceptCheck, CheckOutcome } from "../../types.ts";
import { changedFiles, type StartState } from "./changes.ts";
import { type CommandPlace, runCheckCommand } from "./check-command.ts";
import { resolvePointer } from "./json-pointer.ts";
import { sameJson } from "./same-json.ts";
import { changedScripts, type ScriptPins } from "./check-scripts.ts";

/** The characters of a check's output kept in the result and the child's message. */
export const OUTPUT_TAIL_CHARS = 2000;
/** The largest file a `file` check reads. */
const MAX_CHECKED_FILE_BYTES = 16 * 1024 * 1024;

export interface Evaluation {
  outcomes: CheckOutcome[];
  /** A check that could not run (the caller's mistake): the task fails naming it. */
  broken?: string;
}

export interface EvaluationInput {
  checks: readonly AcceptCheck[];
  /** Checks not run (an untrusted project's commands): listed as skipped. */
  skipped: readonly AcceptCheck[];
  /** The child's structured result (`data`). */
  data: unknown;
  /** The state the task started from (absent when it could not be taken). */
  start: StartState | { error: string } | undefined;
  place: CommandPlace;
  /** The files each check command runs, pinned when the task started. */
  pins?: ScriptPins;
}

/** The last {@link OUTPUT_TAIL_CHARS} characters of `text`. */
export function outputTail(text: string): string {
  if (text.length <= OUTPUT_TAIL_CHARS) return text;
  return `[… ${text.length - OUTPUT_TAIL_CHARS} characters cut …]\n` +
    text.slice(text.length - OUTPUT_TAIL_CHARS);
}

async function fileCheck(
  c: AcceptCheck & { kind: "file" },
  place: CommandPlace,
): Promise<CheckOutcome> {
  const no = (output: string): CheckOutcome => ({ name: c.name, ok: false, output });
  const cwd = place.envelope.cwd;
  const path = resolve(cwd, c.file);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return no(`${c.file}: does not exist`);
  }
  // Only what the task's own tools could read: the parent reads with the
  // user's rights, and a child must not learn through a check (or a symlink
  // it made) what lies outside.
  const { roots } = workspaceRoots(cwd, place.home, place.config);
  if (!isInside(real, roots)) return no(`${c.file}: lies outside the task's folders`);
  const read = await readCapped(real, MAX_CHECKED_FILE_BYTES);
  if (!read.ok) return no(`${c.file}: ${read.code === "ENOENT" ? "does not exist" : read.reason}`);
  const text = new TextDecoder().decode(read.bytes);
  if (c.matches !== undefined) {
    if (!new RegExp(c.matches).test(text)) return no(`${c.file} does not match /${c.matches}/`);
  }
  if (c.schema !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return no(`${c.file} is not JSON (${(err as Error).message})`);
    }
    const { compileOutputSchema } = await import("../../schema/output-schema.ts");
    const compiled = compileOutputSchema(c.schema);
    if (!compiled.ok) return no(compiled.error);
    const v = compiled.value.validate(value);
    if (!v.ok) {
      return no(`${c.file} does not satisfy the schema: ${v.errors.slice(0, 5).join("; ")}`);
    }
  }
  return { name: c.name, ok: true, output: `${c.file} exists` };
}

function scopeCheck(c: AcceptCheck & { kind: "scope" }, changed: string[]): CheckOutcome {
  const matchers = c.globs.map(compileGlob);
  const outside = changed.filter((p) => !matchers.some((m) => m(p)));
  if (outside.length > 0) {
    const shown = outside.slice(0, 20).join(", ");
    const more = outside.length > 20 ? ` and ${outside.length - 20} more` : "";
    return {
      name: c.name,
      ok: false,
      output: `changed outside ${c.globs.join(" ")}: ${shown}${more}`,
    };
  }
  if (c.changed && changed.length === 0) {
    return { name: c.name, ok: false, output: "no file changed" };
  }
  return {
    name: c.name,
    ok: true,
    output: changed.length === 0
      ? "no file changed"
      : `changed: ${changed.slice(0, 20).join(", ")}`,
  };
}

function resultCheck(c: AcceptCheck & { kind: "result" }, data: unknown): CheckOutcome {
  const at = resolvePointer(data, c.pointer);
  const where = c.pointer === "" ? "the result" : `the result's ${c.pointer}`;
  if (!at.found) return { name: c.name, ok: false, output: `${where} does not exist` };
  const shown = JSON.stringify(at.value)?.slice(0, 200) ?? "undefined";
  if (c.equals !== undefined && !sameJson(at.value, c.equals)) {
    return {
      name: c.name,
      ok: false,
      output: `${where} is ${shown}, not ${JSON.stringify(c.equals)}`,
    };
  }
  if (c.matches !== undefined) {
    const text = typeof at.value === "string" ? at.value : JSON.stringify(at.value);
    if (!new RegExp(c.matches).test(text)) {
      return {
        name: c.name,
        ok: false,
        output: `${where} is ${shown}, which does not match /${c.matches}/`,
      };
    }
  }
  return { name: c.name, ok: true, output: `${where} is ${shown}` };
}

/** Runs every check; never throws. */
export async function evaluateChecks(i: EvaluationInput): Promise<Evaluation> {
  const outcomes: CheckOutcome[] = [];
  let changed: string[] | { error: string } | undefined;
  for (const c of i.checks) {
    if (c.kind === "cmd") {
      const changed = changedScripts(i.pins, c.name);
      if (changed.length > 0) {
        outcomes.push({
          name: c.name,
          ok: false,
          output: `not run: the task changed what it runs (${changed.join(", ")}); ` +
            "a check runs the files the task started with",
        });
        continue;
      }
      const r = await runCheckCommand(c.cmd, c.timeout, i.place);
      outcomes.push({ name: c.name, ok: r.ok, output: outputTail(r.output) });
      if (r.broken) return { outcomes, broken: `acceptance check '${c.name}': ${r.broken}` };
    } else if (c.kind === "file") {
      outcomes.push(await fileCheck(c, i.place));
    } else if (c.kind === "scope") {
      if (changed === undefined) {
        changed = i.start === undefined
          ? { error: "the start state was not taken" }
          : "error" in i.start
          ? i.start
          : await changedFiles(i.start);
      }
      outcomes.push(
        Array.isArray(changed)
          ? scopeCheck(c, changed)
          : { name: c.name, ok: false, output: changed.error },
      );
    } else {
      outcomes.push(resultCheck(c, i.data));
    }
  }
  for (const c of i.skipped) {
    outcomes.push({
      name: c.name,
      ok: false,
      skipped: true,
      output:
        "not run: this project's agent file is not trusted (run 'xcsh trust' after reading it)",
    });
  }
  return { outcomes };
}
