import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { resultText } from "./server.ts";

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
