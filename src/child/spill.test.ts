import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spillingTools } from "./spill.ts";
import type { ToolContext, ToolSpec } from "../tools/tool-spec.ts";

function tool(output: string, full?: string): Map<string, ToolSpec> {
  return new Map([["mcp__s/t", {
    name: "mcp__s/t",
    description: "",
    inputSchema: { type: "object" },
    readOnly: true,
    run: () => Promise.resolve({ ok: true, output, summary: "s", ...(full ? { full } : {}) }),
  }]]);
}
const ctx = () => ({ cwd: "/", signal: new AbortController().signal } as unknown as ToolContext);

describe("spillingTools", () => {
  test("a short result passes as it is and adds no read root", async () => {
    const c = ctx();
    const o = await tool("small").get("mcp__s/t")!.run({}, c);
    assert.equal(o.output, "small");
    assert.equal(c.readRoots, undefined);
  });
  test("a long result is cut, kept whole in a private folder that becomes a read root", async () => {
    const folder = join(await mkdtemp(join(tmpdir(), "spill-")), "run", "task.d");
    const c = ctx();
    const whole = "a".repeat(5000);
    const tools = spillingTools(tool(whole), () => Promise.resolve(1000), folder);
    const o = await tools.get("mcp__s/t")!.run({}, c);
    assert.ok(o.output.length < 1200);
    const path = /the whole result is in (\S+);/.exec(o.output)?.[1];
    assert.ok(path?.startsWith(c.readRoots![0] + "/"), `${path} in ${c.readRoots}`);
    assert.match(path!, /\/001-mcp__s_t\.txt$/);
    assert.equal(await readFile(path!, "utf8"), whole);
    assert.equal((await stat(path!)).mode & 0o777, 0o600);
    assert.equal((await stat(c.readRoots![0])).mode & 0o777, 0o700);
  });
  test("a result its tool cut is kept whole from `full`", async () => {
    const folder = join(await mkdtemp(join(tmpdir(), "spill-")), "t.d");
    const tools = spillingTools(tool("a…b", "aXXXXXb"), () => Promise.resolve(1000), folder);
    const o = await tools.get("mcp__s/t")!.run({}, ctx());
    const path = /the whole result is in (\S+);/.exec(o.output)?.[1];
    assert.equal(await readFile(path!, "utf8"), "aXXXXXb");
    assert.equal(o.full, undefined);
  });
  test("without a folder the result is cut and says it was not kept", async () => {
    const tools = spillingTools(tool("z".repeat(5000)), () => Promise.resolve(1000), undefined);
    const o = await tools.get("mcp__s/t")!.run({}, ctx());
    assert.match(o.output, /could not be kept \(this task has no artifacts folder\)/);
  });
  test("a folder that is a link (or open to others) is refused: nothing written, no read root", async () => {
    const base = await mkdtemp(join(tmpdir(), "spill-"));
    const target = join(base, "elsewhere");
    await mkdir(target);
    await symlink(target, join(base, "t.d"));
    const c = ctx();
    const tools = spillingTools(
      tool("q".repeat(5000)),
      () => Promise.resolve(1000),
      join(base, "t.d"),
    );
    const o = await tools.get("mcp__s/t")!.run({}, c);
    assert.match(o.output, /could not be kept \(.*t\.d is not a folder\)/);
    assert.deepEqual(await readdir(target), []);
    assert.equal(c.readRoots, undefined);
    const open = join(base, "open.d");
    await mkdir(open, { mode: 0o755 });
    const o2 = await spillingTools(tool("q".repeat(5000)), () => Promise.resolve(1000), open)
      .get("mcp__s/t")!.run({}, c);
    assert.match(o2.output, /open to other users/);
    assert.deepEqual(await readdir(open), []);
  });
});
