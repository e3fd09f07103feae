import { test } from "node:test";
import assert from "node:assert/strict";
import { loadBuiltinTool } from "./tool-loaders.ts";
import { TOOLS } from "./registry.ts";

test("each loader gives the registry's own spec, and nothing else is loaded", async () => {
  for (const [name, spec] of Object.entries(TOOLS)) {
    assert.equal(await loadBuiltinTool(name), spec, name);
  }
  for (const other of ["submit_result", "web_search", "mcp__fs__read", "toString", "__proto__"]) {
    assert.equal(await loadBuiltinTool(other), undefined, other);
  }
});
