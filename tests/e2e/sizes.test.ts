// End-to-end tests of size checks before reading: a huge agent file costs no
// memory (measured: peak RSS of the process), oversized config and settings
// files are refused naming the file, and an oversized envelope is its own
// clear error on both sides of the protocol.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runCommand, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd } from "../support/world.ts";

const GNU_TIME = "/usr/bin/time";
const harness = modelHarness({ respond: () => ({ text: "ok" }) });
const { server } = harness;
const world = () => harness.world({ agents: { helper: agentMd("helper", "tools: read\n") } });

function sparse(path: string, bytes: number): void {
  const fd = openSync(path, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

describe("files are measured before they are read", () => {
  test("a 2 GB sparse agent file is skipped without being read", {
    skip: existsSync(GNU_TIME) ? false : `needs ${GNU_TIME} to measure peak memory`,
  }, async () => {
    const w = world();
    const huge = join(w.cwd, ".xcsh", "agents", "huge.md");
    sparse(huge, 2 * 1024 * 1024 * 1024);
    const r = await runCommand(GNU_TIME, ["-f", "peak-kb %M", XCSH, "agents", "--verbose"], {
      cwd: w.cwd,
      env: cleanEnv(w.home),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /huge\.md: skipped: file is 2048\.0 MiB, over the 1 MiB limit/);
    const peakKb = Number(/peak-kb (\d+)/.exec(r.stderr)?.[1]);
    assert.ok(peakKb > 0, r.stderr);
    assert.ok(peakKb < 512 * 1024, `peak memory ${peakKb} kB: the file was read`);
  });

  test("an oversized project config is an error naming the file and the limit", async () => {
    const w = world();
    const file = join(w.cwd, ".xcsh", "config.yml");
    writeFileSync(file, "task:\n  timeout: 30\n" + "# padding\n".repeat(200_000));
    const r = await runXcsh(["run", "helper", "x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(`${file}: file is 1.9 MiB, over the 1.0 MiB limit`), r.stderr);
  });

  test("an oversized Claude settings file is ignored with a warning", async () => {
    const w = world();
    mkdirSync(join(w.cwd, ".claude"), { recursive: true });
    const file = join(w.cwd, ".claude", "settings.json");
    writeFileSync(file, `{"enabledPlugins": {}, "pad": "${"x".repeat(2 * 1024 * 1024)}"}`);
    const r = await runXcsh(["agents", "--verbose"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes(`${file}: file is 2.0 MiB, over the 1.0 MiB limit`), r.stderr);
  });
});

describe("an oversized envelope", () => {
  test("the parent refuses it before starting a child or calling a model", async () => {
    const w = world();
    server.requests.length = 0;
    const r = await runXcsh(["run", "helper"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "a".repeat(17 * 1024 * 1024),
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /task "0-helper": the task envelope is 17\.0 MiB, over the 16\.0 MiB limit: shorten the assignment or the context/,
    );
    assert.equal(server.requests.length, 0);
  });

  test("a child given one reports it as its result", async () => {
    const r = await runXcsh(["__child"], { stdin: "x".repeat(17 * 1024 * 1024) });
    assert.equal(r.code, 1);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.type, "result");
    assert.equal(result.status, "error");
    assert.match(
      result.error,
      /^invalid envelope: the task envelope is 1[67]\.\d MiB, over the 16\.0 MiB limit/,
    );
  });
});
