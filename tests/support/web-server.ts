/**
 * A local web server on 127.0.0.1 (random port) serving one page per
 * `web_fetch` case, for unit and end-to-end tests:
 *
 * - `/page` HTML in UTF-8 with a title, headings, links, a list, code, a
 *   script and a style (whose content must never show);
 * - `/latin1` HTML in windows-1252 declared only by `<meta charset>`;
 * - `/koi8` plain text in KOI8-R declared by the Content-Type header;
 * - `/json` JSON; `/png` a PNG image; `/octet` bytes with no content type;
 * - `/redirect/N` redirects N times, then lands on `/page`;
 * - `/loop-a` ↔ `/loop-b` redirect to each other; `/to-file` redirects to `file:`;
 * - `/huge` streams an endless body (2 GB announced) and counts what it sent;
 * - `/stall` sends headers, then nothing; `/stall-headers` never answers at all;
 * - `/missing` answers 404;
 * - `/redirect-to?to=URL` redirects to any URL; `/host` answers the `Host`
 *   header it received; `/gzip` sends a gzip-compressed text page.
 *
 * `requests` lists the path and query of every request it received,
 * `connections()` counts the connections it accepted.
 * - `/brave/web/search` and `/tavily/search` answer like Brave Search and
 *   Tavily (recording each request), for `web_search`.
 *
 * Only `node:` built-ins are used so it runs under Bun and Deno alike.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { gzipSync } from "node:zlib";

export interface WebServer {
  url: string;
  /** Bytes `/huge` has written so far. */
  hugeSent(): number;
  /** Every request received: path and query. */
  requests: string[];
  /** Connections accepted so far. */
  connections(): number;
  /** Search requests seen: path, headers (lower-cased), query and body. */
  searches: { path: string; headers: Record<string, string>; query: string; body: string }[];
  close(): Promise<void>;
}

export const PAGE_HTML = `<!doctype html>
<html><head><title>Fetch &amp; Test</title>
<style>body { color: red } .secret-style {}</style>
<script>var secretScript = "do not show";</script>
</head><body>
<h1>Main heading</h1>
<p>First paragraph with a <a href="/other">relative link</a> and &eacute;l&egrave;ve &#8211; &#x263A;.</p>
<ul><li>one</li><li>two<ol><li>nested</li></ol></li></ul>
<pre><code>let x = 1;
  indented();</code></pre>
<p>Inline <code>code()</code> here.</p>
<noscript>noscript text</noscript>
</body></html>`;

/** "café – naïve" in windows-1252 bytes, inside HTML declaring it by meta tag. */
export function latin1Page(): Buffer {
  const head = Buffer.from(
    '<html><head><meta charset="windows-1252"><title>L</title></head><body><p>',
    "latin1",
  );
  const body = Buffer.from([
    0x63,
    0x61,
    0x66,
    0xe9,
    0x20,
    0x96,
    0x20,
    0x6e,
    0x61,
    0xef,
    0x76,
    0x65,
  ]);
  return Buffer.concat([head, body, Buffer.from("</p></body></html>", "latin1")]);
}

/** "Привет" in KOI8-R. */
export const KOI8_BYTES = Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]);

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

export async function startWebServer(): Promise<WebServer> {
  let huge = 0;
  const searches: WebServer["searches"] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const u = new URL(req.url ?? "/", "http://x");
    const path = u.pathname;
    requests.push(`${path}${u.search}`);
    const redirect = (to: string) => {
      res.writeHead(302, { location: to });
      res.end();
    };
    const m = /^\/redirect\/(\d+)$/.exec(path);
    if (m) {
      const n = Number(m[1]);
      return redirect(n <= 1 ? "/page" : `/redirect/${n - 1}`);
    }
    switch (path) {
      case "/page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(PAGE_HTML);
      case "/latin1":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(latin1Page());
      case "/koi8":
        res.writeHead(200, { "content-type": "text/plain; charset=koi8-r" });
        return res.end(KOI8_BYTES);
      case "/json":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"answer":42}');
      case "/png":
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(PNG);
      case "/octet":
        res.writeHead(200);
        return res.end(Buffer.from([0, 1, 2, 3, 0, 255, 254]));
      case "/loop-a":
        return redirect("/loop-b");
      case "/loop-b":
        return redirect("/loop-a");
      case "/redirect-to":
        return redirect(u.searchParams.get("to") ?? "/page");
      case "/gzip":
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        return res.end(gzipSync(Buffer.from("compressed text, unpacked")));
      case "/host":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end(`host=${req.headers.host}`);
      case "/to-file":
        return redirect("file:///etc/passwd");
      case "/missing":
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not here");
      case "/huge": {
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(2 ** 31) });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && huge < 2 ** 31) {
            huge += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
        };
        res.on("close", () => {});
        return pump();
      }
      case "/stall":
        res.writeHead(200, { "content-type": "text/html" });
        res.write("<p>start");
        return; // never ends
      case "/stall-headers":
        return; // never answers
      case "/brave/web/search": {
        searches.push({ path, headers: lower(req), query: u.search.slice(1), body });
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({
          type: "search",
          web: {
            results: [
              {
                title: "First <strong>hit</strong>",
                url: "https://one.test/",
                description: "About one",
              },
              { title: "Second", url: "https://two.test/", description: "About two" },
            ],
          },
        }));
      }
      case "/tavily/search": {
        searches.push({ path, headers: lower(req), query: u.search.slice(1), body });
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({
          query: "q",
          answer: "Forty-two.",
          results: [{
            title: "T1",
            url: "https://t1.test/",
            content: "Tavily content",
            score: 0.9,
          }],
        }));
      }
      case "/brave-bad/web/search":
        res.writeHead(401, { "content-type": "application/json" });
        return res.end('{"error":"invalid token"}');
      default:
        res.writeHead(404);
        return res.end();
    }
  };
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => handle(req, res, body));
  });
  let connections = 0;
  server.on("connection", (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hugeSent: () => huge,
    requests,
    connections: () => connections,
    searches,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

function lower(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v ?? "");
  }
  return out;
}
