/**
 * Where a remote agent's card comes from: the agent file's inline
 * `agent_card_json`, or a GET of its `agent_card_url` (asking for the 1.0
 * card with `A2A-Version: 1.0`; a 0.3 server sends its own). An answer that
 * is not 2xx, is HTML, is not JSON, is over {@link MAX_CARD_BYTES}, or is
 * no card xcsh can use ends in one line naming the URL.
 *
 * @module
 */
import { type CardRead, readAgentCard } from "./agent-card.ts";
import { a2aRequest, readBody } from "./a2a-request.ts";
import { contentKind, failureReason, mediaType } from "../tools/web/fetch-rules.ts";

/** The largest card read. */
export const MAX_CARD_BYTES = 1024 * 1024;

/** The card of an inline `agent_card_json` (a JSON string or an object). */
export function inlineCard(json: unknown, where: string): CardRead {
  if (typeof json !== "string") return readAgentCard(json, where);
  try {
    return readAgentCard(JSON.parse(json), where);
  } catch (err) {
    return { ok: false, error: `${where}: not JSON (${failureReason(err)})` };
  }
}

/** Fetches and reads the card at `url`. */
export async function fetchCard(
  url: string,
  headers: Record<string, string>,
  allow: readonly string[],
  signal: AbortSignal,
): Promise<CardRead> {
  const answer = await a2aRequest(
    url,
    {
      method: "GET",
      headers: { ...headers, accept: "application/json", "a2a-version": "1.0" },
    },
    allow,
    signal,
  );
  if (!answer.ok) return answer;
  const { res } = answer;
  const where = `agent card ${answer.url.href}`;
  if (res.status < 200 || res.status >= 300) {
    res.body.destroy();
    return { ok: false, error: `${where}: HTTP ${res.status} ${res.statusText}`.trim() };
  }
  const type = res.header("content-type");
  if (contentKind(type) === "html") {
    res.body.destroy();
    return { ok: false, error: `${where}: answered an HTML page (${mediaType(type)}), not a card` };
  }
  const body = await readBody(res.body, MAX_CARD_BYTES);
  if (!body.ok) return { ok: false, error: `${where}: larger than ${MAX_CARD_BYTES} bytes` };
  if (/^\s*</.test(body.text)) {
    return { ok: false, error: `${where}: answered markup, not a JSON card` };
  }
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch (err) {
    return { ok: false, error: `${where}: not JSON (${failureReason(err)})` };
  }
  return readAgentCard(value, where);
}
