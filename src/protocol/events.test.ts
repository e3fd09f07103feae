import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createEmitter, MAX_HELD, parseEventLine, redact, redactValue } from "./events.ts";
import { buildSystemPrompt, reminderMessage } from "../child/prompt.ts";

describe("events", () => {
  test("one JSON line per event, secrets redacted, one result only", () => {
    const lines: string[] = [];
    const emit = createEmitter((l) => lines.push(l));
    emit.setSecrets(["sk-abcdefgh123"]);
    emit({ type: "text", id: "1", delta: "key sk-abcdefgh123!" });
    emit({ type: "result", id: "1", status: "ok", data: { k: ["sk-abcdefgh123"] } });
    emit({ type: "result", id: "1", status: "error", error: "second" });
    // Text may be split where a secret could still begin; joined, it is redacted.
    const events = lines.map((l) => JSON.parse(l));
    assert.ok(lines.every((l) => l.endsWith("}\n") && !l.slice(0, -1).includes("\n")));
    assert.equal(
      events.filter((e) => e.type === "text").map((e) => e.delta).join(""),
      "key [redacted]!",
    );
    assert.deepEqual(events.filter((e) => e.type === "result"), [
      { type: "result", id: "1", status: "ok", data: { k: ["[redacted]"] } },
    ]);
    assert.equal(events.at(-1).type, "result");
    assert.ok(emit.resultSent());
  });

  test("short values are not treated as secrets", () => {
    assert.equal(redact("abc abc", ["abc"]), "abc abc");
    assert.deepEqual(redactValue({ a: 1, b: null }, ["12345678"]), { a: 1, b: null });
  });
});

describe("prompt", () => {
  test("with a schema: agent prompt, context, the schema and the submit contract", () => {
    const p = buildSystemPrompt({
      agentPrompt: "You scout.\n",
      context: "The repo is small.",
      schema: { kind: "json-schema", value: { type: "object" } },
      planMode: true,
      cwd: "/w",
    });
    assert.ok(p.startsWith("You scout.\n\n## Context from the caller\n\nThe repo is small."));
    assert.match(p, /Working directory: \/w/);
    assert.match(p, /Plan mode/);
    assert.match(p, /satisfy this JSON Schema/);
    assert.match(p, /"type":"object"/);
    assert.match(p, /submit_result/);
  });

  test("without a schema: a plain final answer is the result", () => {
    const p = buildSystemPrompt({ agentPrompt: "Hi", planMode: false });
    assert.match(p, /final answer as plain text/);
    assert.doesNotMatch(p, /Plan mode/);
  });

  test("the reminder counts down", () => {
    assert.match(reminderMessage(1), /1 reminder left/);
    assert.match(reminderMessage(2), /2 reminders left/);
  });
});

describe("secrets split across streamed text", () => {
  const SECRET = "sk-secret-123456";
  const run = (deltas: string[]) => {
    const lines: string[] = [];
    const emit = createEmitter((l) => lines.push(l), [SECRET]);
    for (const d of deltas) emit({ type: "text", id: "t", delta: d });
    emit({ type: "result", id: "t", status: "ok", text: deltas.join("") });
    return lines.map((l) => JSON.parse(l));
  };
  const cases: [string, string[]][] = [
    ["in one delta", [`key ${SECRET} end`]],
    ["split in two", ["key sk-secr", "et-123456 end"]],
    ["one character at a time", [...`key ${SECRET} end`]],
    ["at the very end", ["key sk-secret-", "123456"]],
  ];
  for (const [name, deltas] of cases) {
    test(name, () => {
      const events = run(deltas);
      const streamed = events.filter((e) => e.type === "text").map((e) => e.delta).join("");
      assert.equal(streamed, deltas.join("").replace(SECRET, "[redacted]"));
      for (const e of events) assert.ok(!JSON.stringify(e).includes("123456"), JSON.stringify(e));
      assert.equal(events.at(-1).type, "result");
    });
  }
  test("text that is not a secret is not held back beyond the longest secret", () => {
    const lines: string[] = [];
    const emit = createEmitter((l) => lines.push(l), [SECRET]);
    const words = "word ".repeat(8);
    emit({ type: "text", id: "t", delta: words });
    assert.equal(JSON.parse(lines[0]).delta, words.slice(0, 40 - (SECRET.length - 1)));
  });

  const shapes: [string, string[], string][] = [
    ["a key shape split in two", ["token ghp_A1b2C3d4E5A1b2", "C3d4E5A1b2C3d4E5 end"], "C3d4E5"],
    [
      "a Bearer credential after its scheme",
      ["use Bearer ", "abcdefghijklmnop", "qrstu now"],
      "mnop",
    ],
    ["a URL password", ["see https://me:hunt", "er2-pass@host/x ok"], "er2-pass"],
    [
      "a private key over several deltas",
      [
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow",
        "IBAAKCAQEA\n",
        "-----END RSA PRIVATE KEY----- ok",
      ],
      "MIIE",
    ],
  ];
  for (const [name, deltas, part] of shapes) {
    test(name, () => {
      const events = run(deltas);
      for (const e of events) assert.ok(!JSON.stringify(e).includes(part), JSON.stringify(e));
      const streamed = events.filter((e) => e.type === "text").map((e) => e.delta).join("");
      assert.match(streamed, /\[redacted\]/);
    });
  }

  test("a text without spaces is held back no more than MAX_HELD characters", () => {
    const lines: string[] = [];
    const emit = createEmitter((l) => lines.push(l), [SECRET]);
    emit({ type: "text", id: "t", delta: "x".repeat(MAX_HELD + 40) });
    assert.equal(JSON.parse(lines[0]).delta, "x".repeat(40));
  });
});

describe("parseEventLine", () => {
  test("reads events", () => {
    assert.deepEqual(parseEventLine('{"type":"text","id":"a","delta":"hi"}'), {
      type: "text",
      id: "a",
      delta: "hi",
    });
  });
  for (const line of ["", "hello", "{not json", "[1,2]", '{"no":"type"}', "42"]) {
    test(`ignores ${JSON.stringify(line)}`, () => assert.equal(parseEventLine(line), undefined));
  }
});
