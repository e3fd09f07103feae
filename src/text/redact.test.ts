import { test } from "node:test";
import assert from "node:assert/strict";
import { hideUrlCredentials, redact, redactValue, redactValues } from "./redact.ts";

test("a value is hidden wherever it appears", () => {
  assert.equal(
    redact("k=sk-abcdefgh123; sk-abcdefgh123", ["sk-abcdefgh123"]),
    "k=[redacted]; [redacted]",
  );
});

test("redact also hides key shapes; redactValues only the values", () => {
  const text = "key AKIAIOSFODNN7EXAMPLE and corp-value-99";
  assert.equal(redact(text, ["corp-value-99"]), "key [redacted] and [redacted]");
  assert.equal(redactValues(text, ["corp-value-99"]), "key AKIAIOSFODNN7EXAMPLE and [redacted]");
});

test("object keys are redacted as well as values; env and headers maps by name", () => {
  assert.deepEqual(redactValue({ "sk-abcdefgh123": ["sk-abcdefgh123"] }, ["sk-abcdefgh123"]), {
    "[redacted]": ["[redacted]"],
  });
  assert.deepEqual(
    redactValue(
      { s: { env: { API_TOKEN: "plain", PATH: "/bin" }, headers: { Cookie: "a=b" } } },
      [],
    ),
    { s: { env: { API_TOKEN: "[redacted]", PATH: "/bin" }, headers: { Cookie: "[redacted]" } } },
  );
});

test("a configured URL is shown without its userinfo (a bare user too) and key parameters", () => {
  const url = "https://me:p%40ss-word@host/v1?x=1&api_key=zz-query-key&token=tok12345";
  assert.equal(
    hideUrlCredentials(url),
    "https://[redacted]@host/v1?x=1&api_key=[redacted]&token=[redacted]",
  );
  assert.equal(hideUrlCredentials("https://tok@host/v1"), "https://[redacted]@host/v1");
  assert.equal(hideUrlCredentials("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080/v1");
});

test("a value with nothing to hide is kept as it is; one with anything is rebuilt", () => {
  const clean = { type: "text", id: "t1", text: "all fine here", parts: [{ n: 1 }, null, true] };
  assert.equal(redactValue(clean, ["a-secret-value"]), clean);
  const nested = { a: { b: ["ok", { c: "see a-secret-value here" }] } };
  assert.deepEqual(redactValue(nested, ["a-secret-value"]), {
    a: { b: ["ok", { c: "see [redacted] here" }] },
  });
  assert.deepEqual(redactValue({ list: ["x", "token AKIAIOSFODNN7EXAMPLE"] }, []), {
    list: ["x", "token [redacted]"],
  });
  const mcp = { server: { env: { DB_PASSWORD: "hunter2", HOME: "/h" } } };
  assert.deepEqual(redactValue(mcp, []), {
    server: { env: { DB_PASSWORD: "[redacted]", HOME: "/h" } },
  });
});

test("strings that only look secret once joined are left as they are", () => {
  // "Bearer" and a long word in two strings match the Bearer shape only across them.
  const value = { scheme: "Bearer", word: "abcdefghijklmnopqrstuvwxyz" };
  const out = redactValue(value, []);
  assert.deepEqual(out, value);
});
