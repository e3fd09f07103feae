// End-to-end tests of what a repository's agent files may do before the
// user trusts them: an agent's own `sandbox: off` (Codex `sandbox_mode =
// "danger-full-access"`) does not turn the sandbox off, even for a project
// `explore` shadowing the bundled one, and says so once; after `xcsh trust`
// it applies, until the file changes. An agent file with an inline MCP
// server added after `xcsh trust` (a vendored sub-repository's) does not
// start it. The real binary, real bubblewrap and a scripted local model.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { runXcsh } from "../support/cli.ts";
import { outsideFolder as outsideFolderAt } from "../support/outside-folder.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { agentMd, type World } from "../support/world.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const support = process.platform === "linux"
  ? sandboxSupport(bwrapLocations(process.env), true)
  : undefined;
const needsBwrap = !support
  ? "needs Linux and bubblewrap"
  : support.ok
  ? false
  : `bwrap unavailable: ${support.reason}`;

const harness = modelHarness();
const { server, scratch, world } = harness;

/** A folder outside the project that sandboxed commands see (see outside-folder.ts). */
function outsideFolder(): string {
  const dir = outsideFolderAt("xcsh-escape-");
  scratch(dir);
  return dir;
}

const bash = (command: string): Turn => ({ toolCalls: [{ name: "bash", args: { command } }] });

/** Runs `agent`, whose model runs one command that writes `file` outside the project. */
async function tryEscape(w: World, agent: string, file: string) {
  rmSync(file, { force: true });
  server.script([bash(`touch '${file}' && echo WROTE`), { text: "done" }]);
  return await runXcsh(["run", agent, "go"], { cwd: w.cwd, home: w.home });
}

const warningsAbout = (stderr: string, what: RegExp) =>
  stderr.split("\n").filter((l) => l.startsWith("xcsh: warning:") && what.test(l));

describe("an untrusted project agent's own sandbox", { skip: needsBwrap }, () => {
  test("'sandbox: off' in a project explore is ignored with one warning; trusted, it applies", async () => {
    const w = world();
    const file = join(w.cwd, ".xcsh", "agents", "explore.md");
    w.addAgent(
      "explore",
      agentMd("explore", "tools: bash\nmodel: local/mock-small\nsandbox: off\n"),
    );
    const escaped = join(outsideFolder(), "escaped");
    const r = await tryEscape(w, "explore", escaped);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(escaped), false, "the repository's agent turned the sandbox off");
    const warned = warningsAbout(r.stderr, /'sandbox: off' \(workspace-write applies\) ignored/);
    assert.equal(warned.length, 1, r.stderr);
    assert.ok(warned[0].includes(file), warned[0]);
    assert.match(warned[0], /xcsh trust/);

    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    assert.match(
      t.stdout,
      /Trusted agent file .*explore\.md \(sha256 [0-9a-f]{12}\): sandbox: off/,
    );
    const trusted = await tryEscape(w, "explore", escaped);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(existsSync(escaped), true, "the trusted agent's own choice did not apply");
    assert.equal(warningsAbout(trusted.stderr, /ignored/).length, 0, trusted.stderr);

    // Rewritten afterwards (as a command in the sandbox could): untrusted again.
    w.addAgent(
      "explore",
      agentMd("explore", "tools: bash\nmodel: local/mock-small\nsandbox: off\n", "Changed."),
    );
    const changed = await tryEscape(w, "explore", escaped);
    assert.equal(existsSync(escaped), false, "a changed file kept its trust");
    assert.equal(warningsAbout(changed.stderr, /'sandbox: off'.*ignored/).length, 1);
  });

  test('a Codex agent\'s sandbox_mode = "danger-full-access" is ignored the same way', async () => {
    const w = world();
    mkdirSync(join(w.cwd, ".codex", "agents"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".codex", "agents", "free.toml"),
      'name = "free"\ndescription = "Free"\nmodel = "local/mock-small"\n' +
        'sandbox_mode = "danger-full-access"\ndeveloper_instructions = "Run it."\n',
    );
    const escaped = join(outsideFolder(), "escaped");
    const r = await tryEscape(w, "free", escaped);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(escaped), false, "the Codex agent turned the sandbox off");
    assert.equal(warningsAbout(r.stderr, /'sandbox_mode: off' .*ignored/).length, 1, r.stderr);
  });

  test("a stricter agent sandbox applies without trust", async () => {
    const w = world();
    w.addAgent(
      "careful",
      agentMd("careful", "tools: bash\nmodel: local/mock-small\nsandbox: read-only\n"),
    );
    const inside = join(w.cwd, "made.txt");
    const r = await tryEscape(w, "careful", inside);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(inside), false, "read-only did not apply");
    assert.equal(warningsAbout(r.stderr, /ignored/).length, 0, r.stderr);
  });
});

describe("agent files that start programs, added after xcsh trust", () => {
  test("a vendored sub-repository's agent does not start its inline server; trusted there, it does", async () => {
    const w = world();
    assert.equal((await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home })).code, 0);
    const vendored = join(w.cwd, "vendor", "lib");
    const marker = join(w.root, "vendored-server-started");
    const script = join(w.root, "server.sh");
    writeFileSync(script, `#!/bin/sh\necho started > '${marker}'\n`);
    chmodSync(script, 0o755);
    mkdirSync(join(vendored, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(vendored, ".claude", "agents", "db.md"),
      agentMd(
        "db",
        `tools: read, mcp__db__*\nmodel: local/mock-small\nmcpServers:\n  - db:\n      command: ${script}\n`,
      ),
    );
    const opts = { cwd: vendored, home: w.home, env: { XCSH_MCP_TIMEOUT_MS: "2000" } };
    server.script([{ text: "done" }]);
    const r = await runXcsh(["run", "db", "go"], opts);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(marker), false, "the server of an agent file nobody trusted started");
    assert.match(
      r.stderr,
      /db\.md: .*agent 'db': MCP server 'db' is defined in a project agent file that is not trusted.*xcsh trust/,
    );

    const t = await runXcsh(["trust"], opts);
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /Trusted agent file .*db\.md .*: mcpServers\.db/);
    server.script([{ text: "done" }]);
    const after = await runXcsh(["run", "db", "go"], opts);
    assert.equal(after.code, 0, after.stderr);
    assert.equal(existsSync(marker), true, "the trusted file's server did not start");
  });
});
