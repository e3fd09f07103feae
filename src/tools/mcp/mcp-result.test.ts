import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MCP_RESULT_MAX_CHARS, mcpResultText } from "./mcp-result.ts";
import { expandDefinition, expandVariables } from "./mcp-expand.ts";
import { mcpToolName } from "./mcp-tools.ts";

describe("mcpResultText", () => {
  test("text, resources and links", () => {
    const r = mcpResultText({
      content: [
        { type: "text", text: "a" },
        { type: "resource", resource: { uri: "file:///x", text: "inside" } },
        {
          type: "resource",
          resource: { uri: "file:///y", blob: "AAAA", mimeType: "application/zip" },
        },
        { type: "resource_link", uri: "file:///z", name: "z" },
        { type: "audio", mimeType: "audio/wav", data: "AAAA" },
      ],
    }, "s/t");
    assert.equal(
      r.output,
      "a\ninside\n[resource file:///y: application/zip, 3 bytes]\n[resource link: z file:///z]\n[audio: audio/wav, 3 bytes]",
    );
    assert.equal(r.ok, true);
  });
  test("structured content is not repeated when a text part carries it", () => {
    const r = mcpResultText({
      content: [{ type: "text", text: '{"a":1}' }],
      structuredContent: { a: 1 },
    }, "s/t");
    assert.equal(r.output, '{"a":1}');
  });
  test("empty results and long ones", () => {
    assert.equal(mcpResultText({ content: [] }, "s/t").output, "(no content)");
    const long = mcpResultText({
      content: [{ type: "text", text: "x".repeat(MCP_RESULT_MAX_CHARS + 5) }],
    }, "s/t");
    assert.match(long.output, /\[cut at 100000 of 100005 characters\]$/);
    assert.equal(
      long.full,
      "x".repeat(MCP_RESULT_MAX_CHARS + 5),
      "the whole text is kept for the artifacts",
    );
    assert.equal(mcpResultText({ content: [{ type: "text", text: "hi" }] }, "s/t").full, undefined);
  });
});

describe("expandVariables", () => {
  test("set, default and missing", () => {
    assert.deepEqual(expandVariables("${A}-${B:-b}-${C}", { A: "a" }), {
      text: "a-b-",
      missing: ["C"],
    });
  });
  test("a whole definition", () => {
    const r = expandDefinition({
      type: "http",
      url: "https://${HOST}/mcp",
      headers: { T: "${TOK}" },
    }, { HOST: "h", TOK: "t" });
    assert.deepEqual(r, {
      def: { type: "http", url: "https://h/mcp", headers: { T: "t" } },
      missing: [],
    });
  });
});

describe("MCP tool names", () => {
  test("names model APIs accept", () => {
    assert.equal(mcpToolName("fs", "read_file"), "mcp__fs__read_file");
    assert.equal(mcpToolName("my.server", "get data"), "mcp__my_server__get_data");
    const long = mcpToolName("server", "t".repeat(100));
    assert.equal(long.length, 64);
    assert.notEqual(long, mcpToolName("server", "t".repeat(99)));
  });
});
