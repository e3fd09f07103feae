/**
 * Which tasks of one fan-out wait for a sibling before they start, so that
 * their provider's prompt cache is written once and read by the rest.
 *
 * On Anthropic a cached prefix (the tools and the system prompt, up to the
 * breakpoints `child/cache-breakpoints.ts` marks) can be read only once the
 * request that wrote it has started to answer; siblings sending the same
 * prefix together each write their own. Tasks share a prefix when everything
 * their first request's tools and system prompt are built from is the same:
 * the envelope less what belongs to one task (its id, assignment, history,
 * session, artifacts and write lane), and no worktree of their own (a
 * worktree moves the working directory the prompt names). Among the tasks of
 * an Anthropic provider that share a prefix, the first leads; each of the
 * others waits until the leader's first answer starts (its `answering`
 * event, or any later sign of an answer) or its run ends. Tasks on other
 * providers, and tasks with a prefix of their own, never wait. Pure, apart
 * from the gate's promise.
 *
 * @example
 * ```ts
 * import type { TaskEnvelope } from "../../protocol/envelope.ts";
 *
 * declare const a: TaskEnvelope, b: TaskEnvelope;
 * prefixLeaders([{ envelope: a }, { envelope: b }], () => "anthropic"); // [undefined, 0] when they share one
 * ```
 *
 * @module
 */
import type { ChildEvent } from "../../protocol/events.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import { type ProviderType, providerTypeNamed } from "../../model/providers.ts";
import type { XcshConfig } from "../../types.ts";

/** Envelope fields that belong to one task and do not reach the prompt's prefix. */
const PER_TASK = new Set([
  "id",
  "assignment",
  "history",
  "session",
  "transcriptPath",
  "artifacts",
  "writes",
]);

/** Events that show the leader's first answer has started (or that none is coming). */
const ANSWERED = new Set<ChildEvent["type"]>([
  "answering",
  "text",
  "tool_start",
  "tool_end",
  "usage",
  "retry",
  "compact",
  "result",
]);

/** What decides a task's first-request prefix, as one string. */
export function prefixKey(envelope: TaskEnvelope): string {
  const shared = Object.entries(envelope).filter(([k]) => !PER_TASK.has(k));
  return JSON.stringify(shared);
}

/** The type of the provider `model` (`provider/model`) names; undefined when unknown. */
export function providerTypeOf(
  model: string | null,
  config: Pick<XcshConfig, "providers">,
): ProviderType | undefined {
  const slash = model?.indexOf("/") ?? -1;
  if (!model || slash <= 0) return undefined;
  return providerTypeNamed(model.slice(0, slash), config);
}

/**
 * For each task, the index of the earlier task whose first answer it waits
 * for, or undefined: it starts at once.
 */
export function prefixLeaders(
  tasks: readonly { envelope: TaskEnvelope; isolate?: unknown }[],
  typeOf: (model: string | null) => ProviderType | undefined,
): (number | undefined)[] {
  const leaders = new Map<string, number>();
  return tasks.map((t, i) => {
    if (t.isolate !== undefined || typeOf(t.envelope.model) !== "anthropic") return undefined;
    const key = prefixKey(t.envelope);
    const leader = leaders.get(key);
    if (leader === undefined) leaders.set(key, i);
    return leader;
  });
}

/** A leader's gate: `opened` settles at its first answer or when `close` is called. */
export interface AnswerGate {
  opened: Promise<void>;
  /** Feeds one of the leader's events. */
  onEvent(e: ChildEvent): void;
  /** The leader's run ended (or never started): the followers go. */
  close(): void;
}

/** A gate for one leader. */
export function answerGate(): AnswerGate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    opened,
    onEvent: (e) => {
      if (ANSWERED.has(e.type)) open();
    },
    close: () => open(),
  };
}
