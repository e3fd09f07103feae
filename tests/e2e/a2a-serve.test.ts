// End-to-end tests of `xcsh a2a` through the built binary and real peers:
// the official A2A SDK's clients (1.x, which speaks A2A 1.0 and sends
// `SendMessage`…, and 0.3.x, which sends `message/send`…) send, stream, get
// and cancel tasks that run on the scripted model server; the cards, the
// index and the token; and the bad input: no token, a wrong token, a huge
// body, an unknown agent (with the nearest names), a path-traversing name,
// a bad port or token at start-up, each one line with nothing left running.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { randomUUID } from "node:crypto";
import process from "node:process";
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { A2AClient as LegacyClient } from "a2a-sdk-v03/client";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { childPids, EXPLORE_SAMPLE, type World } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const TOKEN = "test-token-0123456789abcdef";

/** A running `xcsh a2a`: its base URL, its stderr so far, and how to stop it. */
interface Served {
  base: string;
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

function serve(w: World, env: Record<string, string | undefined> = {}, args: string[] = []) {
  const proc = spawn(XCSH, ["a2a", "--port", "0", ...args], {
    cwd: w.cwd,
    env: cleanEnv(w.home, { XCSH_A2A_TOKEN: TOKEN, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d) => err += d);
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  return new Promise<Served>((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        resolve({
          base: out.slice(0, nl),
          proc,
          stdout: () => out,
          stderr: () => err,
          stop: () => {
            // process.kill, not ChildProcess.kill: Deno then reports the real exit code.
            process.kill(proc.pid!, "SIGTERM");
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`xcsh a2a exited ${code}: ${err}`)));
  });
}

/** A fetch that sends the token and records each JSON-RPC method sent. */
function authFetch(methods: string[], token = TOKEN): typeof fetch {
  return (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    if (typeof init.body === "string") {
      try {
        methods.push(JSON.parse(init.body).method);
      } catch { /* not JSON-RPC */ }
    }
    return fetch(input, { ...init, headers });
  };
}

function cardUrl(base: string, agent: string): string {
  return `${base}/agents/${agent}/.well-known/agent-card.json`;
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A raw HTTP request (the path sent exactly as written). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, method, path, headers },
      (res) => {
        let text = "";
        res.on("data", (d) => text += d);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/**
 * Sends a body of `size` bytes a chunk at a time (its length declared in
 * advance or not), stopping as soon as an answer comes: the answer.
 */
function sendHuge(
  base: string,
  headers: Record<string, string>,
  size: number,
  declare: boolean,
): Promise<{ status: number; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request({
      host: u.hostname,
      port: u.port,
      method: "POST",
      path: "/agents/quick_task/",
      headers: {
        ...headers,
        "content-type": "application/json",
        ...(declare ? { "content-length": String(size) } : {}),
      },
    }, (res) => {
      answered = true;
      let text = "";
      res.on("data", (d) => text += d);
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text });
      });
    });
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.flushHeaders();
    // A declared length is answered before any of the body is sent.
    if (!declare) pump();
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };

const { server, respond, world } = modelHarness({ respond: () => ({ text: "unexpected" }) });

function script(turns: Parameters<typeof server.script>[0]): void {
  server.script(turns);
  server.requests.length = 0;
  respond(() => ({ text: "unexpected request" }));
}

describe("xcsh a2a with the SDK's 1.x client (A2A 1.0)", () => {
  test("send, stream, get and cancel; the methods are 1.0's", async () => {
    const w = world();
    const s = await serve(w);
    try {
      assert.match(s.base, /^http:\/\/127\.0\.0\.1:\d+$/, "bound to loopback by default");
      const methods: string[] = [];
      const card = await (await authFetch([])(cardUrl(s.base, "quick_task"), {
        headers: { "A2A-Version": "1.0" },
      })).json();
      assert.equal(card.name, "quick_task");
      assert.equal(card.capabilities.streaming, true);
      assert.deepEqual(card.supportedInterfaces[0], {
        url: `${s.base}/agents/quick_task/`,
        protocolBinding: "JSONRPC",
        protocolVersion: "1.0",
      });
      assert.equal(card.securitySchemes.bearer.httpAuthSecurityScheme.scheme, "Bearer");
      // The SDK resolves the card itself (with the token), as Gemini CLI's client does.
      const fetchImpl = authFetch(methods);
      const client = await new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }).createFromUrl(cardUrl(s.base, "quick_task"), "");
      assert.equal(client.protocolVersion, "1.0");

      // Send (blocking): the result comes back as the task's artifact.
      script([{ text: "the answer is 42" }]);
      const sent: Any = await client.sendMessage({
        message: {
          messageId: randomUUID(),
          role: 1,
          parts: [{ content: { $case: "text", value: "What is the answer?" } }],
        },
      } as Any);
      assert.equal(sent.status.state, 3, "TASK_STATE_COMPLETED");
      assert.equal(sent.artifacts[0].parts[0].content.value, "the answer is 42");
      assert.match(JSON.stringify(server.requests[0].body.messages), /What is the answer\?/);

      // Get the same task.
      const got: Any = await client.getTask({ id: sent.id } as Any);
      assert.equal(got.id, sent.id);
      assert.equal(got.status.state, 3);
      assert.equal(got.artifacts[0].parts[0].content.value, "the answer is 42");

      // Stream: the task, working updates, the artifact, then completed.
      script([{ text: "streamed answer" }]);
      const kinds: string[] = [];
      let streamedText = "";
      let last: Any;
      for await (
        const ev of client.sendMessageStream({
          message: {
            messageId: randomUUID(),
            role: 1,
            parts: [{ content: { $case: "text", value: "Stream it." } }],
          },
        } as Any)
      ) {
        const e: Any = ev;
        kinds.push(e.payload.$case);
        if (e.payload.$case === "artifactUpdate") {
          streamedText = e.payload.value.artifact.parts[0].content.value;
        }
        last = e.payload;
      }
      assert.equal(kinds[0], "task");
      assert.ok(kinds.includes("statusUpdate"));
      assert.equal(streamedText, "streamed answer");
      assert.equal(last.$case, "statusUpdate");
      assert.equal(last.value.status.state, 3);

      // Cancel a task that hangs: its child ends.
      script([{ fault: "stall" }]);
      const started: Any = await client.sendMessage({
        message: {
          messageId: randomUUID(),
          role: 1,
          parts: [{ content: { $case: "text", value: "Hang." } }],
        },
        configuration: { returnImmediately: true },
      } as Any);
      assert.notEqual(started.status.state, 3);
      await until("the child to reach the model", () => server.requests.length === 1);
      assert.equal(childPids(w.root).length, 1, "the child is running");
      const cancelled: Any = await client.cancelTask({ id: started.id } as Any);
      assert.equal(cancelled.status.state, 5, "TASK_STATE_CANCELED");
      assert.deepEqual(childPids(w.root), [], "the task's children were ended");
      assert.equal(((await client.getTask({ id: started.id } as Any)) as Any).status.state, 5);

      assert.deepEqual(
        [...new Set(methods)],
        ["SendMessage", "GetTask", "SendStreamingMessage", "CancelTask"],
      );
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test("structured output comes back as a data part too", async () => {
    const w = world();
    const s = await serve(w);
    try {
      const card = await (await authFetch([])(cardUrl(s.base, "explore"), {
        headers: { "A2A-Version": "1.0" },
      })).json();
      assert.deepEqual(card.defaultOutputModes, ["text/plain", "application/json"]);
      const client = await new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch([]) })],
      }).createFromAgentCard(card);
      script([{
        toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
      }]);
      const sent: Any = await client.sendMessage({
        message: {
          messageId: randomUUID(),
          role: 1,
          parts: [{ content: { $case: "text", value: "Where is the title?" } }],
        },
      } as Any);
      assert.equal(sent.status.state, 3);
      const parts = sent.artifacts[0].parts;
      assert.deepEqual(parts[1].content, { $case: "data", value: EXPLORE_SAMPLE });
      assert.deepEqual(JSON.parse(parts[0].content.value), EXPLORE_SAMPLE);
    } finally {
      await s.stop();
    }
  });
});

describe("xcsh a2a with the SDK's 0.3 client", () => {
  test("send, stream, get and cancel; the methods are 0.3's", async () => {
    const w = world();
    const s = await serve(w);
    try {
      const methods: string[] = [];
      const client = await LegacyClient.fromCardUrl(cardUrl(s.base, "quick_task"), {
        fetchImpl: authFetch(methods),
      });
      const card: Any = await client.getAgentCard();
      assert.equal(card.protocolVersion, "0.3.0");
      assert.equal(card.url, `${s.base}/agents/quick_task/`);
      assert.deepEqual(card.security, [{ bearer: [] }]);

      script([{ text: "old-style answer" }]);
      const sent: Any = await client.sendMessage({
        message: {
          kind: "message",
          messageId: randomUUID(),
          role: "user",
          parts: [{ kind: "text", text: "Hello from 0.3" }],
        },
      });
      assert.equal(sent.error, undefined, JSON.stringify(sent.error));
      assert.equal(sent.result.kind, "task");
      assert.equal(sent.result.status.state, "completed");
      assert.equal(sent.result.artifacts[0].parts[0].text, "old-style answer");

      const got: Any = await client.getTask({ id: sent.result.id });
      assert.equal(got.result.status.state, "completed");

      // The same context continues the conversation (as Gemini CLI sends it).
      script([{ text: "follow-up answer" }]);
      const next: Any = await client.sendMessage({
        message: {
          kind: "message",
          messageId: randomUUID(),
          role: "user",
          contextId: sent.result.contextId,
          parts: [{ kind: "text", text: "And then?" }],
        },
      });
      assert.equal(next.result.contextId, sent.result.contextId);
      assert.notEqual(next.result.id, sent.result.id, "a new task");
      assert.equal(next.result.artifacts[0].parts[0].text, "follow-up answer");
      assert.match(
        JSON.stringify(server.requests[0].body.messages),
        /Hello from 0\.3[^]*old-style answer[^]*And then\?/,
      );

      script([{ text: "streamed 0.3" }]);
      const events: Any[] = [];
      for await (
        const ev of client.sendMessageStream({
          message: {
            kind: "message",
            messageId: randomUUID(),
            role: "user",
            parts: [{ kind: "text", text: "Stream please" }],
          },
        })
      ) events.push(ev);
      assert.equal(events[0].kind, "task");
      const art = events.find((e) => e.kind === "artifact-update");
      assert.equal(art.artifact.parts[0].text, "streamed 0.3");
      const end = events.at(-1);
      assert.equal(end.kind, "status-update");
      assert.equal(end.final, true);
      assert.equal(end.status.state, "completed");

      script([{ fault: "stall" }]);
      const started: Any = await client.sendMessage({
        message: {
          kind: "message",
          messageId: randomUUID(),
          role: "user",
          parts: [{ kind: "text", text: "Hang." }],
        },
        configuration: { blocking: false },
      });
      await until("the child to reach the model", () => server.requests.length === 1);
      const cancelled: Any = await client.cancelTask({ id: started.result.id });
      assert.equal(cancelled.result.status.state, "canceled");
      assert.deepEqual(childPids(w.root), []);
      const again: Any = await client.cancelTask({ id: started.result.id });
      assert.equal(again.error.code, -32002, "an ended task is not cancelable");

      const missing: Any = await client.getTask({ id: "no-such-task" });
      assert.equal(missing.error.code, -32001);
      assert.match(missing.error.message, /^no task "no-such-task" of agent "quick_task"/);

      assert.deepEqual(
        [...new Set(methods.filter(Boolean))],
        ["message/send", "tasks/get", "message/stream", "tasks/cancel"],
      );
    } finally {
      await s.stop();
    }
  });
});

describe("xcsh a2a: bad input", () => {
  test("no token, a wrong token, a huge body, an unknown agent, a traversing name", async () => {
    const w = world();
    const s = await serve(w);
    try {
      const rpc = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "GetTask",
        params: { id: "x" },
      });
      const json = { "content-type": "application/json" };
      for (const path of ["/agents", "/agents/quick_task/.well-known/agent-card.json"]) {
        const none = await raw(s.base, "GET", path, {});
        assert.equal(none.status, 401, path);
        assert.match(JSON.parse(none.text).error.message, /^Unauthorized: send 'Authorization/);
        const wrong = await raw(s.base, "GET", path, { authorization: `Bearer ${TOKEN}x` });
        assert.equal(wrong.status, 401, path);
      }
      const post = await raw(s.base, "POST", "/agents/quick_task/", json, rpc);
      assert.equal(post.status, 401);
      assert.equal(post.text.includes("quick_task"), false, "says nothing of the agents");
      const basic = await raw(s.base, "POST", "/agents/quick_task/", {
        ...json,
        authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}`,
      }, rpc);
      assert.equal(basic.status, 401, "only a bearer token is taken");

      // A huge body: refused by its declared size before any of it is read
      // (without the token, by the token), or as it grows past the limit.
      const HUGE = 64 * 1024 * 1024;
      const noToken = await sendHuge(s.base, {}, HUGE, true);
      assert.equal(noToken.status, 401);
      const declared = await sendHuge(s.base, auth, HUGE, true);
      assert.equal(declared.status, 413);
      const limit = `the request body is over ${4 * 1024 * 1024} bytes`;
      assert.equal(JSON.parse(declared.text).error.message, limit);
      // Undeclared, the client may still be writing when the refusal closes
      // the connection: it sees the 413 or the connection cut.
      const grown = await sendHuge(s.base, auth, HUGE, false).catch((e) => e);
      if (grown instanceof Error) {
        assert.match((grown as NodeJS.ErrnoException).code ?? "", /^(EPIPE|ECONNRESET)$/);
      } else {
        assert.equal(grown.status, 413);
        assert.equal(JSON.parse(grown.text).error.message, limit);
      }
      assert.equal(
        (await raw(s.base, "GET", "/agents", auth)).status,
        200,
        "the server serves on",
      );

      // An unknown agent: a JSON-RPC error with the nearest names.
      const unknown = await raw(s.base, "POST", "/agents/quick_tsk/", { ...auth, ...json }, rpc);
      assert.equal(unknown.status, 404);
      const err = JSON.parse(unknown.text).error;
      assert.match(err.message, /^Unknown agent "quick_tsk"\. .*quick_task/);
      assert.equal(err.message.includes("\n"), false);
      const unknownCard = await raw(
        s.base,
        "GET",
        "/agents/revewer/.well-known/agent-card.json",
        auth,
      );
      assert.equal(unknownCard.status, 404);
      assert.match(JSON.parse(unknownCard.text).error.message, /reviewer/);

      // Names that leave the folder name nothing and are never looked up.
      for (
        const path of [
          "/agents/..%2F..%2Fetc%2Fpasswd/.well-known/agent-card.json",
          "/agents/%2e%2e/.well-known/agent-card.json",
          "/agents/../../etc/passwd",
          "/agents/quick_task/../../../etc/passwd",
          "/agents/%E0%A4%A/",
        ]
      ) {
        const r = await raw(s.base, "GET", path, auth);
        assert.equal(r.status, 404, path);
        assert.equal(r.text.includes("root:"), false, path);
        assert.equal(typeof JSON.parse(r.text).error.message, "string", path);
      }

      // JSON-RPC mistakes: one line each.
      const notJson = await raw(s.base, "POST", "/agents/quick_task/", { ...auth, ...json }, "{");
      assert.equal(JSON.parse(notJson.text).error.code, -32700);
      const unknownMethod = await raw(
        s.base,
        "POST",
        "/agents/quick_task/",
        { ...auth, ...json },
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "DoThings", params: {} }),
      );
      assert.equal(JSON.parse(unknownMethod.text).error.code, -32601);
      const noParts = await raw(
        s.base,
        "POST",
        "/agents/quick_task/",
        { ...auth, ...json },
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "SendMessage",
          params: { message: { messageId: "m", role: "ROLE_USER", parts: [] } },
        }),
      );
      assert.deepEqual(JSON.parse(noParts.text).error, {
        code: -32602,
        message: "'params.message.parts' must be a non-empty array",
      });
      assert.deepEqual(childPids(w.root), [], "nothing started");
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test("an agent disabled by config is neither published nor run", async () => {
    const w = world({ extraConfig: "task: { disabledAgents: [plan] }\n" });
    const s = await serve(w);
    try {
      const index = JSON.parse((await raw(s.base, "GET", "/agents", auth)).text);
      const names = index.agents.map((a: Any) => a.name);
      assert.ok(names.includes("explore") && !names.includes("plan"), names.join(","));
      assert.equal(
        index.agents.find((a: Any) => a.name === "explore").card,
        `${s.base}/agents/explore/.well-known/agent-card.json`,
      );
      const r = await raw(
        s.base,
        "POST",
        "/agents/plan/",
        { ...auth, "content-type": "application/json" },
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }),
      );
      assert.equal(r.status, 404);
      assert.match(JSON.parse(r.text).error.message, /^Unknown agent "plan"\./);
    } finally {
      await s.stop();
    }
  });

  test("a generated token is printed on stderr, never on stdout", async () => {
    const w = world();
    const s = await serve(w, { XCSH_A2A_TOKEN: undefined });
    try {
      await until("the token on stderr", () => /xcsh a2a: token \S+\n/.test(s.stderr()));
      const token = /xcsh a2a: token (\S+)/.exec(s.stderr())![1];
      assert.equal(s.stdout(), `${s.base}\n`, "stdout holds the URL alone");
      const ok = await raw(s.base, "GET", "/agents", { authorization: `Bearer ${token}` });
      assert.equal(ok.status, 200);
      assert.ok(JSON.parse(ok.text).agents.some((a: Any) => a.name === "quick_task"));
      const old = await raw(s.base, "GET", "/agents", auth);
      assert.equal(old.status, 401);
    } finally {
      await s.stop();
    }
  });

  test("a bad port or a short token stops the start with one line", async () => {
    const w = world();
    const port = await runXcsh(["a2a", "--port", "70000"], { cwd: w.cwd, home: w.home });
    assert.equal(port.code, 2);
    assert.match(
      port.stderr,
      /^xcsh: a2a: --port must be a whole number from 0 to 65535, not '70000'\n/,
    );
    assert.equal(port.stdout, "");
    const short = await runXcsh(["a2a", "--port", "0"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_A2A_TOKEN: "short" },
    });
    assert.equal(short.code, 1);
    assert.equal(
      short.stderr,
      "xcsh: error: XCSH_A2A_TOKEN is 5 characters long: use at least 16 (or unset it for a generated one)\n",
    );
    assert.equal(short.stdout, "");
  });

  test("a host that is not here, a port in use: one line, nothing left listening", async () => {
    const w = world();
    const host = await runXcsh(["a2a", "--host", "nohost.invalid", "--port", "0"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_A2A_TOKEN: TOKEN },
    });
    assert.equal(host.code, 1);
    assert.equal(
      host.stderr,
      "xcsh: error: cannot listen on nohost.invalid:0: the name does not resolve to an address of this machine\n",
    );
    assert.equal(host.stdout, "");
    const s = await serve(w);
    try {
      const port = new URL(s.base).port;
      const busy = await runXcsh(["a2a", "--port", port], {
        cwd: w.cwd,
        home: w.home,
        env: { XCSH_A2A_TOKEN: TOKEN },
      });
      assert.equal(busy.code, 1);
      assert.equal(
        busy.stderr,
        `xcsh: error: cannot listen on 127.0.0.1:${port}: the port is in use (--port 0 takes a free one)\n`,
      );
    } finally {
      await s.stop();
    }
  });

  test("the help names the command, its paths, flags and the token", async () => {
    const main = await runXcsh(["--help"]);
    assert.match(main.stdout, /^\s+xcsh a2a\b.*A2A/m);
    const r = await runXcsh(["a2a", "--help"]);
    assert.equal(r.code, 0, r.stderr);
    for (const word of ["--host", "--port", "--cwd", "XCSH_A2A_TOKEN", "agent-card.json"]) {
      assert.ok(r.stdout.includes(word), word);
    }
  });

  test("stopping the server ends a running task's children", async () => {
    const w = world();
    const s = await serve(w);
    script([{ fault: "stall" }]);
    const r = await raw(
      s.base,
      "POST",
      "/agents/quick_task/",
      { ...auth, "content-type": "application/json" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "Hang." }] },
          configuration: { returnImmediately: true },
        },
      }),
    );
    assert.equal(JSON.parse(r.text).result.task.status.state, "TASK_STATE_WORKING");
    await until("the child to reach the model", () => server.requests.length === 1);
    assert.equal(childPids(w.root).length, 1);
    assert.equal(await s.stop(), 0);
    assert.match(s.stderr(), /SIGTERM; cancelling 1 running task\(s\)/);
    assert.deepEqual(childPids(w.root), [], "nothing left running");
  });
});

describe("xcsh a2a: the concurrency cap", () => {
  test("requests share one cap of task.maxConcurrency children, as in xcsh mcp", async () => {
    const w = world({ extraConfig: "task: { maxConcurrency: 1 }\n" });
    const s = await serve(w);
    try {
      server.script([]);
      server.requests.length = 0;
      server.resetPeak();
      respond(() => ({ text: "done", delayMs: 800 }));
      const call = async (method: string, params: unknown) =>
        JSON.parse(
          (await raw(
            s.base,
            "POST",
            "/agents/quick_task/",
            { ...auth, "content-type": "application/json" },
            JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
          )).text,
        );
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        const r = await call("SendMessage", {
          message: { messageId: `m${n}`, role: "ROLE_USER", parts: [{ text: `job ${n}` }] },
          configuration: { returnImmediately: true },
        });
        ids.push(r.result.task.id);
      }
      const states = async () =>
        await Promise.all(
          ids.map(async (id) => (await call("GetTask", { id })).result.status.state),
        );
      for (let i = 0; i < 200; i++) {
        if ((await states()).every((st) => st === "TASK_STATE_COMPLETED")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(await states(), Array(3).fill("TASK_STATE_COMPLETED"));
      assert.equal(server.requests.length, 3);
      assert.equal(server.peakInFlight(), 1, "one child at a time");
    } finally {
      await s.stop();
    }
  });
});

describe("xcsh a2a: xcsh's rules hold for served tasks", () => {
  async function sendWait(base: string, text: string): Promise<Any> {
    const r = await raw(
      base,
      "POST",
      "/agents/quick_task/",
      { ...auth, "content-type": "application/json" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } },
      }),
    );
    return JSON.parse(r.text).result.task;
  }

  test("the depth guard refuses a task of a server started at the depth limit", async () => {
    const w = world({ extraConfig: "task: { maxRecursionDepth: 1 }\n" });
    const s = await serve(w, { XCSH_TASK_DEPTH: "1" });
    try {
      script([]);
      const task = await sendWait(s.base, "Go.");
      assert.equal(task.status.state, "TASK_STATE_FAILED");
      assert.match(
        task.status.message.parts[0].text,
        /^Cannot spawn 'quick_task': task depth limit reached \(this task is at depth 1/,
      );
      assert.equal(server.requests.length, 0, "no child started");
    } finally {
      await s.stop();
    }
  });

  test("the run budget stops a task: failed, the reason in one line", async () => {
    const w = world({ extraConfig: "task:\n  budget: { requests: 1 }\n" });
    const s = await serve(w);
    try {
      script([
        { toolCalls: [{ name: "read", args: { path: "missing.txt" } }] },
        { text: "never reached" },
      ]);
      const task = await sendWait(s.base, "Read it.");
      assert.equal(task.status.state, "TASK_STATE_FAILED");
      assert.match(task.status.message.parts[0].text, /^budget: /);
      assert.equal(task.status.message.parts[0].text.includes("\n"), false);
      assert.equal(server.requests.length, 1, "the second model call was not made");
    } finally {
      await s.stop();
    }
  });
});
