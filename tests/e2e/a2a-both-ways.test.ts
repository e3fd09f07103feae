// End-to-end: xcsh on both sides of A2A. One xcsh serves its agents with
// `xcsh a2a` (the bundled `quick_task` on the scripted model server); a
// second xcsh, in another world, runs a user's `kind: remote` agent file
// whose card URL points at the first. The assignment crosses as an A2A
// message, the far side runs it as a task of its own, and its answer is the
// near task's result, in a plain run and in a streamed one; the near side's
// address checks still apply (loopback only because the user's config
// opens it), and a wrong token is refused by the far side in one line.
//
// Needs `npm run build` first (npm test runs it).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { makeWorld, type World } from "../support/world.ts";

const TOKEN = "both-ways-token-0123456789";
const { server, respond, world } = modelHarness();
const worlds: World[] = [];
const served: ChildProcess[] = [];

after(() => {
  for (const p of served) {
    try {
      process.kill(p.pid!, "SIGTERM");
    } catch { /* gone */ }
  }
  for (const w of worlds) w.cleanup();
});

/** Starts `xcsh a2a --port 0` in `w`; resolves with its base URL (its first stdout line). */
function serve(w: World): Promise<string> {
  const proc = spawn(XCSH, ["a2a", "--port", "0"], {
    cwd: w.cwd,
    env: cleanEnv(w.home, { XCSH_A2A_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  served.push(proc);
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d) => err += d);
  return new Promise((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    proc.on("exit", (code) => reject(new Error(`xcsh a2a exited ${code}: ${err}`)));
  });
}

/** The near side: a world without any model, whose user opens loopback, with a remote agent. */
function nearWorld(cardUrl: string, tokenVariable = "FAR_TOKEN"): World {
  const w = makeWorld('task:\n  webFetchAllow: ["127.0.0.1"]\n');
  worlds.push(w);
  const dir = join(w.home, ".gemini", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "far.md"),
    "---\nkind: remote\nname: far\ndescription: quick_task on the other xcsh\n" +
      `agent_card_url: ${cardUrl}\n` +
      `auth:\n  type: http\n  scheme: Bearer\n  token: $${tokenVariable}\n---\n`,
  );
  return w;
}

describe("xcsh runs an agent another xcsh serves over A2A", () => {
  test("the assignment goes over, the far task's answer is the result", async () => {
    const far = world();
    const base = await serve(far);
    respond((req) => {
      const said = JSON.stringify(req.body);
      return { text: said.includes("name the colour") ? "ultramarine" : "unexpected" };
    });
    const card = `${base}/agents/quick_task/.well-known/agent-card.json`;
    const near = nearWorld(card);
    server.requests.length = 0;
    for (const format of ["json", "stream-json"]) {
      const r = await runXcsh(
        ["run", "far", "--output-format", format, "name the colour"],
        { cwd: near.cwd, home: near.home, env: { FAR_TOKEN: TOKEN } },
      );
      assert.equal(r.code, 0, r.stderr);
      const result = format === "json"
        ? JSON.parse(r.stdout).results[0]
        : r.stdout.trim().split("\n").map((l) => JSON.parse(l)).find((x) => x.type === "result")
          .result;
      assert.equal(result.status, "ok", JSON.stringify(result));
      assert.match(result.text, /ultramarine/);
    }
    // Only the far side talked to a model: the near side has none configured.
    assert.equal(server.requests.length, 2);
  });

  test("a wrong token: the far side refuses, the near task fails in one line", async () => {
    const far = world();
    const base = await serve(far);
    const near = nearWorld(`${base}/agents/quick_task/.well-known/agent-card.json`);
    server.requests.length = 0;
    const r = await runXcsh(["run", "far", "hello"], {
      cwd: near.cwd,
      home: near.home,
      env: { FAR_TOKEN: "not-the-token-0123456789" },
    });
    assert.equal(r.code, 1);
    const failed = r.stderr.trim().split("\n").filter((l) => l.includes("failed"));
    assert.equal(failed.length, 1, r.stderr);
    assert.match(failed[0], /agent card http:\/\/127\.0\.0\.1:\d+\/agents\/quick_task\/.*HTTP 401/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.equal(server.requests.length, 0, "no task ran on the far side");
  });
});
