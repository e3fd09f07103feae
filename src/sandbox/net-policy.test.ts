import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  checkDestination,
  describeNetwork,
  narrowNetwork,
  parseSandboxNetwork,
  sharesHostNetwork,
  usesProxy,
} from "./net-policy.ts";

describe("parseSandboxNetwork", () => {
  test("true, false, host and an allow list", () => {
    assert.equal(parseSandboxNetwork(true), true);
    assert.equal(parseSandboxNetwork(false), false);
    assert.deepEqual(parseSandboxNetwork("host"), { host: true });
    assert.deepEqual(parseSandboxNetwork({ allow: ["registry.npmjs.org", "*.github.com"] }), {
      allow: [["registry.npmjs.org", "*.github.com"]],
    });
  });
  test("reads back what it passes on to a child (several lists, public only)", () => {
    const passed = { allow: [["a.example"], ["127.0.0.1", "10.0.0.0/8"]], publicOnly: true };
    assert.deepEqual(parseSandboxNetwork(passed), passed);
    assert.deepEqual(parseSandboxNetwork({ host: true }), { host: true });
  });
  test("anything else says what is accepted; a bad entry is named", () => {
    for (const v of ["on", "yes", 1, null, [], { allow: "x" }, { deny: [] }, { host: false }]) {
      const r = parseSandboxNetwork(v);
      assert.equal(typeof r, "string", JSON.stringify(v));
      assert.match(r as string, /true or false, host, or \{ allow:/);
    }
    assert.match(
      parseSandboxNetwork({ allow: ["http://x/"] }) as string,
      /"http:\/\/x\/": not a host name/,
    );
  });
});

describe("narrowNetwork", () => {
  test("off wins; the host's network only when both share it", () => {
    assert.equal(narrowNetwork(false, { host: true }), false);
    assert.equal(narrowNetwork({ host: true }, false), false);
    assert.deepEqual(narrowNetwork({ host: true }, { host: true }), { host: true });
    assert.equal(narrowNetwork({ host: true }, true), true);
    assert.equal(narrowNetwork(true, true), true);
  });
  test("every list applies; a side allowing any public host keeps public addresses only", () => {
    assert.deepEqual(narrowNetwork({ allow: [["a"]] }, { allow: [["b"]] }), {
      allow: [["a"], ["b"]],
    });
    assert.deepEqual(narrowNetwork(true, { allow: [["localhost"]] }), {
      allow: [["localhost"]],
      publicOnly: true,
    });
    assert.deepEqual(narrowNetwork({ host: true }, { allow: [["localhost"]] }), {
      allow: [["localhost"]],
    });
  });
});

describe("checkDestination", () => {
  test("any public host by default; the loopback and metadata refused, with the reason", () => {
    assert.deepEqual(checkDestination("example.org", ["93.184.215.14"], {}), {
      ok: true,
      addresses: ["93.184.215.14"],
    });
    const lo = checkDestination("localhost", ["127.0.0.1", "::1"], {});
    assert.ok(!lo.ok);
    assert.match(lo.error, /^localhost resolves to 127\.0\.0\.1, which is a loopback address/);
    assert.match(lo.error, /only public addresses/);
    const meta = checkDestination("169.254.169.254", ["169.254.169.254"], {});
    assert.ok(!meta.ok);
    assert.match(meta.error, /^169\.254\.169\.254 is a link-local address/);
  });
  test("only the addresses that pass are kept", () => {
    assert.deepEqual(checkDestination("mixed.example", ["10.0.0.1", "93.184.215.14"], {}), {
      ok: true,
      addresses: ["93.184.215.14"],
    });
  });
  test("an allow list: only hosts it names; a name it opens reaches the loopback", () => {
    const reach = { allow: [["registry.npmjs.org", "*.github.com", "localhost"]] };
    assert.ok(checkDestination("api.github.com", ["140.82.112.6"], reach).ok);
    assert.ok(checkDestination("localhost", ["127.0.0.1"], reach).ok);
    const other = checkDestination("evil.example", ["93.184.215.14"], reach);
    assert.ok(!other.ok);
    assert.match(other.error, /^evil\.example is not on the allow list; task\.sandboxNetwork/);
    // A name is not an address: 127.0.0.1 itself is not named.
    assert.ok(!checkDestination("127.0.0.1", ["127.0.0.1"], reach).ok);
  });
  test("public only stays, whatever a list opens; every list must open the host", () => {
    const reach = { allow: [["localhost", "a.example"]], publicOnly: true };
    assert.ok(!checkDestination("localhost", ["127.0.0.1"], reach).ok);
    assert.ok(checkDestination("a.example", ["93.184.215.14"], reach).ok);
    const two = { allow: [["a.example", "b.example"], ["b.example"]] };
    assert.ok(!checkDestination("a.example", ["93.184.215.14"], two).ok);
    assert.ok(checkDestination("b.example", ["93.184.215.14"], two).ok);
  });
  test("the host's network: no rule here (the proxy is not used)", () => {
    assert.ok(checkDestination("localhost", ["127.0.0.1"], { host: true, allow: [["x"]] }).ok);
  });
  test("no address at all", () => {
    assert.deepEqual(checkDestination("none.example", [], {}), {
      ok: false,
      error: "none.example has no address",
    });
  });
});

describe("which sandboxes use the proxy", () => {
  test("with network, unless the host's is shared", () => {
    assert.equal(usesProxy({ network: true }), true);
    assert.equal(usesProxy({ network: true, reach: { allow: [["a"]] } }), true);
    assert.equal(usesProxy({ network: false }), false);
    assert.equal(usesProxy({ network: true, reach: { host: true } }), false);
    assert.equal(sharesHostNetwork({ network: true, reach: { host: true } }), true);
    assert.equal(sharesHostNetwork({ network: false, reach: { host: true } }), false);
    assert.equal(sharesHostNetwork({ network: true }), false);
  });
  test("how doctor says it", () => {
    assert.equal(describeNetwork(false, undefined), "off");
    assert.equal(describeNetwork(true, undefined), "on, through a proxy (any public host)");
    assert.equal(
      describeNetwork(true, { allow: [["a", "*.b"]] }),
      "on, through a proxy (only a, *.b)",
    );
    assert.equal(describeNetwork(true, { host: true }), "on (the host's network, shared)");
  });
});
