// The sandbox's network proxy on a real Unix socket, against servers on
// 127.0.0.1 only: tunnels and plain-HTTP requests to hosts the reach allows,
// refusals (with their reason, kept for the command's output) for the others.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type NetProxy, parseHead, planForward, startNetProxy } from "./net-proxy.ts";

describe("planForward", () => {
  test("CONNECT host:port is a tunnel; [v6]:port too", () => {
    assert.deepEqual(planForward(parseHead("CONNECT example.org:443 HTTP/1.1\r\nHost: x")!), {
      ok: true,
      host: "example.org",
      port: 443,
      tunnel: true,
    });
    const v6 = planForward(parseHead("CONNECT [::1]:8080 HTTP/1.1")!);
    assert.deepEqual(v6, { ok: true, host: "::1", port: 8080, tunnel: true });
    assert.ok(!planForward(parseHead("CONNECT example.org HTTP/1.1")!).ok);
    assert.ok(!planForward(parseHead("CONNECT a:99999 HTTP/1.1")!).ok);
  });
  test("an absolute http URL goes on in origin form, with its own Host, without proxy or hop headers", () => {
    const head = parseHead(
      "POST http://example.org:8080/a?b=1 HTTP/1.1\r\nHost: other.example\r\n" +
        "Proxy-Authorization: Basic eA==\r\nProxy-Connection: keep-alive\r\n" +
        "Connection: keep-alive\r\nContent-Length: 2",
    )!;
    const f = planForward(head);
    assert.ok(f.ok && !f.tunnel);
    assert.equal(f.host, "example.org");
    assert.equal(f.port, 8080);
    assert.equal(
      f.head,
      "POST /a?b=1 HTTP/1.1\r\nHost: example.org:8080\r\nContent-Length: 2\r\n" +
        "Connection: close\r\n\r\n",
    );
  });
  test("origin form, https:// and credentials are refused with the reason", () => {
    const origin = planForward(parseHead("GET /x HTTP/1.1")!);
    assert.ok(!origin.ok);
    assert.match(origin.error, /CONNECT or an absolute http:\/\/ URL/);
    const https = planForward(parseHead("GET https://a/ HTTP/1.1")!);
    assert.ok(!https.ok);
    assert.match(https.error, /https goes through CONNECT/);
    assert.ok(!planForward(parseHead("GET http://u:p@a/ HTTP/1.1")!).ok);
    assert.equal(parseHead("hello"), undefined);
  });
});

/** Sends `request` to the proxy at `socket` and returns everything it answers. */
function ask(socket: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socket);
    let out = "";
    c.on("data", (d) => {
      out += d.toString();
      // A tunnel stays open: end it once the far side has answered.
      if (/^HTTP\/1\.1 200 Connection Established\r\n\r\n.+/s.test(out)) c.end();
    });
    c.on("end", () => resolve(out));
    c.on("close", () => resolve(out));
    c.on("error", reject);
    c.write(request);
  });
}

describe("the proxy", () => {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-proxy-test-"));
  const web = http.createServer((req, res) =>
    res.end(`HELLO ${req.method} ${req.url} ${req.headers.host} ${req.headers.connection}\n`)
  );
  const echo = net.createServer((s) => s.end("ECHO\n"));
  let webPort = 0;
  let echoPort = 0;
  let open: NetProxy;
  let closed: NetProxy;
  before(async () => {
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    webPort = (web.address() as net.AddressInfo).port;
    echoPort = (echo.address() as net.AddressInfo).port;
    open = await startNetProxy(join(dir, "open.sock"), { allow: [["127.0.0.1", "localhost"]] });
    closed = await startNetProxy(join(dir, "closed.sock"), {});
  });
  after(() => {
    open.close();
    closed.close();
    web.close();
    echo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a tunnel to an allowed host carries the bytes both ways", async () => {
    const out = await ask(open.socket, `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\n\r\n`);
    assert.equal(out, "HTTP/1.1 200 Connection Established\r\n\r\nECHO\n");
    assert.deepEqual(open.takeRefusals(), []);
  });

  test("a plain-HTTP request to an allowed host is forwarded, Host kept, one request", async () => {
    const out = await ask(
      open.socket,
      `GET http://localhost:${webPort}/p?q=1 HTTP/1.1\r\nHost: localhost:${webPort}\r\n` +
        "Proxy-Connection: keep-alive\r\n\r\n",
    );
    assert.match(out, /^HTTP\/1\.1 200 OK/);
    assert.match(out, new RegExp(`HELLO GET /p\\?q=1 localhost:${webPort} close\\n$`));
  });

  test("the loopback without a list naming it: 403 with the reason, kept for the output", async () => {
    const out = await ask(closed.socket, `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\n\r\n`);
    assert.match(out, /^HTTP\/1\.1 403 Forbidden\r\n/);
    assert.match(out, /127\.0\.0\.1 is a loopback address/);
    assert.doesNotMatch(out, /ECHO/);
    const plain = await ask(closed.socket, `GET http://localhost:${webPort}/ HTTP/1.1\r\n\r\n`);
    assert.match(plain, /^HTTP\/1\.1 403 Forbidden\r\n/);
    assert.doesNotMatch(plain, /HELLO/);
    const refusals = closed.takeRefusals();
    assert.equal(refusals.length, 2);
    assert.match(refusals[0], new RegExp(`^network: 127\\.0\\.0\\.1:${echoPort} refused: `));
    assert.match(
      refusals[1],
      /^network: localhost:\d+ refused: localhost resolves to 127\.0\.0\.1/,
    );
    assert.deepEqual(closed.takeRefusals(), [], "taken once");
  });

  test("a host off the list, and the odd spellings of the loopback, are refused", async () => {
    const other = await ask(open.socket, `CONNECT 127.0.0.2:${echoPort} HTTP/1.1\r\n\r\n`);
    assert.match(other, /^HTTP\/1\.1 403 /);
    assert.match(other, /127\.0\.0\.2 is not on the allow list/);
    for (const host of ["2130706433", "0x7f.1", "[::ffff:127.0.0.1]"]) {
      const out = await ask(closed.socket, `CONNECT ${host}:${echoPort} HTTP/1.1\r\n\r\n`);
      assert.match(out, /^HTTP\/1\.1 403 /, `${host}: ${out}`);
      assert.doesNotMatch(out, /ECHO/, host);
    }
    open.takeRefusals();
    closed.takeRefusals();
  });

  test("a request that is no HTTP is answered 400", async () => {
    const out = await ask(open.socket, "hello there\r\n\r\n");
    assert.match(out, /^HTTP\/1\.1 400 Bad Request/);
  });
});
