/**
 * An A2A agent served by the official SDK (`@a2a-js/sdk`, JSON-RPC binding,
 * v1.0 with the SDK's v0.3 compatibility on) on 127.0.0.1, the far side
 * of a `kind: remote` agent in end-to-end tests. Its executor reads the
 * first word of the message it is sent:
 *
 * - `echo TEXT`: a `working` status, then an artifact `echo: TEXT`, then `completed`;
 * - `json TEXT`: an artifact holding TEXT as it is (a structured result);
 * - `count`: an artifact naming how many messages its context has had
 *   (a resumed task continues the context: `messages in context: 2`);
 * - `hang`: a `working` status, then nothing until it is cancelled
 *   (`hanging()` counts such tasks, `cancelled` lists the task ids whose cancel arrived);
 * - `fail`: the task fails with a status message `the far side failed`;
 * - `ask`: the task asks for input (`which color?`); the next message to
 *   that task completes it with `answered: TEXT`.
 *
 * The card is at `<url>/.well-known/agent-card.json`; `requests` records
 * each JSON-RPC method and the `authorization` / `x-api-key` headers seen.
 *
 * @module
 */
import express from "express";
import type { Server } from "node:http";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import type { AgentCard } from "@a2a-js/sdk";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";

/** What the peer's middleware reads of a request (express ships no types here). */
interface PeerRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body?: { method?: unknown };
}

export interface A2APeer {
  url: string;
  /** The card (v1.0) the peer serves, as JSON. */
  cardJson(): string;
  /** The same agent as a v0.3 card, as JSON. */
  legacyCardJson(): string;
  requests: { method: string; authorization?: string; apiKey?: string; version?: string }[];
  cancelled: string[];
  /** Tasks waiting to be cancelled now. */
  hanging(): number;
  close(): Promise<void>;
}

// The SDK's enums, by value (TaskState, Role), so no runtime import of them is needed.
const WORKING = 2, COMPLETED = 3, FAILED = 4, CANCELED = 5, INPUT_REQUIRED = 6;
const ROLE_AGENT = 2;

function textOf(ctx: RequestContext): string {
  return ctx.userMessage.parts.map((p) => p.content?.$case === "text" ? p.content.value : "")
    .join("");
}

function agentMessage(ctx: RequestContext, text: string) {
  return {
    messageId: crypto.randomUUID(),
    contextId: ctx.contextId,
    taskId: ctx.taskId,
    role: ROLE_AGENT,
    parts: [{
      content: { $case: "text" as const, value: text },
      metadata: undefined,
      filename: "",
      mediaType: "text/plain",
    }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Starts the peer on a free port. */
export async function startA2APeer(): Promise<A2APeer> {
  const contexts = new Map<string, number>();
  const cancelled: string[] = [];
  const waiting = new Map<string, () => void>();
  const status = (ctx: RequestContext, bus: ExecutionEventBus, state: number, text?: string) =>
    bus.publish(AgentEvent.statusUpdate({
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      status: {
        state,
        message: text === undefined ? undefined : agentMessage(ctx, text),
        timestamp: new Date().toISOString(),
      },
      metadata: undefined,
    }));
  const artifact = (ctx: RequestContext, bus: ExecutionEventBus, text: string) =>
    bus.publish(AgentEvent.artifactUpdate({
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      artifact: {
        artifactId: crypto.randomUUID(),
        name: "result",
        description: "",
        parts: agentMessage(ctx, text).parts,
        metadata: undefined,
        extensions: [],
      },
      append: false,
      lastChunk: true,
      metadata: undefined,
    }));
  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const text = textOf(ctx);
      const seen = (contexts.get(ctx.contextId) ?? 0) + 1;
      contexts.set(ctx.contextId, seen);
      bus.publish(AgentEvent.task({
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: { state: 1, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }));
      // The answer to a task that asked for input continues that task.
      if (ctx.task?.status?.state === INPUT_REQUIRED) {
        artifact(ctx, bus, `answered: ${text}`);
        status(ctx, bus, COMPLETED);
        bus.finished();
        return;
      }
      const word = text.trim().split(/\s+/)[0];
      if (word === "ask") {
        status(ctx, bus, INPUT_REQUIRED, "which color?");
        bus.finished();
        return;
      }
      const arg = text.trim().slice(word.length).trim();
      if (word === "hang") {
        status(ctx, bus, WORKING, "waiting to be cancelled");
        await new Promise<void>((resolve) => waiting.set(ctx.taskId, resolve));
        status(ctx, bus, CANCELED, "cancelled");
        bus.finished();
        return;
      }
      if (word === "fail") {
        status(ctx, bus, FAILED, "the far side failed");
        bus.finished();
        return;
      }
      status(ctx, bus, WORKING, `working on ${word}`);
      const out = word === "echo"
        ? `echo: ${arg}`
        : word === "json"
        ? arg
        : word === "count"
        ? `messages in context: ${seen}`
        : `unknown request: ${text}`;
      artifact(ctx, bus, out);
      status(ctx, bus, COMPLETED);
      bus.finished();
    },
    cancelTask(taskId, _bus) {
      cancelled.push(taskId);
      waiting.get(taskId)?.();
      waiting.delete(taskId);
      return Promise.resolve();
    },
  };
  let url = "";
  const card = () => ({
    name: "Peer agent",
    description: "echoes, streams and waits",
    supportedInterfaces: [
      { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{
      id: "echo",
      name: "echo",
      description: "echoes",
      tags: ["test"],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    }],
    signatures: [],
  });
  const requests: A2APeer["requests"] = [];
  const app = express();
  app.use((req: PeerRequest, _res: unknown, next: () => void) => {
    if (req.method === "POST") {
      requests.push({
        method: "",
        authorization: req.headers.authorization as string | undefined,
        apiKey: req.headers["x-api-key"] as string | undefined,
        version: req.headers["a2a-version"] as string | undefined,
      });
    }
    next();
  });
  app.use(express.json(), (req: PeerRequest, _res: unknown, next: () => void) => {
    const last = requests.at(-1);
    if (req.method === "POST" && last && last.method === "") last.method = String(req.body?.method);
    next();
  });
  // Listening first: the card names the port it is served on.
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`;
  const handler = new DefaultRequestHandler(
    card() as unknown as AgentCard,
    new InMemoryTaskStore(),
    executor,
  );
  app.use(
    "/.well-known/agent-card.json",
    agentCardHandler({
      agentCardProvider: () => Promise.resolve(card() as unknown as AgentCard),
      legacyCompat: { enabled: true },
    }),
  );
  app.use(
    "/",
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  return {
    url,
    cardJson: () => JSON.stringify({ ...card(), provider: undefined }),
    legacyCardJson: () =>
      JSON.stringify({
        protocolVersion: "0.3.0",
        name: "Peer agent",
        description: "echoes, streams and waits",
        url,
        preferredTransport: "JSONRPC",
        version: "1.0.0",
        capabilities: { streaming: true },
        defaultInputModes: ["text/plain"],
        defaultOutputModes: ["text/plain"],
        skills: [{ id: "echo", name: "echo", description: "echoes", tags: ["test"] }],
      }),
    requests,
    cancelled,
    hanging: () => waiting.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of waiting.values()) release();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
