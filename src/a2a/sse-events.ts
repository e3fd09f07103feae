/**
 * How a Server-Sent Events body reads: events end at a blank line, each
 * `data:` line adds a line to the event's data (one space after the colon
 * dropped), comments (`:`) and other fields are skipped, CR LF and CR end
 * lines as LF does. An event without data is no event, nor is one the body
 * ends in the middle of. One event is at most
 * {@link MAX_EVENT_BYTES} characters; a longer one is an error.
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

/** The longest event accepted. */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** A parser fed text as it arrives; each push returns the events it completed. */
export function sseParser(): { push(text: string): string[] } {
  let buffer = "";
  let data: string[] = [];
  let size = 0;
  const line = (l: string, out: string[]) => {
    if (l === "") {
      if (data.length > 0) out.push(data.join("\n"));
      data = [];
      size = 0;
      return;
    }
    if (l.startsWith(":")) return;
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      size += value.length + 1;
      if (size > MAX_EVENT_BYTES) throw new Error(`an event is over ${MAX_EVENT_BYTES} bytes`);
      data.push(value);
    }
  };
  return {
    push(text) {
      buffer += text;
      const out: string[] = [];
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buffer);
        // A CR at the very end may be the first half of CR LF.
        if (!m || (m[0] === "\r" && m.index === buffer.length - 1)) break;
        line(buffer.slice(0, m.index), out);
        buffer = buffer.slice(m.index + m[0].length);
      }
      if (buffer.length > MAX_EVENT_BYTES) {
        throw new Error(`an event is over ${MAX_EVENT_BYTES} bytes`);
      }
      return out;
    },
  };
}

/** The data of each event of a body, in order. */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const parser = sseParser();
  for await (const chunk of body) {
    for (const e of parser.push(decoder.decode(chunk, { stream: true }))) yield e;
  }
  // An event the body ended in the middle of is dropped (as the SSE rules say).
  for (const e of parser.push(decoder.decode())) yield e;
}
