/**
 * The agent loop: what happens between the assignment and the result.
 *
 * Each turn the model sees the conversation and either calls tools (read-only
 * and `task` calls side by side, others alone, as `schedule.ts` decides;
 * results sent back in call order) or stops. Decides how a run ends:
 * - a valid `submit_result` → ok with its data (the loop stops at once);
 * - `submit_result` with `{error}` → error with the agent's reason;
 * - too many invalid submissions → error listing the last validation errors;
 * - a stop without tool calls: with no schema, ok with the final text (and
 *   any reported findings as data); with a schema, a reminder (the next turn
 *   asks the provider to force a `submit_result` call), and after
 *   {@link MAX_REMINDERS} of them an error;
 * - `maxTurns` model calls without an ending → error.
 * - a hook's `continue: false` (`hooks.ts`) → error with reason `stopped`,
 *   once the calls of its turn are answered.
 * Before each model call the conversation is fitted to the window
 * (`compaction.ts`); a provider's context-overflow error compacts it and the
 * call is tried again once.
 * A `submit_result` that ends the run gets its reply in the conversation, and
 * the calls of its turn that never ran an answer saying so: every call stays
 * paired with its result, which a resume needs. Model access is injected, so
 * the rules are tested without a network.
 *
 * @module
 */
import type { OutputValidator } from "../schema/output-schema.ts";
import { callTool } from "../tools/call-tool.ts";
import { evaluateSubmission, SUBMIT_RESULT } from "../tools/submit-result.ts";
import type { ToolContext, ToolSpec } from "../tools/tool-spec.ts";
import type { Emit } from "../protocol/events.ts";
import { reminderMessage } from "./prompt.ts";
import { planBatches, runsShared } from "./schedule.ts";
import type { Message, ToolCall, ToolResultPart } from "./conversation.ts";
import type { TurnOutput } from "./turn.ts";
import type { HookRunner } from "./hooks.ts";
import type { TaskLimits } from "../protocol/limits.ts";
import type { Compaction } from "./compaction.ts";
import { isContextOverflow } from "../model/context-overflow.ts";

/** Reminders sent to a model that stops without submitting while a schema is set. */
export const MAX_REMINDERS = 2;

/** How a run ended. */
export interface LoopOutcome {
  status: "ok" | "error";
  data?: unknown;
  text?: string;
  error?: string;
  /** `max_turns`: the turn limit ended the loop; `stopped`: a hook's `continue: false`;
   * `budget`: the run's budget refused the next model call. */
  reason?: "max_turns" | "stopped" | "budget";
}

export interface LoopOptions {
  id: string;
  assignment: string;
  /** The conversation of a resumed session: the assignment follows it. */
  history?: readonly Message[];
  /** Report each message added to the conversation as a `message` event. */
  recordMessages?: boolean;
  /** The tools to run, by name (without `submit_result`). */
  tools: ReadonlyMap<string, ToolSpec>;
  /** Present when the result must satisfy an output schema. */
  validator?: OutputValidator;
  limits: TaskLimits;
  /** One model turn over the conversation so far (retries included); `forceTool`
   * asks the provider to make the model call that tool. */
  callModel: (messages: Message[], forceTool?: string) => Promise<TurnOutput>;
  ctx: ToolContext;
  emit: Emit;
  /** The agent's hooks (`hooks.ts`): before and after each call, and before finishing. */
  hooks?: HookRunner;
  /** Keeps the conversation within the model's window (`compaction.ts`). */
  compaction?: Compaction;
}

/** Times a Stop hook may send the agent back to work. */
export const MAX_STOP_HOOK_BLOCKS = 3;

function reply(call: ToolCall, ok: boolean, value: string): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    output: { type: ok ? "text" : "error-text", value },
  };
}

/** Runs the loop to its end. Throws only when the signal aborts or the model call fails. */
export async function runLoop(o: LoopOptions): Promise<LoopOutcome> {
  const messages: Message[] = [...(o.history ?? [])];
  const pushMessages = (...added: Message[]) => {
    messages.push(...added);
    if (o.recordMessages) {
      for (const m of added) {
        o.emit({ type: "message", id: o.id, message: m });
      }
    }
  };
  const assignment: Message = { role: "user", content: o.assignment };
  pushMessages(assignment);
  // What a compaction keeps: the first assignment and this one.
  const pinned = new Set<Message>([messages[0], assignment]);
  /** One model call over the conversation, fitted to the window first; an overflow retried once. */
  const ask = async (forceTool?: string): Promise<TurnOutput> => {
    const c = o.compaction;
    await c?.fit(messages, pinned);
    let out: TurnOutput;
    try {
      out = await o.callModel(messages, forceTool);
    } catch (err) {
      if (!c || !isContextOverflow(err) || !(await c.fit(messages, pinned, true))) throw err;
      out = await o.callModel(messages, forceTool);
    }
    c?.sent(messages.length, out.usage.input);
    return out;
  };
  const offered = [...o.tools.keys(), SUBMIT_RESULT];
  let invalid = 0;
  let reminders = 0;
  let forceSubmit = false;
  let lastText = "";
  /** An error outcome, with the model's last text when it wrote any. */
  const failed = (error: string): LoopOutcome => ({
    status: "error",
    error,
    ...(lastText ? { text: lastText } : {}),
  });
  const toolStart = (call: ToolCall) =>
    o.emit({ type: "tool_start", id: o.id, callId: call.id, tool: call.name, args: call.input });
  const toolEnd = (call: ToolCall, ok: boolean, summary: string) =>
    o.emit({ type: "tool_end", id: o.id, callId: call.id, tool: call.name, ok, summary });
  /** Runs one call that is not `submit_result`; never throws. */
  const runCall = async (call: ToolCall): Promise<ToolResultPart> => {
    toolStart(call);
    const spec = o.tools.get(call.name);
    if (!spec || call.invalid) {
      const why = !spec
        ? `unknown tool '${call.name}'. Available tools: ${offered.join(", ")}`
        : `invalid call of ${call.name}: ${call.invalid}`;
      toolEnd(call, false, why);
      return reply(call, false, `Error: ${why}`);
    }
    const pre = await o.hooks?.before(call);
    if (pre?.stop !== undefined) {
      stoppedBy ??= pre.stop;
      toolEnd(call, false, `a PreToolUse hook ended the task: ${pre.stop.split("\n")[0]}`);
      return reply(call, false, `Not run: a hook ended the task: ${pre.stop}`);
    }
    if (pre?.block !== undefined) {
      toolEnd(call, false, `blocked by a PreToolUse hook: ${pre.block.split("\n")[0]}`);
      return reply(
        call,
        false,
        `Error: blocked by a PreToolUse hook: ${pre.block}${
          pre.context ? `\n\n${pre.context}` : ""
        }`,
      );
    }
    // `updatedInput`: the hook's input runs (checked again by callTool).
    const input = pre?.input ?? call.input;
    const outcome = await callTool(spec, input, o.ctx);
    const post = await o.hooks?.after({ ...call, input }, outcome);
    if (post?.stop !== undefined) stoppedBy ??= post.stop;
    toolEnd(call, outcome.ok, outcome.summary);
    const extra = [pre?.context, post?.text].filter((x) => x !== undefined).join("\n");
    return reply(call, outcome.ok, extra ? `${outcome.output}\n\n${extra}` : outcome.output);
  };
  /** The first `continue: false` reason a hook gave, once one did. */
  let stoppedBy: string | undefined;
  const stoppedOutcome = (reason: string): LoopOutcome => ({
    ...failed(`stopped by a hook: ${reason}`),
    reason: "stopped",
  });

  let stopBlocks = 0;
  /** The Stop hooks' reason to go on, as a message, or undefined to finish. */
  const stopHook = async (): Promise<string | undefined> => {
    if (!o.hooks || stopBlocks >= MAX_STOP_HOOK_BLOCKS) return undefined;
    const r = await o.hooks.stop(stopBlocks > 0);
    if (r.stop !== undefined) stoppedBy ??= r.stop;
    if (r.block === undefined || r.stop !== undefined) return undefined;
    stopBlocks++;
    return `You are not finished: a Stop hook says: ${r.block}`;
  };

  // SessionStart, SubagentStart and UserPromptSubmit, before the first model call.
  if (o.hooks) {
    const started = await o.hooks.start({
      resumed: (o.history ?? []).length > 0,
      prompt: o.assignment,
    });
    if (started.stop !== undefined) return stoppedOutcome(started.stop);
    if (started.block !== undefined) {
      return failed(`the assignment was blocked by a UserPromptSubmit hook: ${started.block}`);
    }
    if (started.context.length > 0) {
      pushMessages({ role: "user", content: started.context.join("\n") });
    }
  }

  for (let turn = 1;; turn++) {
    if (turn > o.limits.maxTurns) {
      return {
        ...failed(`reached the turn limit (${o.limits.maxTurns} model calls) without a result`),
        reason: "max_turns",
      };
    }
    const out = await ask(forceSubmit ? SUBMIT_RESULT : undefined);
    forceSubmit = false;
    pushMessages(...out.messages);
    if (out.text.trim() !== "") lastText = out.text.trim();

    if (out.toolCalls.length === 0) {
      const goOn = await stopHook();
      if (stoppedBy !== undefined) return stoppedOutcome(stoppedBy);
      if (goOn !== undefined) {
        pushMessages({ role: "user", content: goOn });
        continue;
      }
      if (!o.validator) {
        const findings = o.ctx.findings;
        return {
          status: "ok",
          text: out.text.trim(),
          ...(findings.length > 0 ? { data: { findings } } : {}),
        };
      }
      if (reminders >= MAX_REMINDERS) {
        return failed(
          `the model stopped without calling submit_result (reminded ${reminders} ` +
            `time${reminders === 1 ? "" : "s"})`,
        );
      }
      reminders++;
      pushMessages({ role: "user", content: reminderMessage(MAX_REMINDERS - reminders + 1) });
      forceSubmit = true;
      continue;
    }

    // Calls run in batches (schedule.ts); answers go back in call order.
    const answers: ToolResultPart[] = [];
    const batches = planBatches(
      out.toolCalls.map((call, index) => ({ call, index })),
      ({ call }) => call.name !== SUBMIT_RESULT && runsShared(o.tools.get(call.name)),
    );
    /**
     * Ends the run at `index` (a `submit_result`): its reply and those of the
     * calls that ran are recorded, the calls left unrun answered as such, so
     * that the conversation stays well-formed for a resume.
     */
    const endWith = (index: number, ok: boolean, value: string, outcome: LoopOutcome) => {
      answers[index] = reply(out.toolCalls[index], ok, value);
      pushMessages({
        role: "tool",
        content: out.toolCalls.map((call, i) =>
          answers[i] ?? reply(call, false, "Not run: the task ended with submit_result.")
        ),
      });
      return outcome;
    };
    for (const batch of batches) {
      if (stoppedBy !== undefined) {
        for (const { call, index } of batch) {
          answers[index] = reply(call, false, "Not run: a hook ended the task.");
        }
        continue;
      }
      const [first] = batch;
      if (first.call.name === SUBMIT_RESULT) {
        const call = first.call;
        toolStart(call);
        const verdict = evaluateSubmission(
          call.input,
          o.validator,
          invalid,
          o.limits.submitRetries,
        );
        switch (verdict.kind) {
          case "accepted": {
            const goOn = await stopHook();
            if (stoppedBy !== undefined) {
              toolEnd(call, false, "a Stop hook ended the task");
              return endWith(
                first.index,
                false,
                "Not accepted: a hook ended the task.",
                stoppedOutcome(stoppedBy),
              );
            }
            if (goOn !== undefined) {
              toolEnd(call, false, "a Stop hook sent the agent back to work");
              answers[first.index] = reply(call, false, goOn);
              continue;
            }
            toolEnd(call, true, "accepted");
            return endWith(first.index, true, "Result accepted; the task is done.", {
              status: "ok",
              data: verdict.data,
              ...(lastText ? { text: lastText } : {}),
            });
          }
          case "agent-error":
            toolEnd(call, true, "gave up");
            return endWith(
              first.index,
              true,
              "Error recorded; the task ended.",
              failed(`the agent gave up: ${verdict.error}`),
            );
          case "exhausted":
            toolEnd(call, false, `rejected: ${verdict.errors.length} error(s)`);
            return endWith(
              first.index,
              false,
              `Rejected again; the task failed: ${verdict.errors.join("; ")}`,
              failed(
                `submit_result was rejected ${invalid + 1} time${invalid === 0 ? "" : "s"}; ` +
                  `last errors: ${verdict.errors.join("; ")}`,
              ),
            );
          case "rejected":
            invalid++;
            toolEnd(call, false, `rejected: ${verdict.errors.length} error(s)`);
            answers[first.index] = reply(call, false, verdict.reply);
            continue;
        }
      }
      await Promise.all(batch.map(async ({ call, index }) => {
        answers[index] = await runCall(call);
      }));
      if (o.ctx.signal.aborted) throw o.ctx.signal.reason;
    }
    const results = answers.filter((a): a is ToolResultPart => a !== undefined);
    pushMessages({ role: "tool", content: results });
    if (stoppedBy !== undefined) return stoppedOutcome(stoppedBy);
  }
}
