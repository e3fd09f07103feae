// The bubblewrap probe: found on PATH, run once per process, and the same
// answer whether it runs in the background or when first needed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { findBwrap, sandboxSupport, sandboxSupportSoon, startSandboxProbe } from "./probe.ts";

const linux = process.platform === "linux";

/** A folder holding an executable `bwrap` that runs `body` (a shell script). */
function fakeBwrap(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-probe-"));
  const file = join(dir, "bwrap");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return dir;
}

describe("sandbox probe", () => {
  test("bwrap is the first executable one on PATH", () => {
    const a = fakeBwrap("exit 0");
    const b = fakeBwrap("exit 0");
    chmodSync(join(a, "bwrap"), 0o644);
    assert.equal(findBwrap(`/nonexistent:${a}:${b}`), join(b, "bwrap"));
    assert.equal(findBwrap(""), undefined);
    assert.equal(findBwrap(undefined), undefined);
  });

  test("a bwrap that fails: the same reason in the background as in the foreground", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const dir = fakeBwrap('echo "setting up uid map: Permission denied" >&2\nexit 1');
    startSandboxProbe(dir, false);
    const soon = await sandboxSupportSoon(dir, false);
    assert.equal(soon.ok, false);
    assert.match(
      (soon as { reason: string }).reason,
      /bwrap cannot create a sandbox here \(setting up uid map: Permission denied\); user namespaces may be disabled/,
    );
    // A fresh key (network on) is probed in the foreground: the same words.
    assert.deepEqual(sandboxSupport(dir, true), {
      ok: false,
      reason: (soon as { reason: string }).reason,
    });
  });

  test("a bwrap that is killed: its signal is the reason", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const dir = fakeBwrap("kill -9 $$");
    startSandboxProbe(dir, false);
    const soon = await sandboxSupportSoon(dir, false);
    assert.deepEqual(soon, {
      ok: false,
      reason: `${join(dir, "bwrap")} cannot create a sandbox here (exit SIGKILL); user ` +
        "namespaces may be disabled",
    });
  });

  test("a bwrap that never ends is killed after the time allowed, and says so", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const dir = fakeBwrap("exec sleep 30");
    startSandboxProbe(dir, false, 300);
    const soon = await sandboxSupportSoon(dir, false);
    assert.deepEqual(soon, {
      ok: false,
      reason: `${join(dir, "bwrap")} cannot create a sandbox here (exit SIGKILL); user ` +
        "namespaces may be disabled",
    });
  });

  test("a working bwrap: ok, and probed once (the answer is kept)", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const runs = join(mkdtempSync(join(tmpdir(), "xcsh-probe-log-")), "runs");
    const dir = fakeBwrap(`echo run >> "${runs}"\nexit 0`);
    const bwrap = join(dir, "bwrap");
    startSandboxProbe(dir, false);
    startSandboxProbe(dir, false);
    assert.deepEqual(await sandboxSupportSoon(dir, false), { ok: true, bwrap });
    assert.deepEqual(await sandboxSupportSoon(dir, false), { ok: true, bwrap });
    assert.deepEqual(sandboxSupport(dir, false), { ok: true, bwrap });
    assert.equal(readFileSync(runs, "utf8"), "run\n", "one probe for one key");
  });

  test("no bwrap on PATH: nothing starts, and the answer says so", async () => {
    const empty = mkdtempSync(join(tmpdir(), "xcsh-probe-none-"));
    startSandboxProbe(empty, false);
    const r = await sandboxSupportSoon(empty, false);
    assert.equal(r.ok, false);
    if (linux) {
      assert.match(
        (r as { reason: string }).reason,
        /bubblewrap \(bwrap\) is not installed or not on PATH/,
      );
    }
  });
});
