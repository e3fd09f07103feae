// End-to-end tests of where provider keys go: to the child in its envelope,
// never in its environment (so bash cannot read them from /proc), and never
// shown: keys with stray whitespace, keys used as object keys, and
// credentials inside base URLs are all hidden.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, isAfterTool, toolResults, type World } from "../support/world.ts";

const KEY = "sk-local-secret-0123456789";
const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;

function world(baseURL = `${server.url}/v1`, extra = ""): World {
  return harness.world({
    config:
      `providers:\n  local: { type: openai-compatible, baseURL: "${baseURL}", apiKeyEnv: LOCAL_KEY }\n` +
      `models:\n  default: local/mock-large\n` + extra,
    agents: { worker: agentMd("worker", "tools: bash, read\n") },
  });
}

describe("keys travel in the envelope", () => {
  test("bash finds no key in its environment nor in its parent's /proc environ", async () => {
    // Unsandboxed, so that bash's parent is the child itself: the keys must be
    // out of reach even without the sandbox's own PID namespace.
    const w = world(undefined, "task:\n  sandbox: off\n");
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req) ? { text: "looked" } : {
        toolCalls: [{
          name: "bash",
          args: {
            command: "env; echo ---; tr '\\0' '\\n' < /proc/$PPID/environ; echo ---; " +
              "cat /proc/$PPID/cmdline | tr '\\0' ' '",
          },
        }],
      }
    );
    const r = await runXcsh(["run", "worker", "look around"], {
      cwd: w.cwd,
      home: w.home,
      env: { LOCAL_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 2);
    // The key was used for the model calls…
    assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`);
    // …but what bash saw (the tool result sent to the model) has no trace of it.
    const seen = toolResults(server.requests[1]);
    assert.match(seen, /__child/, "the parent's cmdline was read, so /proc worked");
    assert.ok(!seen.includes(KEY), "a key reached bash");
    assert.ok(!seen.includes("LOCAL_KEY="), "a key variable reached bash");
  });

  test("a key with trailing whitespace is hidden as it is sent (trimmed)", async () => {
    const w = world();
    respond(() => ({ text: `the key is ${KEY}.` }));
    const r = await runXcsh(["run", "worker", "tell me"], {
      cwd: w.cwd,
      home: w.home,
      env: { LOCAL_KEY: `${KEY}  \n` },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "the key is [redacted].");
  });

  test("a key used as an object key in result data is hidden", async () => {
    const w = world();
    respond(() => ({
      toolCalls: [{ name: "submit_result", args: { result: { data: { [KEY]: "value" } } } }],
    }));
    const r = await runXcsh(["run", "--json", "worker", "tell me"], {
      cwd: w.cwd,
      home: w.home,
      env: { LOCAL_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(KEY), r.stdout);
    assert.deepEqual(JSON.parse(r.stdout).results[0].data, { "[redacted]": "value" });
  });
});

describe("credentials in a base URL", () => {
  test("are hidden in --dry-run, doctor and model-call errors", async () => {
    const w = world(`http://me:hunter2pass@127.0.0.1:9/v1?api_key=querysecret99`);
    const opts = { cwd: w.cwd, home: w.home, env: { LOCAL_KEY: KEY, XCSH_RETRY_BASE_MS: "0" } };
    const dry = await runXcsh(["run", "--dry-run", "worker", "x"], opts);
    assert.equal(dry.code, 0, dry.stderr);
    const doctor = await runXcsh(["doctor", "--json"], opts);
    assert.equal(doctor.code, 0, doctor.stderr);
    const run = await runXcsh(["run", "worker", "x"], opts);
    assert.equal(run.code, 1);
    for (
      const [what, text] of [["dry-run", dry.stdout], ["doctor", doctor.stdout], [
        "run",
        run.stderr + run.stdout,
      ]]
    ) {
      assert.ok(!text.includes("hunter2pass"), `${what} shows the password:\n${text}`);
      assert.ok(!text.includes("querysecret99"), `${what} shows the query key:\n${text}`);
      assert.ok(!text.includes(KEY), `${what} shows the key`);
    }
    assert.match(dry.stdout, /"LOCAL_KEY": "<redacted>"/);
    assert.match(dry.stdout, /http:\/\/\[redacted\]@127\.0\.0\.1:9\/v1\?api_key=\[redacted\]/);
    assert.match(run.stderr, /\[redacted\]@127\.0\.0\.1/);
  });
});
