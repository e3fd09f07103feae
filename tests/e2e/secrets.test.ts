// End-to-end attack test of the one secret rule, through the built binary
// and the local model server: the environment holds secrets under names the
// rule knows (DB_CREDENTIAL, MY_API_TOKEN, SMTP_PASS), a key-shaped value
// under an innocent name, and the run's own provider key under a name no
// rule knows; the assignment quotes one, a project file holds them, the
// model's command quotes them and its answer repeats them. None of the
// values reaches a command's environment, the session file, the
// stream-json output or a hook's stdin.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { isAfterTool, toolResults, type World } from "../support/world.ts";

const GHP = "ghp_" + "E2eShape0123456789abcdefghijklmnopqr";
const AWS = "AKIAE2ESHAPE0123ABCD";
const SECRETS = {
  DB_CREDENTIAL: "db-cred-e2e-0123456789",
  MY_API_TOKEN: "my-api-token-e2e-98765",
  SMTP_PASS: "smtp-pass-e2e-55555",
  SERVICE_ID: GHP,
  CORP_LLM: "corp-llm-e2e-key-4242",
};
/** Every value that must not be written anywhere. */
const VALUES = [...Object.values(SECRETS), AWS];

const harness = modelHarness({ respond: () => ({ text: "unexpected request" }) });
const { server, respond } = harness;

function leakyWorld(extra = ""): World {
  const w = harness.world({
    // The run's own key, under a name no rule calls secret.
    config: `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1", ` +
      `apiKeyEnv: CORP_LLM }\nmodels:\n  default: local/mock-large\n${extra}`,
  });
  const hooks = join(w.cwd, "hooks");
  mkdirSync(hooks, { recursive: true });
  const hook = join(hooks, "record.sh");
  writeFileSync(
    hook,
    `#!/bin/sh\ncat >> "${join(w.cwd, "hook-stdin.txt")}"\necho >> "${
      join(w.cwd, "hook-stdin.txt")
    }"\n`,
  );
  chmodSync(hook, 0o755);
  const on = (event: string) =>
    `  ${event}:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${hook}\n`;
  mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
  writeFileSync(
    join(w.home, ".claude", "agents", "leaky.md"),
    `---\nname: leaky\ndescription: Leaky\ntools: Read, Bash\nhooks:\n${on("PreToolUse")}${
      on("PostToolUse")
    }---\nYou are leaky.\n`,
  );
  writeFileSync(join(w.cwd, "notes.txt"), `${VALUES.join("\n")}\n`);
  return w;
}

/** Which of the secret values `text` holds. */
const leaked = (text: string) => VALUES.filter((v) => text.includes(v));

/** One run of the attack, shared by the tests below (each checks one boundary). */
let attack: Promise<{ w: World; stdout: string; stderr: string }> | undefined;
function runAttack(): Promise<{ w: World; stdout: string; stderr: string }> {
  attack ??= (async () => {
    const w = leakyWorld();
    const command = `env > "${join(w.cwd, "command-env.txt")}"; echo ${SECRETS.DB_CREDENTIAL} ` +
      `${SECRETS.MY_API_TOKEN} ${SECRETS.CORP_LLM}; cat notes.txt`;
    server.script([]);
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req)
        ? { text: `done; I saw ${toolResults(req)} and ${GHP} ${AWS}` }
        : { toolCalls: [{ name: "bash", args: { command } }] }
    );
    const r = await runXcsh(
      ["run", "leaky", "--output-format", "stream-json", `use ${SECRETS.DB_CREDENTIAL} to deploy`],
      { cwd: w.cwd, home: w.home, env: SECRETS },
    );
    assert.equal(r.code, 0, r.stderr);
    return { w, stdout: r.stdout, stderr: r.stderr };
  })();
  return attack;
}

describe("one secret rule for everything written", () => {
  test("a command's environment holds neither the names nor the values", async () => {
    const { w } = await runAttack();
    const commandEnv = readFileSync(join(w.cwd, "command-env.txt"), "utf8");
    assert.match(commandEnv, /^PATH=/m);
    for (const name of Object.keys(SECRETS)) {
      assert.doesNotMatch(commandEnv, new RegExp(`^${name}=`, "m"), `${name} reached the command`);
    }
    assert.deepEqual(leaked(commandEnv), [], "a value reached the command's environment");
  });

  test("the session file holds none of the values", async () => {
    const { w } = await runAttack();
    const dir = join(w.home, ".local", "share", "xcsh", "sessions");
    const files = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
    assert.equal(files.length, 1);
    const session = readFileSync(join(dir, files[0]), "utf8");
    assert.match(session, /\[redacted\]/);
    assert.deepEqual(leaked(session), [], "a value reached the session file");
  });

  test("stream-json (and stderr) hold none of the values", async () => {
    const { stdout, stderr } = await runAttack();
    assert.match(stdout, /"type":"run_result"/);
    assert.match(stdout, /\[redacted\]/);
    assert.deepEqual(leaked(stdout), [], "a value reached stream-json");
    assert.deepEqual(leaked(stderr), [], "a value reached stderr");
  });

  test("a hook's stdin holds none of the values", async () => {
    const { w } = await runAttack();
    const hookIn = readFileSync(join(w.cwd, "hook-stdin.txt"), "utf8");
    assert.match(hookIn, /"hook_event_name":"PreToolUse"/);
    assert.match(hookIn, /"hook_event_name":"PostToolUse"/);
    assert.deepEqual(leaked(hookIn), [], "a value reached a hook's stdin");
  });
});

describe("a background run", () => {
  test("its record, output and session hold none of the values", async () => {
    const w = leakyWorld();
    server.script([]);
    respond(() => ({ text: `done with ${SECRETS.MY_API_TOKEN}` }));
    const started = await runXcsh(
      ["run", "--background", "quick_task", `use ${SECRETS.DB_CREDENTIAL} to deploy`],
      { cwd: w.cwd, home: w.home, env: SECRETS },
    );
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    const waited = await runXcsh(["wait", id, "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(waited.code, 0, waited.stderr);
    const data = join(w.home, ".local", "share", "xcsh");
    const runDir = join(data, "runs", id);
    for (const name of readdirSync(runDir)) {
      const text = readFileSync(join(runDir, name), "utf8");
      assert.deepEqual(leaked(text), [], `a value reached the run's ${name}`);
    }
    assert.match(readFileSync(join(runDir, "run.json"), "utf8"), /use \[redacted\] to deploy/);
    const session = JSON.parse(waited.stdout).results[0].session;
    const text = readFileSync(join(data, "sessions", `${session}.jsonl`), "utf8");
    assert.deepEqual(leaked(text), [], "a value reached the session file");
    assert.deepEqual(leaked(waited.stdout), []);
  });
});

describe("--dry-run", () => {
  test("names every secret variable the children inherit, and shows none of the values", async () => {
    const w = leakyWorld();
    const r = await runXcsh(
      ["run", "leaky", "--dry-run", `use ${SECRETS.DB_CREDENTIAL} to deploy`],
      { cwd: w.cwd, home: w.home, env: SECRETS },
    );
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    for (const name of ["DB_CREDENTIAL", "MY_API_TOKEN", "SMTP_PASS", "SERVICE_ID"]) {
      assert.ok(name in doc.inheritedSecrets, `${name} is not named`);
    }
    assert.deepEqual(leaked(r.stdout), [], "a value reached the dry run's output");
  });
});

describe("a child behind a launcher that sees another environment", () => {
  test("the parent still removes what it calls secret", async () => {
    // The far side lacks the variables, so the child cannot know their values.
    const unset = ["DB_CREDENTIAL", "MY_API_TOKEN", "SMTP_PASS", "SERVICE_ID"]
      .flatMap((n) => ["-u", n]);
    const w = leakyWorld(`task:\n  launcher: ${JSON.stringify(["env", ...unset])}\n`);
    server.script([]);
    respond((req) =>
      isAfterTool(req) ? { text: `done; ${SECRETS.DB_CREDENTIAL} ${SECRETS.SMTP_PASS}` } : {
        toolCalls: [{
          name: "bash",
          args: { command: `echo ${SECRETS.MY_API_TOKEN} ${SECRETS.SERVICE_ID}` },
        }],
      }
    );
    const r = await runXcsh(["run", "quick_task", "--output-format", "stream-json", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: SECRETS,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"tool":"bash"/);
    assert.deepEqual(leaked(r.stdout), [], "a value reached stream-json");
    const dir = join(w.home, ".local", "share", "xcsh", "sessions");
    const [file] = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
    assert.deepEqual(
      leaked(readFileSync(join(dir, file), "utf8")),
      [],
      "a value reached the session",
    );
  });
});
