import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { callTool } from "../registry.ts";
import { parseSearchAnswer, webSearchTool } from "./web-search.ts";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { startWebServer, type WebServer } from "../../../tests/support/web-server.ts";

let web: WebServer;
const box = sandbox();
before(async () => {
  web = await startWebServer();
});
after(async () => {
  await web.close();
  box.remove();
});

describe("web_search", () => {
  test("Brave: GET with the key header, results numbered", async () => {
    const tool = webSearchTool(
      { provider: "brave", apiKeyEnv: "K", baseURL: `${web.url}/brave` },
      "brave-key",
    );
    const r = await callTool(tool, { query: "xcsh agents", max_results: 5 }, box.ctx);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /1\. \[First hit\]\(https:\/\/one\.test\/\)\n {3}About one/);
    assert.match(r.output, /2\. \[Second\]\(https:\/\/two\.test\/\)/);
    assert.equal(r.summary, '2 results for "xcsh agents"');
    const req = web.searches.at(-1)!;
    assert.equal(req.headers["x-subscription-token"], "brave-key");
    assert.equal(new URLSearchParams(req.query).get("q"), "xcsh agents");
    assert.equal(new URLSearchParams(req.query).get("count"), "5");
  });
  test("Tavily: POST JSON with a bearer key; the answer comes first", async () => {
    const tool = webSearchTool(
      { provider: "tavily", apiKeyEnv: "K", baseURL: `${web.url}/tavily` },
      "tv-key",
    );
    const r = await callTool(tool, { query: "q" }, box.ctx);
    assert.equal(r.ok, true, r.output);
    assert.match(
      r.output,
      /^Answer: Forty-two\.\n\nResults for "q":\n1\. \[T1\]\(https:\/\/t1\.test\/\)\n {3}Tavily content$/,
    );
    const req = web.searches.at(-1)!;
    assert.equal(req.headers.authorization, "Bearer tv-key");
    assert.deepEqual(JSON.parse(req.body), { query: "q", max_results: 8 });
  });
  test("an HTTP error names the provider and the key variable", async () => {
    const tool = webSearchTool({
      provider: "brave",
      apiKeyEnv: "BRAVE_API_KEY",
      baseURL: `${web.url}/brave-bad`,
    }, "x");
    const r = await callTool(tool, { query: "q" }, box.ctx);
    assert.equal(r.ok, false);
    assert.match(
      r.output,
      /Brave Search \(http:\/\/127\.0\.0\.1:\d+\): HTTP 401: .*invalid token.*check BRAVE_API_KEY/,
    );
  });
  test("an unreachable provider is a tool error", async () => {
    const tool = webSearchTool({
      provider: "tavily",
      apiKeyEnv: "K",
      baseURL: "http://127.0.0.1:9",
    }, "x");
    const r = await callTool(tool, { query: "q" }, box.ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /^Error: Tavily \(http:\/\/127\.0\.0\.1:9\): /);
  });
  test("an empty query is refused", async () => {
    const tool = webSearchTool({ provider: "brave", apiKeyEnv: "K", baseURL: web.url }, "x");
    assert.equal((await callTool(tool, { query: "" }, box.ctx)).ok, false);
  });
  test("answers without a result list", () => {
    assert.deepEqual(parseSearchAnswer("brave", {}), { ok: true, hits: [] });
    assert.equal(parseSearchAnswer("tavily", { results: "x" }).ok, false);
    assert.deepEqual(parseSearchAnswer("tavily", { results: [{ title: "no url" }] }), {
      ok: true,
      hits: [],
    });
  });
});
