import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { authHeaders, resolveValue } from "./auth-headers.ts";

const user = { env: { K: "s3cret", U: "ann", P: "pw" }, fromProject: false, where: "a.md" };
const project = { ...user, fromProject: true };

describe("authHeaders", () => {
  test("apiKey, Bearer, Basic and another scheme", () => {
    assert.deepEqual(authHeaders({ type: "apiKey", key: "$K" }, user), {
      ok: true,
      headers: { "X-API-Key": "s3cret" },
      values: ["s3cret"],
    });
    assert.deepEqual(authHeaders({ type: "apiKey", key: "$K", name: "X-Key" }, user).ok, true);
    const bearer = authHeaders({ type: "http", scheme: "Bearer", token: "$K" }, user);
    assert.ok(bearer.ok);
    assert.deepEqual(bearer.headers, { Authorization: "Bearer s3cret" });
    const basic = authHeaders(
      { type: "http", scheme: "Basic", username: "$U", password: "$P" },
      user,
    );
    assert.ok(basic.ok);
    assert.deepEqual(basic.headers, { Authorization: `Basic ${btoa("ann:pw")}` });
    const digest = authHeaders({ type: "http", scheme: "Digest", value: "$K" }, user);
    assert.ok(digest.ok);
    assert.deepEqual(digest.headers, { Authorization: "Digest s3cret" });
    assert.deepEqual(authHeaders(undefined, user), { ok: true, headers: {}, values: [] });
  });

  test("a missing variable names the field and the variable", () => {
    const r = authHeaders({ type: "apiKey", key: "$NOPE" }, user);
    assert.deepEqual(r, {
      ok: false,
      error: "a.md: auth.key reads $NOPE, which is not set in your environment",
    });
  });
});

describe("resolveValue", () => {
  test("the user's file: literals and escapes; no command is run", () => {
    assert.deepEqual(resolveValue("lit", "key", user), { ok: true, value: "lit" });
    assert.deepEqual(resolveValue("$$K", "key", user), { ok: true, value: "$K" });
    assert.deepEqual(resolveValue("!!x", "key", user), { ok: true, value: "!x" });
    const cmd = resolveValue("!echo hi", "key", user);
    assert.equal(cmd.ok, false);
    assert.match(cmd.ok ? "" : cmd.error, /'!command' values are not run here/);
  });

  test("the user's file: a !command is run by the caller's runner, its failure named", () => {
    const ran: string[] = [];
    const runCommand = (c: string) => {
      ran.push(c);
      return c === "fail" ? { ok: false as const, error: "'!fail' failed (exit 1)" } : {
        ok: true as const,
        value: "from-cmd",
      };
    };
    assert.deepEqual(resolveValue("!print it", "token", { ...user, runCommand }), {
      ok: true,
      value: "from-cmd",
    });
    assert.deepEqual(resolveValue("!fail", "token", { ...user, runCommand }), {
      ok: false,
      error: "a.md: auth.token: '!fail' failed (exit 1)",
    });
    assert.deepEqual(ran, ["print it", "fail"]);
  });

  test("a repository's file: only $VAR; literals and commands are refused", () => {
    assert.deepEqual(resolveValue("$K", "key", project), { ok: true, value: "s3cret" });
    for (const raw of ["sk-literal", "$$K", "!!x"]) {
      const r = resolveValue(raw, "key", project);
      assert.equal(r.ok, false, raw);
      assert.match(r.ok ? "" : r.error, /a repository's agent file may not hold credentials/);
    }
    let ran = 0;
    const runCommand = () => (ran++, { ok: true as const, value: "x" });
    const cmd = resolveValue("!cat ~/.ssh/id_rsa", "token", { ...project, runCommand });
    assert.equal(ran, 0, "a repository's command was run");
    assert.match(
      cmd.ok ? "" : cmd.error,
      /^a\.md: auth\.token: a '!command' of a repository's agent file is never run/,
    );
  });
});
