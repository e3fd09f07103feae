// A tiny MCP server speaking JSON-RPC over stdio by hand, for tests of the
// child's MCP client. Run with `node mcp-fixture-server.mjs [MODE]`:
//
// - no mode: answers; tools `echo` (readOnlyHint), `shout` (not read-only),
//   `picture` (returns an image and structured content), `crash` (the process
//   exits mid-call), `hang` (never answers), `fail` (isError result), `env`
//   (the names of its environment variables);
// - `exit`: exits at once with a message on stderr;
// - `silent`: reads requests and never answers (not even `initialize`).
//
// With XCSH_FIXTURE_PIDFILE set, writes its pid there and starts a grandchild
// (`sleep`) whose pid goes on the next line, to check whole-tree shutdown.

import process from "node:process";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const mode = process.argv[2] ?? "";
if (mode === "exit") {
  process.stderr.write("fixture: refusing to start\n");
  process.exit(3);
}
if (process.env.XCSH_FIXTURE_PIDFILE) {
  const sleeper = spawn("sleep", ["300"], { stdio: "ignore" });
  writeFileSync(process.env.XCSH_FIXTURE_PIDFILE, `${process.pid}\n${sleeper.pid}\n`);
}

const TOOLS = [
  {
    name: "echo",
    description: "Echo the text back (`times` times).",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" }, times: { type: "integer" } },
      required: ["text"],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "shout",
    description: "Echo the text in capitals.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
  { name: "picture", description: "An image.", inputSchema: { type: "object" } },
  { name: "crash", description: "Exits mid-call.", inputSchema: { type: "object" } },
  { name: "hang", description: "Never answers.", inputSchema: { type: "object" } },
  { name: "fail", description: "Reports an error.", inputSchema: { type: "object" } },
  {
    name: "env",
    description: "The names of its environment variables.",
    inputSchema: { type: "object" },
  },
];

function send(msg) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
}

function call(id, name, args) {
  switch (name) {
    case "echo":
      return send({
        id,
        result: { content: [{ type: "text", text: `echo: ${args.text.repeat(args.times ?? 1)}` }] },
      });
    case "shout":
      return send({
        id,
        result: { content: [{ type: "text", text: String(args.text ?? "").toUpperCase() }] },
      });
    case "picture":
      return send({
        id,
        result: {
          content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
          structuredContent: { width: 1, height: 1 },
        },
      });
    case "crash":
      process.stderr.write("fixture: crashing now\n");
      return process.exit(7);
    case "hang":
      return;
    case "env":
      return send({
        id,
        result: { content: [{ type: "text", text: Object.keys(process.env).sort().join(",") }] },
      });
    case "fail":
      return send({
        id,
        result: { isError: true, content: [{ type: "text", text: "the fixture failed" }] },
      });
    default:
      return send({ id, error: { code: -32602, message: `unknown tool ${name}` } });
  }
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (!line || mode === "silent") continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue; // a notification
    if (msg.method === "initialize") {
      send({
        id: msg.id,
        result: {
          protocolVersion: msg.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "fixture", version: "1.0.0" },
        },
      });
    } else if (msg.method === "tools/list") {
      send({ id: msg.id, result: { tools: TOOLS } });
    } else if (msg.method === "tools/call") {
      call(msg.id, msg.params.name, msg.params.arguments ?? {});
    } else if (msg.method === "ping") {
      send({ id: msg.id, result: {} });
    } else {
      send({ id: msg.id, error: { code: -32601, message: "method not found" } });
    }
  }
});
process.stdin.on("end", () => process.exit(0));
