import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { resultText, taskAnswer } from "./server.ts";

describe("resultText (what an MCP client's model reads)", () => {
  const rows: [string, Parameters<typeof resultText>[0], string][] = [
    [
      "string data as itself",
      { id: "a", agent: "x", status: "ok", data: "two\nlines" },
      "## a (x): ok\ntwo\nlines",
    ],
    [
      "object data as JSON",
      { id: "a", agent: "x", status: "ok", data: { n: 1 } },
      '## a (x): ok\n{\n  "n": 1\n}',
    ],
    ["a plain cancellation once", {
      id: "a",
      agent: "x",
      status: "cancelled",
      error: "cancelled",
    }, "## a (x): cancelled"],
    ["a failure with its cause", {
      id: "a",
      agent: "x",
      status: "error",
      error: "timed out after 3 s",
    }, "## a (x): error\ntimed out after 3 s"],
  ];
  for (const [name, r, expected] of rows) {
    test(name, () => assert.equal(resultText(r), expected));
  }
});

describe("resultText: acceptance checks", () => {
  test("a rejected task keeps its result and lists its checks", () => {
    const text = resultText({
      id: "a",
      agent: "x",
      status: "rejected",
      error: "acceptance check 'build' failed",
      text: "done",
      verified: false,
      checks: [
        { name: "build", ok: false, output: "make: ***\n[exit code 2]" },
        { name: "scope", ok: true, output: "changed: src/a.ts" },
      ],
    });
    assert.equal(
      text,
      "## a (x): rejected\nacceptance check 'build' failed\ndone\n" +
        "Acceptance checks (not verified):\n- build: failed ([exit code 2])\n- scope: ok",
    );
  });

  test("an unverified ok task says so", () => {
    const text = resultText({
      id: "a",
      agent: "x",
      status: "ok",
      text: "done",
      verified: false,
      checks: [{ name: "marker", ok: false, skipped: true, output: "not run: untrusted" }],
    });
    assert.match(
      text,
      /Acceptance checks \(not verified\):\n- marker: skipped \(not run: untrusted\)/,
    );
  });
});

describe("taskAnswer (a long result: a text part and a resource link)", () => {
  const big = { id: "b", agent: "x", status: "ok" as const, data: { blob: "z".repeat(5000) } };
  const small = { id: "s", agent: "x", status: "ok" as const, text: "fine" };

  test("short results go inline, whole, with no link", async () => {
    const saved: string[] = [];
    const r = await taskAnswer(
      [small],
      (_r, t) => Promise.resolve(saved.push(t) ? "/f" : ""),
      1000,
    );
    assert.deepEqual(r.content, [{ type: "text", text: resultText(small) }]);
    assert.deepEqual(r.structuredContent, { results: [small] });
    assert.equal(saved.length, 0);
  });

  test("a long one is cut, saved whole and linked; its structured entry names the file", async () => {
    const saved: string[] = [];
    const r = await taskAnswer([small, big], (_r, t) => {
      saved.push(t);
      return Promise.resolve("/art/run/b.txt");
    }, 1000);
    assert.deepEqual(saved, [resultText(big)]);
    assert.equal(r.content.length, 2);
    const text = r.content[0] as { text: string };
    assert.ok(text.text.length < 1000 + 200 + resultText(small).length);
    assert.match(text.text, /the whole result is in \/art\/run\/b\.txt/);
    assert.deepEqual(r.content[1], {
      type: "resource_link",
      uri: "file:///art/run/b.txt",
      name: "b result",
      mimeType: "text/plain",
      description: `The whole result of task b (${resultText(big).length} characters).`,
    });
    const entry = (r.structuredContent!.results as Record<string, unknown>[])[1];
    assert.equal(entry.artifact, "/art/run/b.txt");
    assert.equal(entry.data, undefined);
  });

  test("a result that cannot be saved is cut with the reason and no link", async () => {
    const r = await taskAnswer([big], () => Promise.reject(new Error("disk full")), 1000);
    assert.equal(r.content.length, 1);
    assert.match((r.content[0] as { text: string }).text, /could not be kept \(disk full\)/);
  });
});
