// Unit tests of a background run's status, read from fabricated run folders.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { listRuns, readRun, START_GRACE_MS } from "./background.ts";
import { processStartMark } from "./liveness.ts";

const data = mkdtempSync(join(tmpdir(), "xcsh-runs-"));
after(() => rmSync(data, { recursive: true, force: true }));

function run(id: string, files: Record<string, unknown>, started = new Date().toISOString()): void {
  const dir = join(data, "runs", id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "run.json"),
    JSON.stringify({ version: 1, id, agent: "a", args: [], cwd: "/", started }),
  );
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  }
}

const me = { pid: process.pid, mark: processStartMark(process.pid) };
const ended = { code: 0, ended: new Date().toISOString() };
const old = new Date(Date.now() - START_GRACE_MS - 1000).toISOString();

describe("readRun", () => {
  const cases: [string, Record<string, unknown>, string, string?][] = [
    ["ended with 0", { "process.json": me, "exit.json": ended }, "ok"],
    ["ended with 1", { "process.json": me, "exit.json": { ...ended, code: 1 } }, "failed"],
    ["asked to stop, ended", { "exit.json": { ...ended, code: 1 }, cancel: "t" }, "cancelled"],
    ["its process is alive", { "process.json": me }, "running"],
    [
      "its pid now belongs to another process",
      { "process.json": { pid: process.pid, mark: "x" } },
      "died",
    ],
    ["its process is gone", { "process.json": { pid: 4_194_000, mark: "" } }, "died"],
    ["just launched, not recorded yet", {}, "running"],
    ["launched long ago, never recorded", {}, "died", old],
    [
      "killed after a cancel",
      { "process.json": { pid: 4_194_000, mark: "" }, cancel: "t" },
      "cancelled",
    ],
  ];
  for (const [name, files, status, started] of cases) {
    test(`${name}: ${status}`, () => {
      const id = `r-${name.replace(/\W+/g, "-")}`;
      run(id, files, started);
      const state = readRun(data, id);
      if (name === "its pid now belongs to another process" && me.mark === "") return; // no /proc
      assert.equal(state?.status, status);
    });
  }

  test("unknown or invalid ids: undefined", () => {
    assert.equal(readRun(data, "nope"), undefined);
    assert.equal(readRun(data, "../x"), undefined);
    assert.equal(readRun("", "x"), undefined);
  });

  test("listRuns lists them all, oldest id first", () => {
    const ids = listRuns(data).map((r) => r.record.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(ids.length >= 9);
  });
});
