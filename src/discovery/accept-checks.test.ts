import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  parseAcceptList,
  parseAcceptRetries,
  parseCheck,
  pointerProblem,
} from "./accept-checks.ts";

describe("parseCheck: the short form", () => {
  test("each kind reads as its object form, named by its text", () => {
    assert.deepEqual(parseCheck("cmd: npm test"), {
      kind: "cmd",
      name: "cmd: npm test",
      cmd: "npm test",
    });
    assert.deepEqual(parseCheck("file: out.txt ~ ^done"), {
      kind: "file",
      name: "file: out.txt ~ ^done",
      file: "out.txt",
      matches: "^done",
    });
    assert.deepEqual(parseCheck("scope: src/** docs/*.md"), {
      kind: "scope",
      name: "scope: src/** docs/*.md",
      globs: ["src/**", "docs/*.md"],
    });
    assert.deepEqual(parseCheck("changed: src/**"), {
      kind: "scope",
      name: "changed: src/**",
      globs: ["src/**"],
      changed: true,
    });
    assert.deepEqual(parseCheck('result: /status == "done"'), {
      kind: "result",
      name: 'result: /status == "done"',
      pointer: "/status",
      equals: "done",
    });
    assert.deepEqual(parseCheck("result: /summary ~ fixed"), {
      kind: "result",
      name: "result: /summary ~ fixed",
      pointer: "/summary",
      matches: "fixed",
    });
  });

  test("bad short forms say what is wrong", () => {
    assert.match(parseCheck("run: make") as string, /is no check: write KIND: VALUE/);
    assert.match(parseCheck("result: /a == done") as string, /must be JSON/);
    assert.match(parseCheck("result: a") as string, /no JSON Pointer/);
    assert.match(parseCheck("file: a ~ (") as string, /'matches': /);
    assert.match(parseCheck("cmd:   ") as string, /'cmd' must be a command/);
  });
});

describe("parseCheck: the object form", () => {
  test("names, timeouts and schemas are kept", () => {
    assert.deepEqual(parseCheck({ cmd: "make", timeout: 30, name: "build" }), {
      kind: "cmd",
      name: "build",
      cmd: "make",
      timeout: 30,
    });
    assert.deepEqual(parseCheck({ file: "r.json", schema: { type: "object" } }), {
      kind: "file",
      name: "file: r.json",
      file: "r.json",
      schema: { type: "object" },
    });
    assert.deepEqual(parseCheck({ scope: "src/**" }), {
      kind: "scope",
      name: "scope: src/**",
      globs: ["src/**"],
    });
  });

  test("one kind per check, no unknown keys, sane values", () => {
    assert.match(
      parseCheck({ cmd: "a", file: "b" }) as string,
      /exactly one of .* \(found cmd, file\)/,
    );
    assert.match(parseCheck({ name: "x" }) as string, /found none/);
    assert.match(parseCheck({ cmd: "a", matches: "x" }) as string, /no key 'matches'/);
    assert.match(parseCheck({ cmd: "a", timeout: 0 }) as string, /'timeout' must be seconds/);
    assert.match(parseCheck({ cmd: "a", timeout: 99999 }) as string, /at most 3600/);
    assert.match(parseCheck({ scope: [] }) as string, /a glob or a list of globs/);
    assert.match(parseCheck({ scope: ["a"], changed: "yes" }) as string, /true or false/);
    assert.match(parseCheck({ file: "a", matches: "x", schema: {} }) as string, /not both/);
    assert.match(parseCheck({ result: "/a", equals: 1, matches: "x" }) as string, /not both/);
    assert.match(parseCheck(42) as string, /a string or an object/);
  });
});

describe("parseAcceptList", () => {
  test("a single check is a list of one; errors name the entry", () => {
    const one = parseAcceptList("cmd: make", "accept");
    assert.ok(one.ok);
    assert.equal(one.checks.length, 1);
    const bad = parseAcceptList(["cmd: make", { cmd: "" }], "accept");
    assert.deepEqual(bad, { ok: false, message: "accept[1]: 'cmd' must be a command" });
  });

  test("two checks of one name are refused (the child is told names)", () => {
    const r = parseAcceptList(["cmd: make", { cmd: "make" }], "--accept");
    assert.deepEqual(r, { ok: false, message: "--accept[1]: two checks are named 'cmd: make'" });
  });
});

describe("pointerProblem and parseAcceptRetries", () => {
  test("RFC 6901 pointers", () => {
    assert.equal(pointerProblem(""), undefined);
    assert.equal(pointerProblem("/a~1b/~0"), undefined);
    assert.match(pointerProblem("/a~2")!, /~ must be followed by 0 or 1/);
  });

  test("retries are whole numbers from 0 to 5", () => {
    assert.equal(parseAcceptRetries(0), 0);
    assert.equal(parseAcceptRetries("2"), 2);
    assert.equal(typeof parseAcceptRetries(6), "string");
    assert.equal(typeof parseAcceptRetries(1.5), "string");
    assert.equal(typeof parseAcceptRetries("x"), "string");
  });
});
