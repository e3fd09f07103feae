/**
 * The Agent Card `xcsh a2a` publishes for one agent, in the shape the
 * asking client reads. A2A 1.0 (a request whose `A2A-Version` header says
 * 1.x) gets the 1.0 card: its endpoint in `supportedInterfaces` (JSON-RPC,
 * protocol versions 1.0 and 0.3, both served there) and the bearer scheme
 * as a `httpAuthSecurityScheme`. Everyone else (a 0.3 client sends no
 * header) gets the hybrid the spec's migration appendix describes: the 0.3
 * fields (`url`, `protocolVersion`, `preferredTransport`, a `type: http`
 * security scheme) with the 1.0 `supportedInterfaces` kept, so a 1.0
 * client that reads it still picks 1.0. One skill per card: the agent
 * itself. Pure.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 * declare const agent: AgentDefinition;
 * agentCard(agent, "http://127.0.0.1:41250", "1.0").supportedInterfaces;
 * // [{ url: "http://127.0.0.1:41250/agents/reviewer/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }, …]
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";
import { agentPath } from "./serve-route.ts";
import pkg from "../../package.json" with { type: "json" };

/** The card shapes: 1.0, or the hybrid a 0.3 client reads. */
export type CardShape = "1.0" | "0.3";

/** The longest description a card carries (a longer one is cut). */
export const MAX_CARD_DESCRIPTION = 8_000;

/** The card shape for a request's `A2A-Version` header. */
export function cardShapeFor(versionHeader: string | undefined): CardShape {
  return /^\s*1(\.|\s*$)/.test(versionHeader ?? "") ? "1.0" : "0.3";
}

function shortDescription(text: string): string {
  const t = text.trim() || "An xcsh agent.";
  return t.length > MAX_CARD_DESCRIPTION ? t.slice(0, MAX_CARD_DESCRIPTION - 1) + "…" : t;
}

/** The card of `agent` served under `base` (e.g. `http://127.0.0.1:41250`). */
export function agentCard(
  agent: AgentDefinition,
  base: string,
  shape: CardShape,
): Record<string, unknown> {
  const url = base + agentPath(agent.name);
  const description = shortDescription(agent.description);
  const outputModes = agent.output !== undefined
    ? ["text/plain", "application/json"]
    : ["text/plain"];
  const supportedInterfaces = [
    { url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
  ];
  const common = {
    name: agent.name,
    description,
    supportedInterfaces,
    version: pkg.version,
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: outputModes,
    skills: [{
      id: agent.name,
      name: agent.name,
      description,
      tags: [...new Set([agent.family, agent.source])],
      examples: [],
      inputModes: ["text/plain", "application/json"],
      outputModes,
    }],
  };
  if (shape === "1.0") {
    return {
      ...common,
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: "Bearer", description: "XCSH_A2A_TOKEN" } },
      },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
  }
  return {
    protocolVersion: "0.3.0",
    ...common,
    url,
    preferredTransport: "JSONRPC",
    additionalInterfaces: [{ url, transport: "JSONRPC" }],
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "XCSH_A2A_TOKEN" },
    },
    security: [{ bearer: [] }],
    supportsAuthenticatedExtendedCard: false,
  };
}
