// End-to-end tests of the environment bash commands get, through the built
// binary and the local model server: secrets by name and by value, socket
// variables and provider keys are left out; whatever secret value still
// shows up in a tool result (read from the child's own /proc entry by an
// unsandboxed command) reaches the model redacted; the user's
// `task.allowEnv` lets a variable through, a project's cannot.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { toolResults, type World } from "../support/world.ts";

const SECRETS = {
  GITHUB_TOKEN: "ghp_e2eTokenValue0123456789",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI-e2e-K7MDENG",
  NPM_TOKEN: "npm_e2eTokenValue0123456789",
  DATABASE_URL: "postgres://app:pw-e2e-0123@db.internal:5432/app",
};
const SOCKETS = {
  SSH_AUTH_SOCK: "/tmp/ssh-e2e/agent.1",
  DISPLAY: ":77",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/4242/bus",
};
const env = { ...SECRETS, ...SOCKETS, PROJECT_FLAVOUR: "plain-e2e" };

const harness = modelHarness();
const { server } = harness;

function world(extra = "", projectConfig?: string): World {
  const w = harness.world({ extraConfig: extra });
  if (projectConfig !== undefined) writeFileSync(join(w.cwd, ".xcsh", "config.yml"), projectConfig);
  return w;
}

const bash = (command: string): Turn => ({ toolCalls: [{ name: "bash", args: { command } }] });

/** One bash call; the tool result as the model received it. */
async function runBash(w: World, command: string, args: string[] = []): Promise<string> {
  server.script([bash(command), { text: "done" }]);
  server.requests.length = 0;
  const r = await runXcsh(["run", "quick_task", ...args, "go"], { cwd: w.cwd, home: w.home, env });
  assert.equal(r.code, 0, r.stderr);
  return toolResults(server.requests[1]);
}

describe("the environment of commands", () => {
  test("secrets and socket variables are left out; ordinary ones stay", async () => {
    const out = await runBash(world(), "env | sort");
    assert.match(out, /^PROJECT_FLAVOUR=plain-e2e$/m);
    assert.match(out, /^PATH=/m);
    for (const name of [...Object.keys(SECRETS), ...Object.keys(SOCKETS)]) {
      assert.doesNotMatch(out, new RegExp(`^${name}=`, "m"), `${name} reached the command`);
    }
    for (const value of Object.values(SECRETS)) assert.ok(!out.includes(value), value);
  });

  test("a secret the command finds anyway reaches the model redacted", async () => {
    // Unsandboxed, the command can read its parent's (the child's) environment.
    const out = await runBash(
      world(),
      "tr '\\0' '\\n' < /proc/$PPID/environ | grep -E '^(GITHUB_TOKEN|DATABASE_URL|AWS_SECRET)'",
      ["--sandbox", "off"],
    );
    assert.match(out, /^GITHUB_TOKEN=\[redacted\]$/m, out);
    assert.match(out, /^DATABASE_URL=\[redacted\]$/m, out);
    assert.match(out, /^AWS_SECRET_ACCESS_KEY=\[redacted\]$/m, out);
    for (const value of Object.values(SECRETS)) assert.ok(!out.includes(value), value);
    assert.ok(!out.includes("pw-e2e-0123"), "not even the password alone");
  });

  test("task.allowEnv in the user's config lets a variable through (its value still hidden)", async () => {
    const w = world("task:\n  allowEnv: [GITHUB_TOKEN, 'SSH_*']\n");
    const out = await runBash(
      w,
      'echo "gh=${GITHUB_TOKEN:+set} npm=${NPM_TOKEN:+set} ssh=$SSH_AUTH_SOCK"; echo "$GITHUB_TOKEN"',
    );
    assert.match(out, /gh=set npm= ssh=\/tmp\/ssh-e2e\/agent\.1/);
    assert.match(out, /^\[redacted\]$/m);
    assert.ok(!out.includes(SECRETS.GITHUB_TOKEN));
  });

  test("the same in a project config does not; there it only narrows the user's list", async () => {
    const alone = world("", "task:\n  allowEnv: [GITHUB_TOKEN, NPM_TOKEN]\n");
    const one = await runBash(alone, 'echo "gh=${GITHUB_TOKEN:+set} npm=${NPM_TOKEN:+set}"');
    assert.match(one, /gh= npm=$/m);
    const both = world(
      "task:\n  allowEnv: [GITHUB_TOKEN, NPM_TOKEN]\n",
      "task:\n  allowEnv: [NPM_TOKEN, DATABASE_URL]\n",
    );
    const two = await runBash(
      both,
      'echo "gh=${GITHUB_TOKEN:+set} npm=${NPM_TOKEN:+set} db=${DATABASE_URL:+set}"',
    );
    assert.match(two, /gh= npm=set db=$/m);
  });

  test("doctor names the variables commands do not get, never their values", async () => {
    const w = world("task:\n  allowEnv: [NPM_TOKEN]\n");
    const r = await runXcsh(["doctor", "--json"], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(
      doc.sandbox.env.withheld,
      ["AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY"]
        .concat(["GITHUB_TOKEN", "SSH_AUTH_SOCK"]),
    );
    assert.deepEqual(doc.sandbox.env.allowed, ["NPM_TOKEN"]);
    const text = await runXcsh(["doctor"], { cwd: w.cwd, home: w.home, env });
    assert.match(text.stdout, /withheld +AWS_SECRET_ACCESS_KEY, DATABASE_URL, .*GITHUB_TOKEN/);
    assert.match(text.stdout, /allowEnv +NPM_TOKEN/);
    for (const value of Object.values(SECRETS)) {
      assert.ok(!r.stdout.includes(value) && !text.stdout.includes(value), value);
    }
  });

  test("a bad task.allowEnv is one clear error naming the file and key", async () => {
    const w = world("task:\n  allowEnv: [GITHUB_TOKEN, 'MY VAR']\n");
    server.script([]);
    const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /config\.yml: 'task\.allowEnv' must be a list of environment variable names/,
    );
    assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
  });
});
