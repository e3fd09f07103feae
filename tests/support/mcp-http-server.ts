/**
 * A small MCP server over streamable HTTP on 127.0.0.1 (random port), built
 * with the SDK's server side, for tests of the child's HTTP client: one
 * read-only tool `whoami` that answers with the `authorization` header the
 * request carried (so a test can check headers from the definition arrive).
 * Stateless: a new server and transport per request.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.d.ts"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

function mcpServerFor(auth: string): Server {
  const server = new Server({ name: "http-fixture", version: "1.0.0" }, {
    capabilities: { tools: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{
      name: "whoami",
      description: "Says which authorization header arrived.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
    }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: "text", text: `auth: ${auth}` }],
  }));
  return server;
}

export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const sockets = new Set<Socket>();
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", async () => {
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      const server = mcpServerFor(String(req.headers.authorization ?? "none"));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(body));
    });
  });
  http.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        http.close(() => r());
      }),
  };
}
