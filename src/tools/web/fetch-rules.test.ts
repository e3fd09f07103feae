import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  bytesLookBinary,
  checkFetchURL,
  contentKind,
  decodeBody,
  detectCharset,
  failureReason,
  MAX_REDIRECTS,
  nextRedirect,
} from "./fetch-rules.ts";

const enc = (s: string) => new TextEncoder().encode(s);

describe("checkFetchURL", () => {
  test("http and https pass, fragment dropped", () => {
    const r = checkFetchURL(" https://a.test/x#frag ");
    assert.ok(r.ok && r.url.href === "https://a.test/x");
  });
  for (
    const [url, why] of [
      ["file:///etc/passwd", /only http and https URLs can be fetched \(not file:\)/],
      ["ftp://a.test/", /not ftp:/],
      ["data:text/plain,hi", /not data:/],
      ["/relative", /not a valid URL/],
      ["https://user:pw@a.test/", /user name or password/],
    ] as const
  ) {
    test(url, () => {
      const r = checkFetchURL(url);
      assert.ok(!r.ok);
      assert.match(r.error, why);
    });
  }
});

describe("nextRedirect", () => {
  const from = new URL("https://a.test/one");
  test("a relative Location resolves", () => {
    const r = nextRedirect(from, "/two", [from.href]);
    assert.ok(r.ok && r.url.href === "https://a.test/two");
  });
  test("no Location", () =>
    assert.match((nextRedirect(from, null, []) as { error: string }).error, /without a Location/));
  test("a loop names the chain", () => {
    const r = nextRedirect(new URL("https://a.test/b"), "/one", [from.href, "https://a.test/b"]);
    assert.ok(!r.ok);
    assert.match(
      r.error,
      /redirect loop \(https:\/\/a.test\/one → https:\/\/a.test\/b → https:\/\/a.test\/one\)/,
    );
  });
  test(`more than ${MAX_REDIRECTS}`, () => {
    const visited = Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => `https://a.test/${i}`);
    assert.match(
      (nextRedirect(from, "/next", visited) as { error: string }).error,
      /more than 5 redirects/,
    );
  });
  test("off http(s)", () => {
    assert.match(
      (nextRedirect(from, "ftp://x/", [from.href]) as { error: string }).error,
      /redirects to ftp:\/\/x\/: only http/,
    );
  });
});

describe("content", () => {
  const kinds: [string | null, string][] = [
    ["text/html; charset=utf-8", "html"],
    ["application/xhtml+xml", "html"],
    ["text/plain", "text"],
    ["application/json", "text"],
    ["application/ld+json", "text"],
    ["image/svg+xml", "text"],
    ["image/png", "binary"],
    ["application/pdf", "binary"],
    ["application/octet-stream", "binary"],
    [null, "unknown"],
  ];
  for (const [type, kind] of kinds) {
    test(`${type} → ${kind}`, () => assert.equal(contentKind(type), kind));
  }
  test("bytesLookBinary", () => {
    assert.equal(bytesLookBinary(new Uint8Array([104, 0, 105])), true);
    assert.equal(bytesLookBinary(enc("plain text\n")), false);
  });
});

describe("detectCharset", () => {
  test("header first", () =>
    assert.deepEqual(
      detectCharset("text/html; charset=ISO-8859-2", enc('<meta charset="utf-8">'), true),
      { label: "iso-8859-2", from: "header" },
    ));
  test("meta charset", () =>
    assert.deepEqual(detectCharset("text/html", enc('<html><meta charset="windows-1251">'), true), {
      label: "windows-1251",
      from: "meta",
    }));
  test("meta http-equiv", () =>
    assert.deepEqual(
      detectCharset(
        null,
        enc('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">'),
        true,
      ),
      { label: "shift_jis", from: "meta" },
    ));
  test("meta is not read for plain text", () =>
    assert.equal(
      detectCharset("text/plain", enc('<meta charset="koi8-r">'), false).label,
      "utf-8",
    ));
  test("BOM", () =>
    assert.deepEqual(
      detectCharset("text/plain; charset=latin1", new Uint8Array([0xef, 0xbb, 0xbf, 65]), false),
      { label: "utf-8", from: "bom" },
    ));
  test("default", () =>
    assert.deepEqual(detectCharset(null, enc("hi"), true), { label: "utf-8", from: "default" }));
});

describe("decodeBody", () => {
  test("a known label", () =>
    assert.equal(
      decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "windows-1252").text,
      "café",
    ));
  test("an unknown label falls back to UTF-8 and says so", () => {
    const r = decodeBody(enc("é"), "x-made-up");
    assert.equal(r.text, "é");
    assert.match(r.note ?? "", /unknown charset "x-made-up"/);
  });
});

test("failureReason names the system's code once, the cause's first", () => {
  const refused = Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" });
  assert.equal(failureReason(refused), "connect failed (ECONNREFUSED)");
  const wrapped = new TypeError("fetch failed", { cause: { code: "ENOTFOUND" } });
  assert.equal(failureReason(wrapped), "fetch failed (ENOTFOUND)");
  const said = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  assert.equal(failureReason(said), "read ECONNRESET");
  assert.equal(failureReason(new SyntaxError("Unexpected token")), "Unexpected token");
  assert.equal(failureReason("gone"), "gone");
});
