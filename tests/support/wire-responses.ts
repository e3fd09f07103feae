/**
 * OpenAI's Responses API (`POST /v1/responses`) for the scripted model server:
 * one answer as a JSON response object, or as the SSE events the real API
 * streams, in its order: `response.created`, `response.in_progress`, then per
 * output item `response.output_item.added`, its deltas (reasoning summary
 * text, output text in a content part, function-call arguments, each split in
 * two) and `response.output_item.done`, and last `response.completed` (or
 * `response.incomplete` when the turn ran out of tokens) carrying the usage
 * with `input_tokens_details.cached_tokens`. Every event has a
 * `sequence_number`. Pure: ids and halves of strings come from the caller.
 *
 * @module
 */

/** What one answer holds, with ids already given to its calls. */
export interface ResponsesAnswer {
  id: string;
  model: string;
  text?: string;
  reasoning?: string;
  /** The reasoning item's `encrypted_content` (asked for with `include`). */
  encrypted?: string;
  calls: { id: string; name: string; args: string }[];
  usage: { input: number; output: number; cacheRead: number };
  /** The turn ran out of output tokens. */
  truncated: boolean;
  /** Splits a string into the deltas sent for it. */
  pieces: (s: string) => string[];
}

function usageOf(a: ResponsesAnswer) {
  return {
    input_tokens: a.usage.input,
    input_tokens_details: { cached_tokens: a.usage.cacheRead },
    output_tokens: a.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: a.usage.input + a.usage.output,
  };
}

/** The output items, complete (as `output_item.done` and the JSON body carry them). */
function outputItems(a: ResponsesAnswer): object[] {
  const items: object[] = [];
  if (a.reasoning !== undefined) {
    items.push({
      type: "reasoning",
      id: `rs_${a.id}`,
      summary: [{ type: "summary_text", text: a.reasoning }],
      ...(a.encrypted !== undefined ? { encrypted_content: a.encrypted } : {}),
    });
  }
  if (a.text !== undefined) {
    items.push({
      type: "message",
      id: `msg_${a.id}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: a.text, annotations: [] }],
    });
  }
  a.calls.forEach((c, i) => {
    items.push({
      type: "function_call",
      id: `fc_${a.id}_${i}`,
      call_id: c.id,
      name: c.name,
      arguments: c.args,
      status: "completed",
    });
  });
  return items;
}

function responseObject(a: ResponsesAnswer, status: string, done: boolean) {
  return {
    id: `resp_${a.id}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: a.model,
    status,
    output: done ? outputItems(a) : [],
    incomplete_details: done && a.truncated ? { reason: "max_output_tokens" } : null,
    usage: done ? usageOf(a) : null,
  };
}

/** The non-streaming answer body. */
export function responsesJson(a: ResponsesAnswer): object {
  return responseObject(a, a.truncated ? "incomplete" : "completed", true);
}

/** The streamed answer: every event's data, in order (`type` names the event). */
export function responsesEvents(a: ResponsesAnswer): object[] {
  const events: Record<string, unknown>[] = [];
  const ev = (type: string, data: object) => events.push({ type, ...data });
  ev("response.created", { response: responseObject(a, "in_progress", false) });
  ev("response.in_progress", { response: responseObject(a, "in_progress", false) });
  outputItems(a).forEach((done, output_index) => {
    // deno-lint-ignore no-explicit-any
    const item = done as any;
    const item_id = item.id;
    if (item.type === "reasoning") {
      ev("response.output_item.added", { output_index, item: { ...item, summary: [] } });
      const part = { type: "summary_text", text: "" };
      ev("response.reasoning_summary_part.added", {
        item_id,
        output_index,
        summary_index: 0,
        part,
      });
      for (const delta of a.pieces(a.reasoning ?? "")) {
        ev("response.reasoning_summary_text.delta", {
          item_id,
          output_index,
          summary_index: 0,
          delta,
        });
      }
      ev("response.reasoning_summary_text.done", {
        item_id,
        output_index,
        summary_index: 0,
        text: a.reasoning,
      });
      ev("response.reasoning_summary_part.done", {
        item_id,
        output_index,
        summary_index: 0,
        part: item.summary[0],
      });
    } else if (item.type === "message") {
      ev("response.output_item.added", {
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      const part = { type: "output_text", text: "", annotations: [] };
      ev("response.content_part.added", { item_id, output_index, content_index: 0, part });
      for (const delta of a.pieces(a.text ?? "")) {
        ev("response.output_text.delta", {
          item_id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      }
      ev("response.output_text.done", { item_id, output_index, content_index: 0, text: a.text });
      ev("response.content_part.done", {
        item_id,
        output_index,
        content_index: 0,
        part: item.content[0],
      });
    } else {
      ev("response.output_item.added", {
        output_index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      for (const delta of a.pieces(item.arguments)) {
        ev("response.function_call_arguments.delta", { item_id, output_index, delta });
      }
      ev("response.function_call_arguments.done", {
        item_id,
        output_index,
        arguments: item.arguments,
      });
    }
    ev("response.output_item.done", { output_index, item: done });
  });
  const finalType = a.truncated ? "response.incomplete" : "response.completed";
  ev(finalType, { response: responsesJson(a) });
  events.forEach((e, i) => (e.sequence_number = i));
  return events;
}
