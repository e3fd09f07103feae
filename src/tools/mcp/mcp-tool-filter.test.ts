// Codex's enabled_tools / disabled_tools on an MCP server entry.

import { test } from "node:test";
import assert from "node:assert/strict";
import { toolAllowedByServer, unknownFilterNames } from "./mcp-tool-filter.ts";

test("enabled_tools keeps only those; disabled_tools removes; none keeps all", () => {
  assert.equal(toolAllowedByServer({}, "write"), true);
  assert.equal(toolAllowedByServer({ enabledTools: ["read"] }, "read"), true);
  assert.equal(toolAllowedByServer({ enabledTools: ["read"] }, "write"), false);
  assert.equal(toolAllowedByServer({ enabledTools: [] }, "read"), false);
  assert.equal(toolAllowedByServer({ disabledTools: ["write"] }, "write"), false);
  assert.equal(toolAllowedByServer({ enabledTools: ["a", "b"], disabledTools: ["b"] }, "b"), false);
});

test("a name the server does not have is named, with the key and the server's tools", () => {
  assert.deepEqual(
    unknownFilterNames("fs", { enabledTools: ["read"], disabledTools: ["wrte"] }, [
      "read",
      "write",
    ]),
    ["MCP server 'fs': disabled_tools names 'wrte', which it does not have; its tools: read, write"],
  );
});
