import { after, before, describe, test } from "node:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { callTool } from "../registry.ts";
import { WEB_FETCH_MAX_BYTES, webFetchTool } from "./web-fetch.ts";
import { chooseAddress, pinnedGet } from "./pinned-get.ts";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { startWebServer, type WebServer } from "../../../tests/support/web-server.ts";

let web: WebServer;
const box = sandbox();
box.ctx.env.XCSH_WEB_FETCH_TIMEOUT_MS = "1500";
// The test server listens on loopback, which only the user's allow list opens.
box.ctx.fetchAllow = ["127.0.0.1"];

before(async () => {
  web = await startWebServer();
});
after(async () => {
  await web.close();
  box.remove();
});

const fetchUrl = (url: string, start?: number) =>
  callTool(webFetchTool, start === undefined ? { url } : { url, start }, box.ctx);

describe("web_fetch", () => {
  test("HTML becomes Markdown without script or style content", async () => {
    const r = await fetchUrl(`${web.url}/page`);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /^# Main heading$/m);
    assert.match(r.output, new RegExp(`\\[relative link\\]\\(${web.url}/other\\)`));
    assert.match(r.output, /élève – ☺/);
    assert.match(r.output, /^- one$/m);
    assert.match(r.output, /^ {2}1\. nested$/m);
    assert.match(r.output, /```\nlet x = 1;\n {2}indented\(\);\n```/);
    assert.match(r.output, /Inline `code\(\)` here/);
    for (const hidden of ["secretScript", "secret-style", "color: red", "noscript text"]) {
      assert.ok(!r.output.includes(hidden), `${hidden} leaked: ${r.output}`);
    }
    assert.match(r.summary, /\/page: \d+ chars/);
  });

  test("charset from <meta charset> and from the Content-Type header", async () => {
    const latin = await fetchUrl(`${web.url}/latin1`);
    assert.equal(latin.ok, true, latin.output);
    assert.match(latin.output, /café – naïve/);
    const koi = await fetchUrl(`${web.url}/koi8`);
    assert.match(koi.output, /Привет/);
  });

  test("a gzip-compressed body is unpacked", async () => {
    const r = await fetchUrl(`${web.url}/gzip`);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /compressed text, unpacked/);
  });

  test("JSON comes back as it is", async () => {
    const r = await fetchUrl(`${web.url}/json`);
    assert.equal(r.ok, true);
    assert.match(r.output, /\{"answer":42\}/);
  });

  test("redirects are followed and reported", async () => {
    const r = await fetchUrl(`${web.url}/redirect/3`);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /redirected to .*\/page/);
    assert.match(r.output, /Main heading/);
  });

  const failures: { name: string; path: string; message: RegExp }[] = [
    { name: "a redirect loop", path: "/loop-a", message: /loop-a: redirect loop \(.*loop-b.*\)/ },
    { name: "too many redirects", path: "/redirect/9", message: /more than 5 redirects/ },
    {
      name: "a redirect off http(s)",
      path: "/to-file",
      message: /to-file redirects to file:\/\/\/etc\/passwd: only http and https/,
    },
    { name: "binary content", path: "/png", message: /\/png: binary content \(image\/png\)/ },
    { name: "bytes with no type", path: "/octet", message: /\/octet: binary content/ },
    { name: "HTTP 404", path: "/missing", message: /\/missing: HTTP 404/ },
    {
      name: "a stalled body",
      path: "/stall",
      message: /\/stall: no complete answer within 1\.5 s/,
    },
    {
      name: "a server that never answers",
      path: "/stall-headers",
      message: /\/stall-headers: no complete answer within 1\.5 s/,
    },
  ];
  for (const f of failures) {
    test(`${f.name} is a tool error naming the URL`, async () => {
      const r = await fetchUrl(`${web.url}${f.path}`);
      assert.equal(r.ok, false, r.output);
      assert.match(r.output, f.message);
    });
  }

  for (const url of ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "nope"]) {
    test(`${url} is refused without a request`, async () => {
      const r = await fetchUrl(url);
      assert.equal(r.ok, false);
      assert.ok(r.output.includes(url), r.output);
    });
  }

  test("a 2 GB body is read only up to the cap", async () => {
    const r = await fetchUrl(`${web.url}/huge`);
    assert.equal(r.ok, true, r.output.slice(0, 200));
    assert.match(r.output, /only the first 5 MiB were read/);
    assert.match(r.output, /more characters: call web_fetch with start 40000/);
    // The server stops once the client goes: far less than 2 GB was produced.
    await new Promise((res) => setTimeout(res, 100));
    assert.ok(web.hugeSent() < 100 * WEB_FETCH_MAX_BYTES, `sent ${web.hugeSent()}`);
    const next = await fetchUrl(`${web.url}/huge`, 40_000);
    assert.match(next.summary, /showing 40000-80000/);
  });
});

describe("web_fetch reaches only public addresses", () => {
  const closed = sandbox();
  closed.ctx.env.XCSH_WEB_FETCH_TIMEOUT_MS = "1500";
  after(() => closed.remove());
  const port = () => new URL(web.url).port;

  /** Fetches `url` with no allow list; the server must see no connection at all. */
  async function refused(url: string, message: RegExp) {
    const before = web.connections();
    const r = await callTool(webFetchTool, { url }, closed.ctx);
    assert.equal(r.ok, false, r.output);
    assert.match(r.output, message);
    assert.match(r.output, /task\.webFetchAllow/);
    assert.equal(web.connections(), before, "the listener got a connection");
  }

  for (
    const [form, host] of [
      ["dotted", "127.0.0.1"],
      ["a name resolving to loopback", "localhost"],
      ["a decimal number", "2130706433"],
      ["hex with a short form", "0x7f.1"],
      ["octal", "0177.0.0.01"],
      ["IPv4-mapped IPv6", "[::ffff:127.0.0.1]"],
    ]
  ) {
    test(`loopback written as ${form} (${host}) is refused before connecting`, async () => {
      await refused(`http://${host}:${port()}/page`, /loopback address/);
    });
  }

  for (
    const [what, url, message] of [
      ["cloud metadata", "http://169.254.169.254/latest/meta-data/", /link-local/],
      ["a private range", "http://10.0.0.1/", /private address/],
      ["IPv6 loopback", "http://[::1]/", /loopback/],
      ["NAT64 of metadata", "http://[64:ff9b::a9fe:a9fe]/", /link-local/],
      ["the unspecified address", "http://0.0.0.0/", /this network/],
    ] as const
  ) {
    test(`${what} is refused without a request`, async () => {
      const r = await callTool(webFetchTool, { url }, closed.ctx);
      assert.equal(r.ok, false, r.output);
      assert.match(r.output, message);
    });
  }

  test("a redirect to an internal address is refused at that hop", async () => {
    // The first hop is opened by the allow list; the hop it points to is checked on its own.
    const ctx = { ...closed.ctx, fetchAllow: ["127.0.0.1"] };
    for (
      const [to, message] of [
        [`http://[::1]:${port()}/json`, /\[::1\].*loopback/],
        ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254.*link-local/],
      ] as const
    ) {
      const start = web.requests.length;
      const from = `/redirect-to?to=${encodeURIComponent(to)}`;
      const r = await callTool(webFetchTool, { url: `${web.url}${from}` }, ctx);
      assert.equal(r.ok, false, r.output);
      assert.match(r.output, message);
      assert.deepEqual(web.requests.slice(start), [from], "only the first hop was requested");
    }
    // 0x7f000001 is 127.0.0.1 again, which the allow list opens.
    const start = web.requests.length;
    const from = `/redirect-to?to=${encodeURIComponent(`http://0x7f000001:${port()}/json`)}`;
    const r = await callTool(webFetchTool, { url: `${web.url}${from}` }, ctx);
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(web.requests.slice(start), [from, "/json"]);
  });

  test("the user's allow list opens a host by name or a range", async () => {
    for (const allow of [["localhost"], ["127.0.0.0/8", "::1"]]) {
      const r = await callTool(
        webFetchTool,
        { url: `http://localhost:${port()}/json` },
        { ...closed.ctx, fetchAllow: allow },
      );
      assert.equal(r.ok, true, `${allow}: ${r.output}`);
      assert.match(r.output, /"answer":42/);
    }
  });

  test("the connection goes to the checked address, not to a second lookup", async () => {
    // .invalid never resolves: only the pinned address can make this work.
    const url = new URL(`http://pinned.invalid:${port()}/host`);
    const res = await pinnedGet(
      url,
      { addresses: [{ address: "127.0.0.1", family: 4 }] },
      {},
      closed.ctx.signal,
    );
    let text = "";
    for await (const c of res.body) text += new TextDecoder().decode(c as Uint8Array);
    assert.equal(res.status, 200);
    assert.equal(text, `host=pinned.invalid:${port()}`);
  });

  test("only the checked addresses are offered, and each is tried in turn", async () => {
    const url = new URL(`http://both.invalid:${port()}/host`);
    const mixed = chooseAddress(url, ["169.254.169.254", "::1", "127.0.0.1", "10.0.0.1"], [
      "::1",
      "127.0.0.1",
    ]);
    assert.deepEqual(mixed, {
      ok: true,
      addresses: [{ address: "::1", family: 6 }, { address: "127.0.0.1", family: 4 }],
    });
    // Nothing listens on [::1] at this port: the client goes on to 127.0.0.1.
    assert.ok(mixed.ok);
    const res = await pinnedGet(url, mixed, {}, closed.ctx.signal);
    assert.equal(res.status, 200);
    res.body.destroy();
    const none = chooseAddress(url, ["10.0.0.1", "::1"], []);
    assert.ok(
      !none.ok && /both\.invalid resolves to 10\.0\.0\.1, which is a private/.test(none.error),
    );
  });

  test("https to the checked address still verifies the host's certificate", {
    skip: existsSync("/usr/bin/openssl") ? false : "needs /usr/bin/openssl to make a certificate",
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-tls-"));
    try {
      execFileSync("/usr/bin/openssl", [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-subj",
        "/CN=pinned.test",
        "-addext",
        "subjectAltName=DNS:pinned.test",
      ], { stdio: "ignore" });
      const server = createServer({
        key: readFileSync(join(dir, "key.pem")),
        cert: readFileSync(join(dir, "cert.pem")),
      }, (_req, res) => res.end("secret"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const { port } = server.address() as { port: number };
      try {
        const url = new URL(`https://pinned.test:${port}/`);
        await assert.rejects(
          pinnedGet(
            url,
            { addresses: [{ address: "127.0.0.1", family: 4 }] },
            {},
            closed.ctx.signal,
          ),
          /self[- ]signed certificate/,
        );
      } finally {
        server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
