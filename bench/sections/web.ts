/**
 * web_fetch: the HTML converter on a 5 MiB page (the most `web_fetch` reads),
 * and a whole `web_fetch` call of that page from a local server against a
 * plain `fetch` of the same bytes.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import { htmlToMarkdown } from "../../src/tools/web/html-to-markdown.ts";
import { unavailableTaskRunner } from "../../src/tools/task.ts";
import { webFetchTool } from "../../src/tools/web/web-fetch.ts";
import { details, limitRow, median, row } from "../report.ts";

const UNIT = '<div class="post"><h2>Title &amp; more</h2><p>Some text with a ' +
  '<a href="/a/b?c=d">link</a>, <code>code()</code> and &eacute; entities.</p>' +
  "<ul><li>one</li><li>two</li></ul><script>var x = '<p>hidden</p>';</script></div>\n";

export async function benchWeb(): Promise<void> {
  const html = UNIT.repeat(Math.ceil((5 * 1024 * 1024) / UNIT.length));
  const convert: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    htmlToMarkdown(html, "https://bench.test/");
    convert.push(performance.now() - t);
  }
  limitRow("web", "HTML → Markdown, 5 MiB page", median(convert), 1000, "ms");

  const body = Buffer.from(html);
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const ctx = {
    cwd: "/",
    signal: new AbortController().signal,
    env: {},
    // The page server is on loopback, which only the user's allow list opens.
    fetchAllow: ["127.0.0.1"],
    findings: [],
    runTask: unavailableTaskRunner,
  };
  const tool: number[] = [];
  const plain: number[] = [];
  try {
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      await (await fetch(url)).arrayBuffer();
      plain.push(performance.now() - t);
      t = performance.now();
      await webFetchTool.run({ url }, ctx);
      tool.push(performance.now() - t);
    }
  } finally {
    server.close();
  }
  row("web", "web_fetch of that page vs a plain fetch", median(tool), median(plain), "ms", null);
  details.web = { convertMs: convert, webFetchMs: tool, plainFetchMs: plain };
}
