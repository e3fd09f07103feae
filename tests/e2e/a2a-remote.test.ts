// End-to-end tests of running Gemini CLI's remote agents (`kind: remote`):
// the real binary against the official A2A SDK's server (`@a2a-js/sdk`,
// JSON-RPC, 1.0 with its 0.3 compatibility) on 127.0.0.1 as the far side:
// send, stream, both card versions, cancel, timeout, resume, an output
// schema, auth from the user's environment; the trust refusal of a
// repository's remote agent and the address checks (loopback only when the
// user's own config opens it); and a far side that misbehaves (a card that
// answers 404, HTML, or lacks fields; a version xcsh does not speak; no
// answer; a dropped stream; a task id that does not exist): each one line,
// nothing left running.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, requireBinary, runXcsh, XCSH } from "../support/cli.ts";
import {
  agentMd,
  isAfterTool,
  makeWorld,
  processesIn,
  toolResults,
  waitForNoProcessesIn,
  type World,
} from "../support/world.ts";
import { modelHarness } from "../support/harness.ts";
import { type A2APeer, startA2APeer } from "../support/a2a-peer.ts";

/** The user's config: no model at all (a remote agent needs none), loopback opened. */
const OPEN_LOOPBACK = 'task:\n  webFetchAllow: ["127.0.0.1"]\n';

// For the one test where a local agent (on a scripted model) delegates to a remote one.
const harness = modelHarness();

let peer: A2APeer;
let bad: { url: string; close(): Promise<void> };
const worlds: World[] = [];

before(async () => {
  requireBinary();
  peer = await startA2APeer();
  bad = await startBadPeer();
});
after(async () => {
  await peer?.close();
  await bad?.close();
  for (const w of worlds) w.cleanup();
});

function world(config = OPEN_LOOPBACK): World {
  const w = makeWorld(config);
  worlds.push(w);
  return w;
}

/** Writes a Gemini CLI agent file: the user's (`~/.gemini/agents`) or the project's. */
function geminiAgent(w: World, scope: "user" | "project", name: string, fields: string): string {
  const dir = scope === "user"
    ? join(w.home, ".gemini", "agents")
    : join(w.cwd, ".gemini", "agents");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.md`);
  writeFileSync(file, `---\nkind: remote\nname: ${name}\n${fields}---\n`);
  return file;
}

/** A YAML single-quoted scalar of `text`. */
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

function cardUrlField(url = peer.url): string {
  return `agent_card_url: ${url}.well-known/agent-card.json\n`;
}

/** A 1.0 card inline, streaming or not. */
function inlineCard(streaming: boolean, legacy = false): string {
  const card = JSON.parse(legacy ? peer.legacyCardJson() : peer.cardJson());
  card.capabilities.streaming = streaming;
  return `agent_card_json: ${quoted(JSON.stringify(card))}\n`;
}

function run(w: World, args: string[], env: Record<string, string> = {}) {
  return runXcsh(["run", ...args], { cwd: w.cwd, home: w.home, env, killAfterMs: 60_000 });
}

/** The one line a failed task is reported with. */
function failure(stderr: string, id = "0-"): string {
  const lines = stderr.split("\n").filter((l) => l.startsWith(`xcsh: task ${id}`));
  assert.equal(lines.length, 1, stderr);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
  return lines[0];
}

/** Files under `dir` whose text holds one of `needles`. */
function filesHolding(dir: string, needles: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    if (needles.some((n) => text.includes(n))) out.push(file);
  }
  return out;
}

const methodsSince = (n: number) => peer.requests.slice(n).map((r) => r.method);

describe("a remote agent runs on the far side", () => {
  test("send: an inline 1.0 card without streaming sends SendMessage with A2A-Version 1.0", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", inlineCard(false));
    const seen = peer.requests.length;
    const r = await run(w, ["peer", "echo hello there"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "echo: hello there");
    assert.deepEqual(methodsSince(seen), ["SendMessage"]);
    assert.equal(peer.requests.at(-1)?.version, "1.0");
  });

  test("stream: a fetched card that streams; status updates reach stream-json", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const seen = peer.requests.length;
    const r = await run(w, ["peer", "--output-format", "stream-json", "echo streamed"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(methodsSince(seen), ["SendStreamingMessage"]);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const texts = lines.filter((l) => l.type === "event" && l.event.type === "text")
      .map((l) => l.event.delta);
    assert.deepEqual(texts, ["working on echo\n"]);
    const done = lines.find((l) => l.type === "run_result");
    assert.equal(done.results[0].status, "ok");
    assert.equal(done.results[0].text, "echo: streamed");
  });

  test("0.3: an inline 0.3 card speaks message/stream and message/send without A2A-Version", async () => {
    const w = world();
    geminiAgent(w, "user", "streams", inlineCard(true, true));
    geminiAgent(w, "user", "sends", inlineCard(false, true));
    const seen = peer.requests.length;
    const a = await run(w, ["streams", "echo old"]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout.trim(), "echo: old");
    const b = await run(w, ["sends", "echo older"]);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(b.stdout.trim(), "echo: older");
    assert.deepEqual(methodsSince(seen), ["message/stream", "message/send"]);
    assert.deepEqual(peer.requests.slice(seen).map((q) => q.version), [undefined, undefined]);
  });

  test("one file may hold several remote agents (a list); a local entry refuses the file", async () => {
    const w = world();
    const dir = join(w.home, ".gemini", "agents");
    mkdirSync(dir, { recursive: true });
    const card = `${peer.url}.well-known/agent-card.json`;
    writeFileSync(
      join(dir, "pair.md"),
      `---\n- kind: remote\n  name: first\n  agent_card_url: ${card}\n` +
        `- kind: remote\n  name: second\n  agent_card_url: ${card}\n---\n`,
    );
    const listed = await runXcsh(["agents"], { cwd: w.cwd, home: w.home });
    assert.match(listed.stdout, /first .*pair\.md/);
    assert.match(listed.stdout, /second .*pair\.md/);
    for (const name of ["first", "second"]) {
      const r = await run(w, [name, `echo from ${name}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `echo: from ${name}`);
    }
    writeFileSync(
      join(dir, "mixed.md"),
      `---\n- kind: remote\n  name: third\n  agent_card_url: ${card}\n` +
        `- name: local-one\n  description: d\n---\n`,
    );
    const mixed = await runXcsh(["agents", "--verbose"], { cwd: w.cwd, home: w.home });
    assert.doesNotMatch(mixed.stdout, /third/);
    assert.match(
      mixed.stderr,
      /mixed\.md.*agent 2 of the list: a list of agents in one file holds remote agents only/,
    );
  });

  test("resume continues the same A2A context", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const first = await run(w, ["peer", "--json", "count"]);
    assert.equal(first.code, 0, first.stderr);
    const result = JSON.parse(first.stdout).results[0];
    assert.equal(result.text, "messages in context: 1");
    const again = await run(w, ["--resume", result.session, "count"]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), "messages in context: 2");
  });

  test("a task that asks for input is answered by resuming its session", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const asked = await run(w, ["peer", "--json", "ask"]);
    assert.equal(asked.code, 1);
    const result = JSON.parse(asked.stdout).results[0];
    assert.match(
      result.error,
      /^remote agent 'peer' waits for input \(input-required\): which color\?; answer it by resuming/,
    );
    const answered = await run(w, ["--resume", result.session, "blue"]);
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal(answered.stdout.trim(), "answered: blue");
  });

  test("a task the far side fails is one line with its words", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const r = await run(w, ["peer", "fail"]);
    assert.equal(r.code, 1);
    assert.match(
      failure(r.stderr),
      /remote agent 'peer' ended the task as failed: the far side failed$/,
    );
  });

  test("an output schema checks the far side's result", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const schema = '{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}';
    const good = await run(w, ["peer", "--json", "--schema", schema, 'json {"n": 3}']);
    assert.equal(good.code, 0, good.stderr);
    assert.deepEqual(JSON.parse(good.stdout).results[0].data, { n: 3 });
    const wrong = await run(w, ["peer", "--schema", schema, 'json {"m": 1}']);
    assert.equal(wrong.code, 1);
    assert.match(failure(wrong.stderr), /result does not match the output schema: .*'n'/);
    const prose = await run(w, ["peer", "--schema", schema, "echo not json"]);
    assert.equal(prose.code, 1);
    assert.match(failure(prose.stderr), /answered text, not the JSON the output schema asks for/);
  });

  test("auth: apiKey and Bearer values come from the user's environment", async () => {
    const w = world();
    geminiAgent(w, "user", "keyed", cardUrlField() + "auth:\n  type: apiKey\n  key: $PEER_KEY\n");
    geminiAgent(
      w,
      "user",
      "bearer",
      cardUrlField() + "auth:\n  type: http\n  scheme: Bearer\n  token: $PEER_WORD\n",
    );
    const shown = await runXcsh(["agents", "show", "keyed"], { cwd: w.cwd, home: w.home });
    assert.match(
      shown.stdout,
      /remote: +A2A, card http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json, auth apiKey/,
    );
    const seen = peer.requests.length;
    const a = await run(w, ["keyed", "echo k"], { PEER_KEY: "key-from-env-123" });
    assert.equal(a.code, 0, a.stderr);
    const b = await run(w, ["bearer", "echo b"], { PEER_WORD: "token-from-env-456" });
    assert.equal(b.code, 0, b.stderr);
    const sent = peer.requests.slice(seen);
    assert.deepEqual(sent.map((q) => q.apiKey), ["key-from-env-123", undefined]);
    assert.deepEqual(sent.map((q) => q.authorization), [undefined, "Bearer token-from-env-456"]);
    // The key is shown nowhere and kept nowhere: not in a dry run, not on disk.
    const dry = await run(w, ["keyed", "--dry-run", "echo k"], { PEER_KEY: "key-from-env-123" });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /"X-API-Key": "[<[]redacted[>\]]"/);
    assert.doesNotMatch(dry.stdout, /modelError/, "a remote agent needs no model");
    assert.doesNotMatch(dry.stdout + dry.stderr, /key-from-env-123/);
    // A variable whose name does not look secret is hidden all the same.
    const dryBearer = await run(w, ["bearer", "--dry-run", "echo b"], {
      PEER_WORD: "token-from-env-456",
    });
    assert.equal(dryBearer.code, 0, dryBearer.stderr);
    assert.match(dryBearer.stdout, /"Authorization": "[<[]redacted[>\]]"/);
    assert.doesNotMatch(dryBearer.stdout, /token-from-env-456/);
    assert.deepEqual(filesHolding(w.root, ["key-from-env-123", "token-from-env-456"]), []);
    // A literal in the user's own file is sent, and likewise kept nowhere.
    geminiAgent(
      w,
      "user",
      "literal",
      cardUrlField() + "auth:\n  type: apiKey\n  key: lit-key-789\n",
    );
    const lit = await run(w, ["literal", "echo l"]);
    assert.equal(lit.code, 0, lit.stderr);
    assert.equal(peer.requests.at(-1)?.apiKey, "lit-key-789");
    const dryLit = await run(w, ["literal", "--dry-run", "echo l"]);
    assert.doesNotMatch(dryLit.stdout, /lit-key-789/);
    const kept = filesHolding(w.root, ["lit-key-789"]);
    assert.deepEqual(
      kept,
      [join(w.home, ".gemini", "agents", "literal.md")],
      "only the file itself",
    );
    const missing = await run(w, ["keyed", "echo k"]);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /auth\.key reads \$PEER_KEY, which is not set in your environment/,
    );
  });

  test("a !command of the user's own file gives its value; a failing one is one line", async () => {
    const w = world();
    geminiAgent(
      w,
      "user",
      "cmd",
      cardUrlField() + 'auth:\n  type: http\n  scheme: Bearer\n  token: "!printf tok-from-cmd"\n',
    );
    geminiAgent(
      w,
      "user",
      "broken",
      cardUrlField() + 'auth:\n  type: apiKey\n  key: "!exit 3"\n',
    );
    const r = await run(w, ["cmd", "echo c"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(peer.requests.at(-1)?.authorization, "Bearer tok-from-cmd");
    const seen = peer.requests.length;
    const bad = await run(w, ["broken", "echo c"]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /Cannot run 'broken': .*broken\.md: auth\.key: '!exit 3' failed \(exit 3\)/,
    );
    assert.equal(peer.requests.length, seen, "nothing was sent");
  });

  test("google-credentials and oauth are listed but refused as unsupported", async () => {
    const w = world();
    geminiAgent(w, "user", "gcp", cardUrlField() + "auth:\n  type: google-credentials\n");
    geminiAgent(w, "user", "oauthed", cardUrlField() + "auth:\n  type: oauth\n  client_id: x\n");
    const listed = await runXcsh(["agents"], { cwd: w.cwd, home: w.home });
    assert.match(listed.stdout, /gcp/);
    assert.match(listed.stdout, /oauthed/);
    for (const [name, type] of [["gcp", "google-credentials"], ["oauthed", "oauth"]]) {
      const r = await run(w, [name, "echo x"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`Cannot run '${name}': its auth type '${type}' is not supported`),
      );
    }
  });
});

describe("a remote agent among the others", () => {
  test("a local agent's task call runs it, under the caller's spawns", async () => {
    const w = harness.world({ extraConfig: OPEN_LOOPBACK });
    w.addAgent("lead", agentMd("lead", "tools: task\nspawns: [peer]\n"));
    geminiAgent(w, "user", "peer", cardUrlField());
    geminiAgent(w, "user", "other", cardUrlField());
    harness.respond((req) =>
      isAfterTool(req) ? { text: `got: ${toolResults(req)}` } : {
        toolCalls: [{
          name: "task",
          args: {
            agent: "peer",
            tasks: [{ id: "far", assignment: "echo via lead" }],
          },
        }, {
          name: "task",
          args: { agent: "other", tasks: [{ id: "no", assignment: "echo refused" }] },
        }],
      }
    );
    const r = await run(w, ["lead", "delegate"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /echo: via lead/);
    assert.match(r.stdout, /Cannot spawn 'other'/);
    assert.doesNotMatch(r.stdout, /echo: refused/);
  });
});

describe("stopping a remote task", () => {
  test("a timeout ends it, sends the A2A cancel and leaves nothing running", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const cancelled = peer.cancelled.length;
    const r = await run(w, ["peer", "--timeout", "2", "hang"]);
    assert.equal(r.code, 1);
    assert.match(
      failure(r.stderr),
      /timed out after 2 s/,
    );
    assert.equal(peer.cancelled.length, cancelled + 1, "the far side heard the cancel");
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });

  test("SIGINT cancels the remote task and reports it cancelled", async () => {
    const w = world();
    geminiAgent(w, "user", "peer", cardUrlField());
    const cancelled = peer.cancelled.length;
    const child = spawn(XCSH, ["run", "peer", "--json", "hang"], {
      cwd: w.cwd,
      env: cleanEnv(w.home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    const until = Date.now() + 20_000;
    while (peer.hanging() === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(peer.hanging(), 1, "the far side is working on the task");
    assert.ok(processesIn(w.root).length >= 1, "the task is running");
    process.kill(child.pid!, "SIGINT");
    assert.equal(await exited, 1);
    assert.equal(JSON.parse(stdout).results[0].status, "cancelled");
    assert.equal(peer.cancelled.length, cancelled + 1, "the far side heard the cancel");
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });
});

describe("trust and addresses", () => {
  test("a repository's remote agent is listed but refused until xcsh trust", async () => {
    const w = world();
    const file = geminiAgent(w, "project", "repo-peer", cardUrlField());
    const listed = await runXcsh(["agents"], { cwd: w.cwd, home: w.home });
    assert.match(listed.stdout, /repo-peer/);
    const seen = peer.requests.length;
    const refused = await run(w, ["repo-peer", "echo x"]);
    assert.equal(refused.code, 2);
    const line = refused.stderr.split("\n").filter((l) => l.includes("Cannot run 'repo-peer'"));
    assert.equal(line.length, 1, refused.stderr);
    assert.ok(line[0].includes(file), line[0]);
    assert.match(line[0], /address the repository chose; read the file and run 'xcsh trust'/);
    assert.equal(peer.requests.length, seen, "nothing was sent");
    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /repo-peer\.md .*kind: remote/);
    const ok = await run(w, ["repo-peer", "echo trusted"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), "echo: trusted");
  });

  test("a repository's file holds no credentials and runs no !command", async () => {
    const w = world();
    geminiAgent(
      w,
      "project",
      "literal",
      cardUrlField() + "auth:\n  type: apiKey\n  key: sk-inrepo\n",
    );
    const marker = join(w.root, "ran");
    geminiAgent(
      w,
      "project",
      "command",
      cardUrlField() + `auth:\n  type: http\n  scheme: Bearer\n  token: "!touch ${marker}"\n`,
    );
    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    const seen = peer.requests.length;
    const a = await run(w, ["literal", "echo x"]);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /auth\.key: a repository's agent file may not hold credentials/);
    const b = await run(w, ["command", "echo x"]);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /auth\.token: a '!command' of a repository's agent file is never run/);
    assert.equal(peer.requests.length, seen, "nothing was sent");
    assert.equal(existsSync(marker), false, "the command ran");
  });

  test("loopback is refused unless the user's config opens it (a project's cannot)", async () => {
    const w = world("task: {}\n");
    geminiAgent(w, "user", "peer", cardUrlField());
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), OPEN_LOOPBACK);
    const seen = peer.requests.length;
    const r = await run(w, ["peer", "echo x"]);
    assert.equal(r.code, 1);
    assert.match(
      failure(r.stderr),
      /127\.0\.0\.1 is a loopback address .*a remote agent reaches only public addresses \(task\.webFetchAllow/,
    );
    assert.equal(peer.requests.length, seen);
  });

  test("the card's endpoint and each redirect are checked too", async () => {
    // Only the name `localhost` is opened: 127.0.0.1 named directly is not.
    const w = world('task:\n  webFetchAllow: ["localhost"]\n');
    const port = new URL(bad.url).port;
    geminiAgent(w, "user", "hop", `agent_card_url: http://localhost:${port}/redirect-to-ip\n`);
    const hop = await run(w, ["hop", "echo x"]);
    assert.equal(hop.code, 1);
    assert.match(failure(hop.stderr), /127\.0\.0\.1 is a loopback address/);
    // The card comes from localhost, its endpoint names 127.0.0.1.
    geminiAgent(
      w,
      "user",
      "endpoint",
      `agent_card_url: http://localhost:${port}/ip-endpoint/card\n`,
    );
    const endpoint = await run(w, ["endpoint", "echo x"]);
    assert.equal(endpoint.code, 1);
    assert.match(
      failure(endpoint.stderr),
      /http:\/\/127\.0\.0\.1:\d+\/ip-endpoint\/rpc: 127\.0\.0\.1 is a loopback/,
    );
  });
});

describe("a far side that misbehaves: one line, nothing left running", () => {
  const cases: [string, string, RegExp][] = [
    ["404", "/404/card", /agent card http:\/\/\S+\/404\/card: HTTP 404 Not Found$/],
    ["html", "/html/card", /answered an HTML page \(text\/html\), not a card$/],
    ["no name", "/noname/card", /the agent card has no 'name'$/],
    ["no url", "/nourl/card", /the agent card has no 'url'$/],
    [
      "version 2.0",
      "/v2/card",
      /the agent speaks A2A 2\.0; xcsh speaks A2A 1\.0 and 0\.3 over JSON-RPC$/,
    ],
    [
      "version 0.2",
      "/v02/card",
      /the agent speaks A2A 0\.2\.5; xcsh speaks A2A 1\.0 and 0\.3 over JSON-RPC$/,
    ],
    ["only gRPC", "/grpc/card", /offers no JSON-RPC interface \(only GRPC\)/],
    [
      "dropped stream",
      "/drop/card",
      /^xcsh: task 0-odd failed: the stream dropped \(.*\) before task t-drop finished; .*GetTask\): the remote agent answered error -32001: Task not found: t-drop$/,
    ],
    [
      "unknown task id",
      "/ghost/card",
      /GetTask\): the remote agent answered error -32001: Task not found: ghost$/,
    ],
    ["not JSON-RPC", "/garbage/card", /SendMessage\): the answer is not JSON/],
  ];
  for (const [name, path, expected] of cases) {
    test(name, async () => {
      const w = world();
      geminiAgent(w, "user", "odd", `agent_card_url: ${bad.url}${path}\n`);
      const r = await run(w, ["odd", "echo x"]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(failure(r.stderr), expected);
      assert.deepEqual(await waitForNoProcessesIn(w.root), []);
    });
  }

  test("a far side that never answers: the timeout ends it", async () => {
    const w = world();
    geminiAgent(w, "user", "odd", `agent_card_url: ${bad.url}/silent/card\n`);
    const r = await run(w, ["odd", "--timeout", "2", "echo x"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(failure(r.stderr), /timed out after 2 s/);
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });

  test("an inline card that is not JSON names the file's field", async () => {
    const w = world();
    const file = geminiAgent(w, "user", "odd", "agent_card_json: '{not json'\n");
    const r = await run(w, ["odd", "echo x"]);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(failure(r.stderr).includes(`${file}: agent_card_json: not JSON`), r.stderr);
  });
});

/**
 * A far side that misbehaves in each way the tests name, on 127.0.0.1:
 * `/<case>/card` serves the case's card, whose endpoint is `/<case>/rpc`.
 */
async function startBadPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let base = "";
  const card1 = (
    path: string,
    streaming: boolean,
    version = "1.0",
    binding = "JSONRPC",
    url?: string,
  ) => ({
    name: "odd",
    description: "misbehaves",
    version: "1",
    supportedInterfaces: [{
      url: url ?? `${base}/${path}/rpc`,
      protocolBinding: binding,
      protocolVersion: version,
    }],
    capabilities: { streaming },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
  });
  const json = (res: ServerResponse, value: unknown, status = 200) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const notFound = (id: unknown, task: string) => ({
    jsonrpc: "2.0",
    id,
    error: { code: -32001, message: `Task not found: ${task}` },
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    let body = "";
    for await (const chunk of req) body += chunk;
    const call = body ? JSON.parse(body) : {};
    const port = new URL(base).port;
    switch (path) {
      case "/404/card":
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("no card here");
      case "/html/card":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<!doctype html><html><body>Sign in</body></html>");
      case "/noname/card":
        return json(res, { protocolVersion: "0.3.0", url: `${base}/noname/rpc` });
      case "/nourl/card":
        return json(res, { name: "odd", protocolVersion: "0.3.0" });
      case "/v2/card":
        return json(res, card1("v2", false, "2.0"));
      case "/v02/card":
        return json(res, { name: "odd", protocolVersion: "0.2.5", url: `${base}/v02/rpc` });
      case "/grpc/card":
        return json(res, card1("grpc", false, "1.0", "GRPC"));
      case "/silent/card":
        return json(res, card1("silent", false));
      case "/silent/rpc":
        return; // never answers
      case "/drop/card":
        return json(res, card1("drop", true));
      case "/drop/rpc":
        if (call.method === "GetTask") return json(res, notFound(call.id, "t-drop"));
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: ${
            JSON.stringify({
              jsonrpc: "2.0",
              id: call.id,
              result: {
                task: { id: "t-drop", contextId: "c", status: { state: "TASK_STATE_WORKING" } },
              },
            })
          }\n\n`,
        );
        setTimeout(() => req.socket.destroy(), 50);
        return;
      case "/ghost/card":
        return json(res, card1("ghost", false));
      case "/ghost/rpc":
        if (call.method === "GetTask") return json(res, notFound(call.id, "ghost"));
        return json(res, {
          jsonrpc: "2.0",
          id: call.id,
          result: {
            task: { id: "ghost", contextId: "c", status: { state: "TASK_STATE_WORKING" } },
          },
        });
      case "/garbage/card":
        return json(res, card1("garbage", false));
      case "/garbage/rpc":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end("this is not json");
      case "/redirect-to-ip":
        res.writeHead(302, { location: `http://127.0.0.1:${port}/v2/card` });
        return res.end();
      case "/ip-endpoint/card":
        return json(res, card1("ip-endpoint", false, "1.0", "JSONRPC", `${base}/ip-endpoint/rpc`));
      default:
        res.writeHead(404);
        return res.end();
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
