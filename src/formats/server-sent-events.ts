/**
 * How a Server-Sent Events body reads: events end at a blank line, each
 * `data:` line adds a line to the event's data (one space after the colon
 * dropped), comments (`:`) and other fields are skipped, CR LF and CR end
 * lines as LF does. An event without data is no event, nor is one the body
 * ends in the middle of. An event longer than the parser's limit (its data,
 * or a line still being read) is not kept: it is reported once as
 * {@link TOO_LONG}, and what follows its end is read again. Used by the A2A
 * client and the Chat Completions client.
 *
 * @example
 * ```ts
 * const p = sseParser();
 * p.push("data: {\"a\":1}\n\nda"); // ['{"a":1}']
 * p.push("ta: 2\n\n");             // ["2"]
 * ```
 *
 * @module
 */

/** The longest event accepted by default. */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** What {@link sseParser} gives in place of an event longer than its limit. */
export const TOO_LONG: unique symbol = Symbol("an event over the limit");

/** One event's data, or {@link TOO_LONG}. */
export type SseItem = string | typeof TOO_LONG;

/**
 * A parser fed text as it arrives; each push returns the events it
 * completed. `maxEventChars` bounds one event (its data and its line being
 * read).
 */
export function sseParser(maxEventChars = MAX_EVENT_BYTES): { push(text: string): SseItem[] } {
  let buffer = "";
  let data: string[] = [];
  let size = 0;
  // Inside an event over the limit: lines are dropped until its end.
  let skipping = false;
  const tooLong = (out: SseItem[]) => {
    if (!skipping) out.push(TOO_LONG);
    skipping = true;
    data = [];
    size = 0;
  };
  const line = (l: string, out: SseItem[]) => {
    if (l === "") {
      if (!skipping && data.length > 0) out.push(data.join("\n"));
      skipping = false;
      data = [];
      size = 0;
      return;
    }
    if (skipping || l.startsWith(":")) return;
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      size += value.length + 1;
      if (size > maxEventChars) tooLong(out);
      else data.push(value);
    }
  };
  return {
    push(text) {
      buffer += text;
      const out: SseItem[] = [];
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buffer);
        // A CR at the very end may be the first half of CR LF.
        if (!m || (m[0] === "\r" && m.index === buffer.length - 1)) break;
        line(buffer.slice(0, m.index), out);
        buffer = buffer.slice(m.index + m[0].length);
      }
      if (buffer.length > maxEventChars) {
        tooLong(out);
        buffer = "";
      }
      return out;
    },
  };
}

/**
 * The data of each event of a body, in order; an event over
 * {@link MAX_EVENT_BYTES} is an error.
 */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const parser = sseParser();
  const events = function* (items: SseItem[]) {
    for (const e of items) {
      if (e === TOO_LONG) throw new Error(`an event is over ${MAX_EVENT_BYTES} bytes`);
      yield e;
    }
  };
  for await (const chunk of body) {
    yield* events(parser.push(decoder.decode(chunk, { stream: true })));
  }
  // An event the body ended in the middle of is dropped (as the SSE rules say).
  yield* events(parser.push(decoder.decode()));
}
