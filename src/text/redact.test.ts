import { test } from "node:test";
import assert from "node:assert/strict";
import {
  hasUrlCredentials,
  hideUrlCredentials,
  redact,
  redactValue,
  secretForms,
  urlSecrets,
} from "./redact.ts";

test("a key is hidden as set and as sent (trimmed), longest first", () => {
  const secrets = secretForms([" sk-abcdefgh123\n", undefined, "short"]);
  assert.deepEqual(secrets, [" sk-abcdefgh123\n", "sk-abcdefgh123"]);
  assert.equal(redact("k=sk-abcdefgh123;", secrets), "k=[redacted];");
});

test("object keys are redacted as well as values", () => {
  assert.deepEqual(redactValue({ "sk-abcdefgh123": ["sk-abcdefgh123"] }, ["sk-abcdefgh123"]), {
    "[redacted]": ["[redacted]"],
  });
});

test("URL credentials: shown hidden, and their values become secrets", () => {
  const url = "https://me:p%40ss-word@host/v1?x=1&api_key=zz-query-key&token=tok12345";
  assert.equal(
    hideUrlCredentials(url),
    "https://[redacted]@host/v1?x=1&api_key=[redacted]&token=[redacted]",
  );
  assert.deepEqual(urlSecrets(url), [
    "me:p%40ss-word",
    "p%40ss-word",
    "p@ss-word",
    "zz-query-key",
    "tok12345",
  ]);
  assert.deepEqual(urlSecrets("http://127.0.0.1:8080/v1"), []);
  assert.equal(hideUrlCredentials("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080/v1");
});

test("a URL carries credentials with a password or a key-like parameter, not a bare user", () => {
  assert.equal(hasUrlCredentials("postgres://app:pw@db.internal:5432/app"), true);
  assert.equal(hasUrlCredentials("redis://:s3cret@cache:6379"), true);
  assert.equal(hasUrlCredentials("https://h/v1?x=1&access_token=abc"), true);
  assert.equal(hasUrlCredentials("ssh://git@github.com/o/r.git"), false);
  assert.equal(hasUrlCredentials("http://127.0.0.1:8080/v1"), false);
  assert.equal(hasUrlCredentials("/usr/bin:/bin"), false);
  assert.equal(hasUrlCredentials("key=value"), false);
});
