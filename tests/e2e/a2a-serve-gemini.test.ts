// Gemini CLI itself (@google/gemini-cli from npm, pinned) running a
// `kind: remote` agent whose card points at `xcsh a2a`: Gemini CLI fetches
// the card with its bearer token, its model (the scripted model server,
// standing in for Gemini's API through GOOGLE_GEMINI_BASE_URL) invokes the
// agent, the assignment goes out over A2A, xcsh runs it as a task of the
// bundled `quick_task` (whose own model calls reach the same server in the
// OpenAI wire format), and the task's artifact comes back to Gemini CLI as
// the tool's result. Needs Node (Gemini CLI runs on it): skipped without.
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, ROOT, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { childPids } from "../support/world.ts";

const GEMINI = join(ROOT, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
const nodeVersion = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
const skip = !/^v(2\d|[3-9]\d)\./.test(nodeVersion)
  ? "needs Node 20 or later on PATH (Gemini CLI runs on it)"
  : !existsSync(GEMINI)
  ? "needs @google/gemini-cli (npm ci installs it)"
  : false;

const TOKEN = "gemini-test-token-0123456789";
const REMOTE = "xcsh_quick";

// Gemini CLI's model: call the remote agent once, then say what it answered.
// quick_task's model (OpenAI format): answer the assignment.
const { server, respond, world } = modelHarness({
  lenient: "Gemini CLI's own requests are not what the strict rules model",
});

function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string> }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const c: ChildProcess = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    c.stdout!.on("data", (d) => stdout += d);
    c.stderr!.on("data", (d) => stderr += d);
    c.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

test("Gemini CLI runs an xcsh agent as a remote agent over A2A", { skip }, async () => {
  const w = world();
  const assignments: string[] = [];
  respond((req) => {
    const body = JSON.stringify(req.body);
    if (req.format === "openai") {
      assignments.push(body);
      return { text: "xcsh child says: the answer is 42" };
    }
    const relayed =
      /"functionResponse":\{"name":"invoke_agent","response":\{"output":"((?:[^"\\]|\\.)*)"/
        .exec(body);
    if (relayed) return { text: `relayed: ${JSON.parse(`"${relayed[1]}"`)}` };
    if (body.includes('"invoke_agent"')) {
      return {
        toolCalls: [{
          name: "invoke_agent",
          args: { agent_name: REMOTE, prompt: "What is the answer?" },
        }],
      };
    }
    return { text: "no agent to invoke" };
  });

  const served = spawn(XCSH, ["a2a", "--port", "0"], {
    cwd: w.cwd,
    env: cleanEnv(w.home, { XCSH_A2A_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((r) => served.on("exit", (code) => r(code)));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = "";
      served.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      exited.then((code) => reject(new Error(`xcsh a2a exited ${code}`)));
    });

    // Gemini CLI's user folder: the remote agent, an API key setting, no telemetry.
    const geminiHome = join(w.root, "gemini-home");
    mkdirSync(join(geminiHome, ".gemini", "agents"), { recursive: true });
    writeFileSync(
      join(geminiHome, ".gemini", "agents", `${REMOTE}.md`),
      `---\nkind: remote\nname: ${REMOTE}\n` +
        `agent_card_url: ${base}/agents/quick_task/.well-known/agent-card.json\n` +
        "auth:\n  type: http\n  scheme: Bearer\n  token: $XCSH_A2A_TOKEN\n---\n",
    );
    writeFileSync(
      join(geminiHome, ".gemini", "settings.json"),
      JSON.stringify({
        security: { auth: { selectedType: "gemini-api-key" } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    );
    const r = await run(
      "node",
      [
        GEMINI,
        "-p",
        `Ask ${REMOTE} what the answer is.`,
        "--approval-mode",
        "yolo",
        "-m",
        "gemini-2.5-flash",
      ],
      {
        cwd: w.cwd,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: geminiHome,
          GEMINI_API_KEY: "test-key",
          GOOGLE_GEMINI_BASE_URL: server.url,
          GEMINI_CLI_TRUST_WORKSPACE: "true",
          XCSH_A2A_TOKEN: TOKEN,
          NO_COLOR: "1",
        },
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^relayed: [^]*xcsh child says: the answer is 42/, r.stderr);
    assert.equal(assignments.length, 1, "one xcsh task ran");
    assert.match(assignments[0], /What is the answer\?/);
    assert.deepEqual(childPids(w.root), [], "the task's child has ended");
  } finally {
    // process.kill, not ChildProcess.kill: Deno then reports the real exit code.
    process.kill(served.pid!, "SIGTERM");
    assert.equal(await exited, 0);
  }
});
