/**
 * How the parent writes a task envelope, the child's complete plan: every
 * field of the protocol copied from the part of its name (a field declared
 * in `envelope.ts` needs nothing here), but for the few the builder shapes
 * ({@link SHAPED_FIELDS}) and those later steps set ({@link LATER_FIELDS});
 * the agent without its spawn field (the right travels once, as
 * `toolSet.spawns`) and without the fields its model settings are decided
 * from (they travel once, as the decided `modelSettings`), the blocked
 * agent (the rule is `variables.ts`'s), the text on the wire
 * with every field of the protocol in its order (`null` for none:
 * {@link envelopeText}), and the size limit every envelope must stay under
 * before a child is started for it. Pure.
 *
 * @example
 * ```ts
 * declare const parts: EnvelopeParts;
 * const envelope = buildEnvelope({ id: "0", assignment: "Find the CLI" }, parts);
 * envelopeSizeProblem(envelope); // undefined, or "task "0": the task envelope is 17.0 MiB, …"
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { AgentDefinition } from "../types.ts";
import {
  ENVELOPE_FIELDS,
  ENVELOPE_NONE,
  ENVELOPE_VERSION,
  type EnvelopeField,
  MODEL_SETTING_KEYS,
  type TaskEnvelope,
} from "./envelope.ts";
import { envelopeTooLarge, MAX_ENVELOPE_BYTES } from "./limits.ts";
import { blockedAgentOf } from "./variables.ts";

/**
 * The fields the builder shapes itself, from the task or from another
 * part: every other field of the protocol is a part copied as it is.
 */
export const SHAPED_FIELDS = [
  "version",
  "id",
  "agent",
  "assignment",
  "model",
  "modelNote",
  "blockedAgent",
  "skillBudget",
  "writes",
] as const satisfies readonly EnvelopeField[];

/**
 * The fields set after the builder, by the step that knows them: the
 * run's budget and pace (`runner/spawn/executor.ts`), the session and its
 * history (`runner/task-sessions/`), the artifacts folder, the remote target.
 */
export const LATER_FIELDS = [
  "budget",
  "pace",
  "session",
  "transcriptPath",
  "artifacts",
  "history",
  "remote",
] as const satisfies readonly EnvelopeField[];

type ShapedField = (typeof SHAPED_FIELDS)[number];
type LaterField = (typeof LATER_FIELDS)[number];
/** The fields copied from {@link EnvelopeParts} as they are. */
type PlainField = Exclude<EnvelopeField & keyof TaskEnvelope, ShapedField | LaterField>;

/** A part as given: its lists (and pairs) read-only; the envelope gets copies. */
type Given<T> = T extends [infer A, infer B] ? readonly [A, B]
  : T extends (infer U)[] ? readonly Given<U>[]
  : T;

/**
 * What the parent decided for every task of a call: each plain field of
 * {@link TaskEnvelope} under its own name (optional where the envelope's is),
 * and the parts the builder shapes fields from.
 */
export type EnvelopeParts =
  & { [K in keyof TaskEnvelope as K extends PlainField ? K : never]: Given<TaskEnvelope[K]> }
  & {
    /** The agent as the plan made it (`envelopeAgent` takes out what travels elsewhere). */
    agent: AgentDefinition;
    /** The resolved model; null only when none resolved (a dry run, a resume not yet bound). */
    model: { id: string; note?: string } | null;
    /** The characters the prompt's skill listing may take (sent only with skills). */
    skillBudget?: number;
  };

/**
 * `agent` without its spawn field and the fields of its model settings:
 * the right and the settings travel once, as the plan decided them.
 */
export function envelopeAgent(agent: AgentDefinition): AgentDefinition {
  const { spawns: _right, ...rest } = agent;
  for (const key of MODEL_SETTING_KEYS) delete rest[key];
  return rest;
}

/** Fields the envelope leaves out (see {@link ENVELOPE_NONE}). */
const optional = (field: EnvelopeField): boolean => Object.hasOwn(ENVELOPE_NONE, field);

/** Holds nothing: undefined or null, an empty string, list or object. */
function empty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** Parts kept when given even if empty: the plan gives `undefined` for none. */
const KEPT_WHEN_GIVEN: ReadonlySet<EnvelopeField> = new Set(["mcpServers"]);

/** A plain part as its field: a copy of a list; none (undefined) when an optional one is empty. */
function copied(field: EnvelopeField, value: unknown): unknown {
  if (optional(field) && empty(value) && !(KEPT_WHEN_GIVEN.has(field) && value !== undefined)) {
    return undefined;
  }
  return Array.isArray(value) ? [...value] : value;
}

/**
 * The envelope of task `id` with `assignment` (and its decided write lane,
 * `writes`), from the call's `parts`: the shaped fields, then every other
 * field of the protocol copied from the part of its name, in protocol
 * order; an optional field that holds nothing is left out.
 */
export function buildEnvelope(
  task: { id: string; assignment: string; writes?: readonly string[] },
  p: EnvelopeParts,
): TaskEnvelope {
  const { model } = p;
  const agent = envelopeAgent(p.agent);
  const shaped: Pick<TaskEnvelope, ShapedField> = {
    version: ENVELOPE_VERSION,
    id: task.id,
    agent,
    assignment: task.assignment,
    model: model ? model.id : null,
    modelNote: model?.note || undefined,
    // The agent a child of `agent` may not start (the rule is `variables.ts`'s).
    blockedAgent: blockedAgentOf(agent),
    skillBudget: p.skills && p.skills.length > 0 ? p.skillBudget : undefined,
    writes: task.writes ? [...task.writes] : undefined,
  };
  const given = p as unknown as Record<string, unknown>;
  const later: readonly string[] = LATER_FIELDS;
  const envelope: Record<string, unknown> = {};
  for (const field of ENVELOPE_FIELDS) {
    if (later.includes(field)) continue;
    const value = Object.hasOwn(shaped, field)
      ? shaped[field as ShapedField]
      : copied(field, given[field]);
    if (value !== undefined || !optional(field)) envelope[field] = value;
  }
  return envelope as unknown as TaskEnvelope;
}

/**
 * The envelope as the child reads it: every field of the protocol, in its
 * order, `null` (or the empty list or object {@link ENVELOPE_NONE} names)
 * for one that holds nothing.
 */
export function envelopeText(envelope: TaskEnvelope): string {
  const e = envelope as unknown as Record<string, unknown>;
  const wire: Record<string, unknown> = {};
  for (const field of ENVELOPE_FIELDS) {
    wire[field] = e[field] ??
      (optional(field) ? ENVELOPE_NONE[field as keyof typeof ENVELOPE_NONE] : null);
  }
  const { mode, network, reach, required } = envelope.sandbox;
  wire.sandbox = { mode, network, reach: reach ?? null, required };
  const asked = envelope.modelSettings ?? {};
  wire.modelSettings = Object.fromEntries(MODEL_SETTING_KEYS.map((k) => [k, asked[k] ?? null]));
  return JSON.stringify(wire);
}

/** Why `envelope` may not be sent (over {@link MAX_ENVELOPE_BYTES}), naming its task. */
export function envelopeSizeProblem(envelope: TaskEnvelope): string | undefined {
  const bytes = Buffer.byteLength(envelopeText(envelope), "utf8");
  return bytes > MAX_ENVELOPE_BYTES
    ? `task "${envelope.id}": ${envelopeTooLarge(bytes)}`
    : undefined;
}
