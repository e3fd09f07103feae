// `bash` inside a bubblewrap sandbox, with real bwrap: what a command may
// write in each mode, its private /tmp, no network when asked, and that
// nothing it started outlives it. Skipped, saying why, where bwrap cannot
// create a sandbox.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { sandboxSupport } from "../sandbox/probe.ts";
import { bashTool } from "./bash.ts";
import type { CommandSandbox, ToolContext } from "./types.ts";

const support = sandboxSupport(process.env.PATH, true);
const skip = support.ok ? false : `bwrap unavailable: ${support.reason}`;

function cmdlines(marker: string): string[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });
}

describe("bash in a bubblewrap sandbox", { skip, timeout: 60_000 }, () => {
  const sb = sandbox({ "f.txt": "inside\n" });
  const outside = mkdtempSync(join(tmpdir(), "xcsh-outside-"));
  const tmp = mkdtempSync(join(tmpdir(), "xcsh-private-tmp-"));
  after(() => {
    sb.remove();
    rmSync(outside, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });
  const ctxFor = (mode: CommandSandbox["mode"], network = true): ToolContext => ({
    ...sb.ctx,
    roots: [sb.dir],
    sandbox: { mode, network, bwrap: support.ok ? support.bwrap : "", tmp },
  });

  test("workspace-write: the project and /tmp are writable, the rest is not", async () => {
    const r = await bashTool.run({
      command: `touch made.txt && echo in-ok; touch ${outside}/x 2>&1; ` +
        `echo t > /tmp/t.txt && echo tmp-ok; echo $TMPDIR`,
    }, ctxFor("workspace-write"));
    assert.match(r.output, /in-ok/);
    // Read-only, or not there at all when it lives below the host's /tmp.
    assert.match(r.output, /cannot touch .*(Read-only file system|No such file or directory)/);
    assert.match(r.output, /tmp-ok\n\/tmp\n/);
    assert.equal(existsSync(join(sb.dir, "made.txt")), true);
    assert.equal(existsSync(join(outside, "x")), false);
    assert.equal(readFileSync(join(tmp, "t.txt"), "utf8"), "t\n", "/tmp is the private folder");
  });

  test("read-only: the project cannot be written, but read", async () => {
    const r = await bashTool.run(
      { command: "cat f.txt; touch ro.txt" },
      ctxFor("read-only"),
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /^inside\n.*Read-only file system/s);
    assert.equal(existsSync(join(sb.dir, "ro.txt")), false);
  });

  test("a double fork ends with the command (its PID namespace ends)", async () => {
    const r = await bashTool.run(
      { command: "(setsid sleep 45.625 >/dev/null 2>&1 &); echo started" },
      ctxFor("workspace-write"),
    );
    assert.match(r.output, /started/);
    const until = Date.now() + 5000;
    while (cmdlines("45.625").length > 0 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const left = cmdlines("45.625");
    for (const p of left) process.kill(Number(p), "SIGKILL");
    assert.deepEqual(left, []);
  });

  test("network off: a local server cannot be reached; on: it can", async () => {
    const server = createServer((s) => s.end("hello\n"));
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    const port = (server.address() as { port: number }).port;
    try {
      const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED || echo REFUSED`;
      const on = await bashTool.run({ command }, ctxFor("workspace-write", true));
      assert.match(on.output, /CONNECTED/);
      const off = await bashTool.run({ command }, ctxFor("workspace-write", false));
      assert.match(off.output, /REFUSED/);
    } finally {
      server.close();
    }
  });
});
