// WebFetch(domain:…) rules against hosts and resolved addresses, compared in
// one form: case, trailing dot, international names, IPv4-mapped IPv6.

import { test } from "node:test";
import assert from "node:assert/strict";
import { normalHost, ruleCoversAddress, ruleCoversHost } from "./domain-rule.ts";

test("normalHost: case, brackets, trailing dot, international names", () => {
  assert.equal(normalHost("Example.COM."), "example.com");
  assert.equal(normalHost("[::1]"), "::1");
  assert.equal(normalHost("bücher.de"), "xn--bcher-kva.de");
});

test("ruleCoversHost: one host in every spelling", () => {
  const rows: [string, string, boolean][] = [
    ["domain:example.com", "example.com", true],
    ["domain:example.com", "docs.example.com", true],
    ["domain:example.com", "example.com.", true],
    ["domain:Example.COM.", "EXAMPLE.com", true],
    ["domain:*.example.com", "a.example.com", true],
    ["domain:example.com", "evilexample.com", false],
    ["domain:bücher.de", "xn--bcher-kva.de", true],
    ["domain:127.0.0.1", "127.0.0.1", true],
    ["domain:127.0.0.1", "[::ffff:7f00:1]", true],
    ["domain:127.0.0.1", "[::ffff:127.0.0.1]", true],
    ["domain:127.0.0.1", "localhost", true],
    ["domain:127.0.0.1", "127.0.0.2", false],
    ["domain:127.0.0.0/8", "127.9.9.9", true],
    ["domain:[::ffff:127.0.0.1]", "127.0.0.1", true],
    ["domain:::1", "[::1]", true],
    ["domain:[::1]", "localhost", true],
    ["domain:localhost", "127.0.0.1", true],
    ["domain:localhost", "[::1]", true],
    ["domain:localhost", "LOCALHOST.", true],
    ["domain:localhost", "10.0.0.1", false],
    ["domain:10.0.0.0/8", "localhost", false],
    ["domain:10.0.0.1", "example.com", false],
  ];
  for (const [rule, host, expected] of rows) {
    assert.equal(ruleCoversHost(rule, host), expected, `${rule} vs ${host}`);
  }
});

test("ruleCoversAddress: what a name resolved to", () => {
  assert.equal(ruleCoversAddress("domain:127.0.0.1", "127.0.0.1"), true);
  assert.equal(ruleCoversAddress("domain:127.0.0.1", "::ffff:127.0.0.1"), true);
  assert.equal(ruleCoversAddress("domain:10.0.0.0/8", "10.1.2.3"), true);
  assert.equal(ruleCoversAddress("domain:localhost", "::1"), true);
  assert.equal(ruleCoversAddress("domain:example.com", "93.184.215.14"), false);
  assert.equal(ruleCoversAddress("domain:127.0.0.1", "93.184.215.14"), false);
});
