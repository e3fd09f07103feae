// The bubblewrap probe: found at fixed locations (never on PATH), run once per
// process, and the same answer whether it runs in the background or when
// first needed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, chownSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  BWRAP_LOCATIONS,
  bwrapLocations,
  findBwrap,
  sandboxSupport,
  sandboxSupportSoon,
  startSandboxProbe,
} from "./probe.ts";
import { probeFingerprint } from "./probe-fingerprint.ts";

const linux = process.platform === "linux";

/** The candidate list of one executable `bwrap` that runs `body` (a shell script). */
function fakeBwrap(body: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-probe-"));
  const file = join(dir, "bwrap");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return [file];
}

const root = typeof process.getuid === "function" && process.getuid() === 0;

describe("where bwrap is taken from", () => {
  test("the fixed system locations, whatever PATH says; none with XCSH_NO_BWRAP", () => {
    const [onPath] = fakeBwrap("exit 0");
    const env = { PATH: `${join(onPath, "..")}:/usr/bin:/bin` };
    assert.deepEqual(bwrapLocations(env), [...BWRAP_LOCATIONS]);
    assert.ok(BWRAP_LOCATIONS.every((f) => f.startsWith("/")), "absolute paths only");
    assert.deepEqual(bwrapLocations({ ...env, XCSH_NO_BWRAP: "1" }), []);
    assert.deepEqual(bwrapLocations({ XCSH_NO_BWRAP: "0" }), [...BWRAP_LOCATIONS]);
    assert.deepEqual(bwrapLocations({ XCSH_NO_BWRAP: "" }), [...BWRAP_LOCATIONS]);
  });

  test("the first candidate that is an executable file nobody else may change", () => {
    const [a] = fakeBwrap("exit 0");
    const [b] = fakeBwrap("exit 0");
    const [c] = fakeBwrap("exit 0");
    chmodSync(a, 0o644);
    chmodSync(b, 0o777); // anyone may change it
    assert.equal(findBwrap(["/nonexistent/bwrap", join(a, ".."), a, b, c]), c);
    assert.equal(findBwrap([]), undefined);
  });

  test("a candidate owned by another user is passed over", {
    skip: root ? false : "needs root to give a file to another user (chown)",
  }, () => {
    const [a] = fakeBwrap("exit 0");
    const [b] = fakeBwrap("exit 0");
    chownSync(a, 4242, 4242);
    assert.equal(findBwrap([a, b]), b);
  });
});

describe("sandbox probe", () => {
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
      reason: `${dir[0]} cannot create a sandbox here (exit SIGKILL); user ` +
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
      reason: `${dir[0]} cannot create a sandbox here (exit SIGKILL); user ` +
        "namespaces may be disabled",
    });
  });

  test("a working bwrap: ok, and probed once (the answer is kept)", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const runs = join(mkdtempSync(join(tmpdir(), "xcsh-probe-log-")), "runs");
    const dir = fakeBwrap(`echo run >> "${runs}"\nexit 0`);
    const bwrap = dir[0];
    startSandboxProbe(dir, false);
    startSandboxProbe(dir, false);
    assert.deepEqual(await sandboxSupportSoon(dir, false), { ok: true, bwrap });
    assert.deepEqual(await sandboxSupportSoon(dir, false), { ok: true, bwrap });
    assert.deepEqual(sandboxSupport(dir, false), { ok: true, bwrap });
    assert.equal(readFileSync(runs, "utf8"), "run\n", "one probe for one key");
  });

  test("no bwrap at the locations: nothing starts, and the answer names them", async () => {
    const empty = [join(mkdtempSync(join(tmpdir(), "xcsh-probe-none-")), "bwrap")];
    startSandboxProbe(empty, false);
    const r = await sandboxSupportSoon(empty, false);
    assert.equal(r.ok, false);
    if (linux) {
      assert.equal(
        (r as { reason: string }).reason,
        `bubblewrap (bwrap) is not installed (looked for ${empty[0]}, owned by root and ` +
          "writable by nobody else)",
      );
      assert.match(
        (sandboxSupport([], true) as { reason: string }).reason,
        /not installed \(XCSH_NO_BWRAP is set\)/,
      );
    }
  });
});

describe("probes remembered between processes", () => {
  /** A memory held in this process, standing for the file of `sandbox/probe-memory.ts`. */
  const setMemory = () => {
    const kept = new Set<string>();
    return { kept, knows: (f: string) => kept.has(f), remember: (f: string) => void kept.add(f) };
  };

  test("a success is remembered, and not probed again for the same program and machine", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const runs = join(mkdtempSync(join(tmpdir(), "xcsh-probe-log-")), "runs");
    const dir = fakeBwrap(`echo run >> "${runs}"\nexit 0`);
    const bwrap = dir[0];
    const memory = setMemory();
    startSandboxProbe(dir, false, undefined, memory);
    assert.deepEqual(await sandboxSupportSoon(dir, false, memory), { ok: true, bwrap });
    assert.equal(memory.kept.size, 1);
    // Another candidate list is another key in this process, as a new process would be.
    const again = [...dir, "/nonexistent/bwrap"];
    assert.deepEqual(await sandboxSupportSoon(again, false, memory), { ok: true, bwrap });
    assert.equal(readFileSync(runs, "utf8"), "run\n", "remembered: not run again");
    // A changed program is probed again.
    writeFileSync(bwrap, `#!/bin/sh\necho run >> "${runs}"\nexit 0\n# updated\n`);
    const third = [...dir, "/nonexistent/bwrap2"];
    assert.deepEqual(await sandboxSupportSoon(third, false, memory), { ok: true, bwrap });
    assert.equal(readFileSync(runs, "utf8"), "run\nrun\n", "a new program: probed");
    assert.equal(memory.kept.size, 2);
  });

  test("a failure is never remembered: the next process probes again", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const dir = fakeBwrap("echo no >&2\nexit 1");
    const memory = setMemory();
    const r = await sandboxSupportSoon(dir, true, memory);
    assert.equal(r.ok, false);
    assert.equal(memory.kept.size, 0);
  });

  test("a remembered fingerprint of another program or setting does not count", {
    skip: linux ? false : "the probe runs bwrap only on Linux",
  }, async () => {
    const [a] = fakeBwrap("exit 0");
    const [b] = fakeBwrap("exit 0");
    const args = ["--ro-bind", "/", "/", "--", "true"];
    const fa = probeFingerprint(a, args);
    assert.ok(fa !== undefined);
    assert.equal(probeFingerprint(a, args), fa, "the same inputs: the same fingerprint");
    assert.notEqual(probeFingerprint(b, args), fa, "another program");
    assert.notEqual(probeFingerprint(a, [...args.slice(0, -2), "--unshare-net", "--", "true"]), fa);
    assert.equal(probeFingerprint(join(a, "..", "missing"), args), undefined);
    // A bwrap that fails is not taken for working because another one was remembered.
    const failing = fakeBwrap("exit 1");
    const memory = setMemory();
    memory.kept.add(fa!);
    assert.equal((await sandboxSupportSoon(failing, false, memory)).ok, false);
  });
});
