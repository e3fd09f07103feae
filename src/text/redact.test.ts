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
