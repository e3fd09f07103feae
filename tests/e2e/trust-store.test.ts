// End-to-end tests of the trust store itself, with the real binary: trust
// is pinned to the project it was given for (a config symlinked from a
// trusted project is not trusted, and a relative MCP command means a path
// from the config file's own folder), a store another user could write is
// not believed, and concurrent `xcsh trust` runs lose no record.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, localConfig, type World } from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server } = harness;
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

const world = (userConfig = localConfig("http://127.0.0.1:1")) =>
  harness.world({ config: userConfig });

const storeOf = (w: World) => join(w.home, ".local", "state", "xcsh", "trusted.json");
const recordsOf = (w: World) => JSON.parse(readFileSync(storeOf(w), "utf8"));

/** A stdio "server" script that leaves `marker` behind when started. */
function markerScript(path: string, marker: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho started > '${marker}'\n`);
  chmodSync(path, 0o755);
}

describe("trust is pinned to the project it was given for", () => {
  test("a config symlinked to a trusted project's is not trusted; relative commands are from the file's folder", async () => {
    const w = world(localConfig(server.url));
    // A user agent, so both projects have it.
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "tooluser.md"),
      agentMd("tooluser", "tools: read, mcp__tool__*\nmodel: local/mock-small\n"),
    );
    const trusted = w.cwd;
    writeFileSync(
      join(trusted, ".xcsh", "config.yml"),
      "mcpServers:\n  tool:\n    command: ./tools/mcp.sh\n",
    );
    const markerA = join(w.root, "ran-trusted-script");
    markerScript(join(trusted, ".xcsh", "tools", "mcp.sh"), markerA);
    assert.equal((await runXcsh(["trust", trusted], { cwd: trusted, home: w.home })).code, 0);

    // The repository: its config is a symlink to the trusted one, and it ships
    // a script where a command relative to the working folder would look.
    const repo = join(w.root, "repo");
    mkdirSync(join(repo, ".xcsh"), { recursive: true });
    symlinkSync(join(trusted, ".xcsh", "config.yml"), join(repo, ".xcsh", "config.yml"));
    const markerB = join(w.root, "ran-repository-script");
    markerScript(join(repo, "tools", "mcp.sh"), markerB);
    markerScript(join(repo, ".xcsh", "tools", "mcp.sh"), markerB);

    const env = { XCSH_MCP_TIMEOUT_MS: "2000" };
    const inRepo = await runXcsh(["run", "tooluser", "go"], { cwd: repo, home: w.home, env });
    assert.equal(inRepo.code, 0, inRepo.stderr);
    assert.equal(existsSync(markerB), false, "the repository's script ran");
    assert.equal(existsSync(markerA), false);
    assert.match(inRepo.stderr, /mcpServers\.tool ignored: this project config is not trusted/);

    // In the trusted project, the command is a path from .xcsh/, whatever the cwd.
    const sub = join(trusted, "src");
    mkdirSync(sub, { recursive: true });
    const inTrusted = await runXcsh(["run", "tooluser", "go"], { cwd: sub, home: w.home, env });
    assert.equal(inTrusted.code, 0, inTrusted.stderr);
    assert.equal(existsSync(markerA), true, "the trusted project's own script did not run");
    assert.equal(existsSync(markerB), false);
    const records = recordsOf(w);
    assert.equal(records.files[0].project, trusted);
  });
});

describe("a trust store someone else could write", () => {
  const KEY = "sk-ant-user-secret-0123456789";
  // The server a repository's config points at: a second harness, for this group.
  const { server: repoServer } = modelHarness({
    respond: () => ({ text: "from the repository" }),
  });
  test("another user's 0666 trusted.json in a 0777 folder trusts nothing", {
    skip: isRoot ? false : "needs root: the test gives the store to uid 4242 with chown",
  }, async () => {
    const w = world(
      `providers:\n  anthropic: { baseURL: "${server.url}/v1" }\n` +
        `models:\n  default: anthropic/mock-large\n`,
    );
    writeFileSync(
      join(w.cwd, ".xcsh", "config.yml"),
      `providers:\n  anthropic: { baseURL: "${repoServer.url}/v1" }\n`,
    );
    writeFileSync(
      join(w.cwd, ".xcsh", "agents", "helper.md"),
      agentMd("helper", "tools: read\n"),
    );
    const opts = { cwd: w.cwd, home: w.home, env: { ANTHROPIC_API_KEY: KEY } };
    assert.equal((await runXcsh(["trust"], opts)).code, 0);
    const trustedRun = await runXcsh(["run", "helper", "hi"], opts);
    assert.equal(trustedRun.stdout.trim(), "from the repository", trustedRun.stderr);

    const store = storeOf(w);
    chownSync(store, 4242, 4242);
    chmodSync(store, 0o666);
    chownSync(join(store, ".."), 4242, 4242);
    chmodSync(join(store, ".."), 0o777);
    repoServer.requests.length = 0;
    const r = await runXcsh(["run", "helper", "hi"], opts);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(repoServer.requests.length, 0, "the planted store was believed");
    assert.equal(r.stdout.trim(), "done");
    assert.match(r.stderr, /providers\.anthropic ignored: this project config is not trusted/);

    const again = await runXcsh(["trust"], opts);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /^xcsh: error: the trust store cannot be used: .*xcsh is owned by another user \(uid 4242\)/m,
    );
    const list = await runXcsh(["trust", "--list"], opts);
    assert.match(list.stderr, /the trust store is ignored: .*owned by another user \(uid 4242\)/);
    assert.match(list.stdout, /^No trusted projects/);
  });
});

describe("concurrent xcsh trust runs", () => {
  test("20 at once: every record survives", async () => {
    const w = world();
    const dirs = Array.from({ length: 20 }, (_, i) => join(w.root, `p${i}`));
    for (const d of dirs) mkdirSync(join(d, ".xcsh"), { recursive: true });
    const runs = await Promise.all(
      dirs.map((d) => runXcsh(["trust", d], { cwd: d, home: w.home })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const roots = recordsOf(w).projects.map((p: { root: string }) => p.root).sort();
    assert.deepEqual(roots, [...dirs].sort());
    assert.equal(existsSync(storeOf(w) + ".lock"), false, "the lock is left behind");
  });

  test("a revoke racing trusts of other projects is never undone", async () => {
    const w = world();
    const a = join(w.root, "a");
    mkdirSync(join(a, ".xcsh"), { recursive: true });
    const trustedSoFar: string[] = [];
    for (let round = 0; round < 10; round++) {
      assert.equal((await runXcsh(["trust", a], { cwd: a, home: w.home })).code, 0);
      const others = Array.from({ length: 4 }, (_, i) => join(w.root, `r${round}-${i}`));
      for (const d of others) mkdirSync(join(d, ".xcsh"), { recursive: true });
      const runs = await Promise.all([
        runXcsh(["trust", "--revoke", a], { cwd: a, home: w.home }),
        ...others.map((d) => runXcsh(["trust", d], { cwd: d, home: w.home })),
      ]);
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      trustedSoFar.push(...others);
      const roots = recordsOf(w).projects.map((p: { root: string }) => p.root).sort();
      assert.deepEqual(roots, [...trustedSoFar].sort(), `round ${round}`);
    }
  });
});
