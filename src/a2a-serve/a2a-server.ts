/**
 * `xcsh a2a`: the discovered agents, served over A2A (HTTP, JSON-RPC
 * binding, protocol 1.0 and 0.3). Decides what each request gets: without
 * the bearer token, 401 and nothing else (not even whether an agent
 * exists); the index of cards at `/agents`; one card per agent at
 * `/agents/<name>/.well-known/agent-card.json`, shaped for the client's
 * `A2A-Version`; JSON-RPC at `/agents/<name>/` (`rpc-handler.ts`). An
 * unknown agent is answered 404 with a JSON-RPC error naming the nearest
 * agents; a body over the limit 413. Agents are rediscovered for every
 * request. Every task's children come from one limiter sized by
 * `task.maxConcurrency` at start-up, as in `xcsh mcp`. The first line on
 * stdout is the base URL; logs go to stderr. A signal stops the server:
 * running tasks are cancelled and their children ended before it exits.
 *
 * @module
 */
import process from "node:process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeErr, writeOut } from "../text/stdio.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { isVerbose, warningSummary } from "../text/warnings.ts";
import { loadConfig } from "../config/load.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { unknownAgentMessage } from "../plan/guards.ts";
import { createLimiter } from "../process/concurrency.ts";
import { readCallerState } from "../protocol/variables.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { AgentDefinition, Diagnostic } from "../types.ts";
import { bearerMatches } from "./bearer-check.ts";
import { agentCard, cardShapeFor } from "./served-card.ts";
import { agentsIndex } from "./agents-index.ts";
import { readBody } from "./request-body.ts";
import { routeOf } from "./serve-route.ts";
import { servedAgents } from "./served-agents.ts";
import { RPC, rpcError } from "./rpc-errors.ts";
import { handleRpc, type RpcContext } from "./rpc-handler.ts";
import { TaskBook } from "./task-book.ts";
import { serverToken } from "./server-token.ts";
import pkg from "../../package.json" with { type: "json" };

export interface A2aOptions {
  host: string;
  port: number;
  verbose?: boolean;
}

/** How a client sees every agent, said when an unknown agent's list is cut. */
const LIST_HINT = "GET /agents lists them all";

function logWarnings(warnings: readonly Diagnostic[]): void {
  for (const w of warnings) writeErr(formatDiagnostic(w) + "\n");
}

/**
 * A refusal sent before the request's body is read: the connection closes
 * after it, so an unread body (however large) is never taken in.
 */
function refuse(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  sendJson(res, status, body, { connection: "close", ...headers });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The URL clients use for a server listening on `host`:`port`. */
export function baseUrl(host: string, port: number): string {
  const shown = host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** True for an address only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** Runs the server until a signal; returns the exit code. */
export async function serveA2a(env: DiscoveryEnv, opts: A2aOptions): Promise<number> {
  const caller = readCallerState(process.env);
  if (!caller.ok) throw new Error(caller.message);
  const token = serverToken(process.env);
  if (!token.ok) throw new Error(token.message);
  const startConfig = await loadConfig(env.cwd, env.home);
  logWarnings(startConfig.warnings);
  if (!startConfig.ok) {
    throw new Error(formatDiagnostic(startConfig.error).replace(/^xcsh: error: /, ""));
  }
  const disabled = startConfig.config.task.disabledAgents;
  let lastSummary: string | undefined;
  const discoveryWarnings = (warnings: readonly Diagnostic[]) => {
    if (opts.verbose || isVerbose(false, env.env)) return logWarnings(warnings);
    const line = warningSummary(warnings, "agent");
    if (line && line !== lastSummary) writeErr(line + "\n");
    if (line) lastSummary = line;
  };
  const agentsNow = async (): Promise<AgentDefinition[]> => {
    const found = await discoverAgents(env);
    discoveryWarnings(found.warnings);
    return servedAgents(found.agents, disabled);
  };

  const shutdown = new AbortController();
  const ctx: RpcContext = {
    book: new TaskBook(),
    shutdown: shutdown.signal,
    running: new Set(),
    deps: {
      env,
      caller: caller.state,
      onWarnings: logWarnings,
      onDiscoveryWarnings: discoveryWarnings,
      // One cap for every task of this server: concurrent requests share it.
      limiter: createLimiter(startConfig.config.task.maxConcurrency),
      listHint: LIST_HINT,
    },
  };
  let base = "";

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!bearerMatches(req.headers.authorization, token.token)) {
      return refuse(
        res,
        401,
        rpcError(
          null,
          RPC.invalidRequest,
          "Unauthorized: send 'Authorization: Bearer <token>' (XCSH_A2A_TOKEN)",
        ),
        { "www-authenticate": 'Bearer realm="xcsh a2a"' },
      );
    }
    const route = routeOf(req.method ?? "GET", req.url ?? "/");
    if (route.kind === "none") {
      return refuse(res, 404, rpcError(null, RPC.methodNotFound, `no such path; ${LIST_HINT}`));
    }
    if (route.kind === "method") {
      return refuse(
        res,
        405,
        rpcError(null, RPC.invalidRequest, `use ${route.allow} here`),
        { allow: route.allow },
      );
    }
    if (route.kind === "bad-name") {
      return refuse(
        res,
        404,
        rpcError(
          null,
          RPC.invalidParams,
          `"${route.segment.slice(0, 100)}" is no agent name; ${LIST_HINT}`,
        ),
      );
    }
    const agents = await agentsNow();
    if (route.kind === "index") return sendJson(res, 200, agentsIndex(agents, base));
    const agent = agents.find((a) => a.name === route.name);
    if (!agent) {
      const names = agents.map((a) => a.name);
      return refuse(
        res,
        404,
        rpcError(null, RPC.invalidParams, unknownAgentMessage(route.name, names, LIST_HINT)),
      );
    }
    if (route.kind === "card") {
      const shape = cardShapeFor(req.headers["a2a-version"] as string | undefined);
      return sendJson(res, 200, agentCard(agent, base, shape), { vary: "A2A-Version" });
    }
    const body = await readBody(req);
    if (!body.ok) {
      return refuse(res, 413, rpcError(null, RPC.invalidRequest, body.message));
    }
    await handleRpc(ctx, agent.name, body.text, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      writeErr(`xcsh a2a: ${(err as Error).message}\n`);
      if (!res.headersSent) {
        sendJson(res, 500, rpcError(null, RPC.internal, (err as Error).message));
      } else res.end();
    });
  });
  // Heard from before the URL is printed: a client may stop the server as soon as it reads it.
  const stopped = new Promise<string>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.on(signal, () => resolve(signal));
    }
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  try {
    await listening;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === "EADDRINUSE"
      ? "the port is in use (--port 0 takes a free one)"
      : e.code === "EADDRNOTAVAIL"
      ? "no such address on this machine"
      : e.code === "ENOTFOUND" || e.code === "EAI_AGAIN" || e.code === "ENOENT"
      ? "the name does not resolve to an address of this machine"
      : e.code === "EACCES"
      ? "permission denied (ports below 1024 need privileges)"
      : e.message;
    throw new Error(`cannot listen on ${opts.host}:${opts.port}: ${why}`);
  }
  const port = (server.address() as AddressInfo).port;
  base = baseUrl(opts.host, port);
  // Everything on stderr comes first: a script that has read the URL has the token too.
  writeErr(`xcsh a2a: serving ${pkg.version} at ${base}/agents\n`);
  if (token.generated) writeErr(`xcsh a2a: token ${token.token}\n`);
  if (!isLoopbackHost(opts.host)) {
    writeErr(
      `xcsh a2a: warning: listening on ${opts.host}, not loopback: the token and tasks travel unencrypted over HTTP\n`,
    );
  }
  writeOut(base + "\n");

  const why = await stopped;
  const live = ctx.book.running();
  if (live.length > 0) writeErr(`xcsh a2a: ${why}; cancelling ${live.length} running task(s)\n`);
  for (const t of live) t.setStatus("canceled", `the server stopped (${why})`);
  shutdown.abort();
  await Promise.allSettled([...ctx.running]);
  server.close();
  server.closeAllConnections?.();
  return 0;
}
