import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  addressProblem,
  allowedByEntries,
  effectiveAddress,
  parseAddress,
  parseAllowEntry,
} from "./net-address.ts";

describe("parseAddress", () => {
  test("reads IPv4, IPv6, bracketed IPv6 and a dotted IPv4 tail", () => {
    assert.deepEqual(parseAddress("127.0.0.1"), [127, 0, 0, 1]);
    assert.deepEqual(parseAddress("[::1]"), [...Array(15).fill(0), 1]);
    assert.deepEqual(
      parseAddress("::ffff:127.0.0.1"),
      parseAddress("::ffff:7f00:1"),
    );
    assert.deepEqual(parseAddress("fe80::1%eth0")?.slice(0, 2), [0xfe, 0x80]);
  });

  test("refuses what is no address", () => {
    for (const s of ["example.com", "1.2.3", "1.2.3.256", "01.2.3.4", "1::2::3", "1:2:3:4:5:6:7"]) {
      assert.equal(parseAddress(s), undefined, s);
    }
  });
});

describe("addressProblem", () => {
  const refused = [
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.168.1.1",
    "198.18.0.1",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::1",
    "2001:db8::1",
  ];
  for (const a of refused) {
    test(`${a} is not public`, () => assert.ok(addressProblem(a), a));
  }

  const allowed = ["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"];
  for (const a of allowed) {
    test(`${a} is public`, () => assert.equal(addressProblem(a), undefined));
  }

  test("names the range", () => {
    assert.match(addressProblem("169.254.169.254")!, /link-local.*metadata/);
    assert.match(addressProblem("::ffff:127.0.0.1")!, /loopback/);
    assert.equal(addressProblem("localhost"), "not an IP address");
  });

  test("the IPv4 address an IPv6 one carries", () => {
    assert.deepEqual(effectiveAddress(parseAddress("64:ff9b::7f00:1")!), [127, 0, 0, 1]);
    assert.deepEqual(effectiveAddress(parseAddress("2002:c0a8:101::")!), [192, 168, 1, 1]);
  });
});

describe("allow entries", () => {
  test("parse host names, suffixes, addresses and ranges", () => {
    assert.deepEqual(parseAllowEntry("Intranet.Example."), {
      kind: "host",
      name: "intranet.example",
    });
    assert.deepEqual(parseAllowEntry("*.corp.example"), {
      kind: "suffix",
      suffix: ".corp.example",
    });
    assert.deepEqual(parseAllowEntry("10.0.0.0/8"), {
      kind: "range",
      base: [10, 0, 0, 0],
      bits: 8,
    });
    assert.equal((parseAllowEntry("::1") as { bits: number }).bits, 128);
    assert.match(parseAllowEntry("10.0.0.0/33") as string, /prefix length must be 0 to 32/);
    assert.match(parseAllowEntry("http://x") as string, /not a host name/);
    assert.match(parseAllowEntry("bad host") as string, /not a host name/);
  });

  test("open a host by name, by suffix, or by the address it resolved to", () => {
    assert.ok(allowedByEntries(["localhost"], "LOCALHOST", "127.0.0.1"));
    assert.ok(allowedByEntries(["*.corp.example"], "wiki.corp.example", "10.0.0.5"));
    assert.ok(!allowedByEntries(["*.corp.example"], "corp.example.evil", "10.0.0.5"));
    assert.ok(allowedByEntries(["127.0.0.0/8"], "anything", "127.0.0.1"));
    assert.ok(allowedByEntries(["127.0.0.0/8"], "x", "::ffff:127.0.0.1"));
    assert.ok(allowedByEntries(["::1"], "x", "::1"));
    assert.ok(!allowedByEntries(["127.0.0.1"], "x", "127.0.0.2"));
    assert.ok(!allowedByEntries(["10.0.0.0/8"], "x", "169.254.169.254"));
    assert.ok(!allowedByEntries(["2002::/16"], "x", "127.0.0.1"));
    assert.ok(!allowedByEntries(["not valid/"], "x", "127.0.0.1"));
  });
});
