// Unit tests for the runtime module's process start: the same behaviour from
// Bun.spawn (under bun test) and node:child_process (under deno test) —
// stdin in, stdout and stderr out in full and unsplit characters, exit code
// or signal last, a missing program as an error, and its own process group.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { type PipedSpawn, runtimeName, selfCommand, sha256Hex, spawnPiped } from "./runtime.ts";

interface Seen {
  out: string;
  err: string;
  close?: [number | null, string | null];
  error?: Error;
  order: string[];
}

function run(command: string, args: string[], input?: string, extra: Partial<PipedSpawn> = {}) {
  const seen: Seen = { out: "", err: "", order: [] };
  let pid: number | undefined;
  const done = new Promise<Seen>((resolve) => {
    spawnPiped({
      command,
      args,
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      detached: true,
      onStdout: (t) => {
        seen.out += t;
        seen.order.push("out");
      },
      onStderr: (t) => {
        seen.err += t;
        seen.order.push("err");
      },
      onClose: (code, signal) => {
        seen.close = [code, signal];
        seen.order.push("close");
        resolve(seen);
      },
      onError: (e) => {
        seen.error = e;
        resolve(seen);
      },
      ...extra,
    }).then((p) => {
      pid = p.pid;
      if (input !== undefined) {
        p.write(input);
        p.end();
      }
    });
  });
  return { done, pid: () => pid };
}

describe(`spawnPiped (${runtimeName()})`, () => {
  test("stdin in; stdout and stderr out in full; the exit code last", async () => {
    const big = "é✓".repeat(40_000) + "\n";
    const { done } = run("sh", ["-c", "cat; echo oops >&2; exit 3"], big);
    const seen = await done;
    assert.equal(seen.out, big, "every character, none split");
    assert.equal(seen.err, "oops\n");
    assert.deepEqual(seen.close, [3, null]);
    assert.equal(seen.order.at(-1), "close");
  });

  test("a signal is reported by name", async () => {
    const { done } = run("sh", ["-c", "kill -TERM $$"]);
    assert.deepEqual((await done).close, [null, "SIGTERM"]);
  });

  test("a program that does not exist is an error, not a close", async () => {
    const { done } = run("/nonexistent/xcsh-no-such-program", []);
    const seen = await done;
    assert.ok(seen.error instanceof Error);
    assert.equal(seen.close, undefined);
  });

  test("writing to a child that is gone is not an error", async () => {
    const p = await spawnPiped({
      command: "sh",
      args: ["-c", "exit 0"],
      cwd: process.cwd(),
      env: {},
      detached: false,
      onStdout: () => {},
      onStderr: () => {},
      onClose: () => {},
      onError: () => {},
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.doesNotThrow(() => {
      p.write("x".repeat(1 << 20));
      p.end();
      p.end();
    });
  });

  test("the child gets no variable that steers a runtime", async () => {
    const { done } = run("sh", ["-c", "env"], undefined, {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", BUN_OPTIONS: "--smol", KEPT: "yes" },
    });
    const seen = await done;
    assert.match(seen.out, /^KEPT=yes$/m);
    assert.doesNotMatch(seen.out, /BUN_OPTIONS/);
  });

  test("detached: the child leads its own process group", async () => {
    const { done, pid } = run("sh", ["-c", "sleep 0.3"]);
    await new Promise((r) => setTimeout(r, 100));
    const group = execFileSync("ps", ["-o", "pgid=", "-p", String(pid())]).toString().trim();
    assert.equal(group, String(pid()));
    await done;
  });
});

test(`sha256Hex (${runtimeName()}): the standard vectors, for text as UTF-8 and for bytes`, () => {
  const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(sha256Hex("abc"), abc);
  assert.equal(sha256Hex(new TextEncoder().encode("abc")), abc);
  assert.equal(
    sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  // Non-ASCII text is hashed as its UTF-8 bytes.
  assert.equal(sha256Hex("é"), sha256Hex(new Uint8Array([0xc3, 0xa9])));
});

test(`selfCommand (${runtimeName()}): a copy started in a folder reads none of its files`, () => {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-self-"));
  try {
    const marker = join(dir, "MARKER");
    writeFileSync(
      join(dir, "x.js"),
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
    );
    writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./x.js"]\n');
    writeFileSync(join(dir, ".env"), "XCSH_NO_BWRAP=1\n");
    writeFileSync(join(dir, "deno.json"), "{ not json");
    // Its last argument names the entry script (under `bun test`, the test file).
    const self = selfCommand();
    const main = join(import.meta.dirname ?? ".", "..", "main.ts");
    const out = execFileSync(self.command, [...self.args.slice(0, -1), main, "--version"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
      encoding: "utf8",
    });
    assert.match(out, /^xcsh /);
    assert.equal(existsSync(marker), false, "the folder's bunfig.toml preload ran");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
