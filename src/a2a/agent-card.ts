/**
 * Which endpoint of an A2A Agent Card xcsh talks to, and in which protocol
 * version: a 1.0 card lists `supportedInterfaces` (`url`, `protocolBinding`,
 * `protocolVersion`), a 0.3 card has `protocolVersion`, `url` and
 * `preferredTransport` (plus `additionalInterfaces`). xcsh speaks the
 * JSON-RPC binding of 1.0 (preferred) and 0.3; a card offering neither is
 * refused with one line naming what it offers. Pure: the URL is checked
 * when it is called (`a2a-request.ts`).
 *
 * @example
 * ```ts
 * readAgentCard({ name: "a", protocolVersion: "0.3.0", url: "https://x/a2a" }, "card");
 * // { ok: true, card: { name: "a", version: "0.3", url: "https://x/a2a", streaming: false } }
 * readAgentCard({ name: "a", protocolVersion: "0.2.5", url: "https://x" }, "card").ok; // false
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

/** The A2A versions xcsh speaks. */
export type A2AVersion = "1.0" | "0.3";

/** What xcsh uses of a card. */
export interface AgentCardTarget {
  name: string;
  version: A2AVersion;
  /** The JSON-RPC endpoint. */
  url: string;
  /** The card says the agent streams (`capabilities.streaming`). */
  streaming: boolean;
}

export type CardRead = { ok: true; card: AgentCardTarget } | { ok: false; error: string };

/** The version family a `protocolVersion` string names, if xcsh speaks it. */
export function spokenVersion(v: unknown): A2AVersion | undefined {
  if (typeof v !== "string") return undefined;
  if (/^1(\.\d+)*$/.test(v.trim())) return "1.0";
  if (/^0\.3(\.\d+)*$/.test(v.trim())) return "0.3";
  return undefined;
}

function isJsonRpc(binding: unknown): boolean {
  return typeof binding === "string" && binding.replace(/[-_ ]/g, "").toUpperCase() === "JSONRPC";
}

const SPOKEN = "xcsh speaks A2A 1.0 and 0.3 over JSON-RPC";

/** Reads a card (`where` names it in errors: its URL or the agent file's field). */
export function readAgentCard(value: unknown, where: string): CardRead {
  const fail = (error: string): CardRead => ({ ok: false, error: `${where}: ${error}` });
  if (!isRecord(value)) return fail("not an A2A agent card (expected a JSON object)");
  const name = value.name;
  if (typeof name !== "string" || name.trim() === "") {
    return fail("the agent card has no 'name'");
  }
  const streaming = isRecord(value.capabilities) && value.capabilities.streaming === true;
  if (Array.isArray(value.supportedInterfaces) && value.supportedInterfaces.length > 0) {
    const list = value.supportedInterfaces.filter(isRecord);
    const rpc = list.filter((i) => isJsonRpc(i.protocolBinding));
    const pick = rpc.find((i) => spokenVersion(i.protocolVersion ?? "1.0") === "1.0") ??
      rpc.find((i) => spokenVersion(i.protocolVersion) === "0.3");
    if (!pick) {
      if (rpc.length === 0) {
        const offered = [...new Set(list.map((i) => String(i.protocolBinding)))].join(", ");
        return fail(
          `the agent offers no JSON-RPC interface (only ${offered || "none"}); ${SPOKEN}`,
        );
      }
      const versions = [...new Set(rpc.map((i) => String(i.protocolVersion)))].join(", ");
      return fail(`the agent speaks A2A ${versions}; ${SPOKEN}`);
    }
    if (typeof pick.url !== "string" || pick.url.trim() === "") {
      return fail("the agent card's JSON-RPC interface has no 'url'");
    }
    const version = spokenVersion(pick.protocolVersion ?? "1.0") as A2AVersion;
    return { ok: true, card: { name, version, url: pick.url.trim(), streaming } };
  }
  if (value.protocolVersion === undefined) {
    return fail(
      "the agent card has neither 'supportedInterfaces' (A2A 1.0) nor 'protocolVersion' (A2A 0.3)",
    );
  }
  if (spokenVersion(value.protocolVersion) !== "0.3") {
    return fail(`the agent speaks A2A ${String(value.protocolVersion)}; ${SPOKEN}`);
  }
  const preferred = value.preferredTransport ?? "JSONRPC";
  let url = isJsonRpc(preferred) ? value.url : undefined;
  if (url === undefined && Array.isArray(value.additionalInterfaces)) {
    url = value.additionalInterfaces.find((i) => isRecord(i) && isJsonRpc(i.transport))?.url;
  }
  if (!isJsonRpc(preferred) && url === undefined) {
    return fail(`the agent offers no JSON-RPC interface (only ${String(preferred)}); ${SPOKEN}`);
  }
  if (typeof url !== "string" || url.trim() === "") return fail("the agent card has no 'url'");
  return { ok: true, card: { name, version: "0.3", url: url.trim(), streaming } };
}
