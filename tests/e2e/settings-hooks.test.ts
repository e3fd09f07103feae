// End to end: hooks where Claude Code users keep them (~/.claude/settings.json,
// a project's .claude/settings*.json, a plugin's hooks/hooks.json), written the
// way Claude Code's hooks docs show them (stdin JSON read with jq or python3),
// through the built binary against the scripted model server. Guards block as
// in Claude Code; the stdin a hook reads is Claude Code's contract; every
// answer (exit 2, deny, updatedInput, additionalContext, continue: false) and
// event (SessionStart, SubagentStart, UserPromptSubmit, SubagentStop) does
// what Claude Code does; a project's settings hooks wait for `xcsh trust`
// and stop running when the file changes after it.
//
// Needs `npm run build` first (npm test runs it), and jq and python3 (skipped
// with the reason when either is missing).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { isAfterTool, toolResults, type World } from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;
const world = (): World => harness.world();

/** Why the tests cannot run here (a program they need is missing), or false. */
function missingTools(): string | false {
  const gone = ["jq", "python3"].filter((p) => {
    try {
      execFileSync("sh", ["-c", `command -v ${p}`], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  return gone.length > 0 ? `needs ${gone.join(" and ")} (the hook scripts use them)` : false;
}
const skip = missingTools();

/**
 * Where a test keeps the scripts its settings name. Not `~/.claude/hooks`:
 * a test's home folder lies below /tmp, which a sandboxed command sees as
 * the task's own empty folder (a real home is visible, read-only).
 */
const hookDir = (w: World) => join(w.cwd, "hooks");

/** Writes an executable script into `dir` and returns its path. */
function script(dir: string, name: string, body: string, shebang = "#!/bin/bash"): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `${shebang}\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

type Groups = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;

/** A settings file holding `hooks` (and `extra` keys). */
function settings(path: string, hooks: Groups, extra: Record<string, unknown> = {}): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...extra, hooks }, null, 2));
}
const userSettings = (w: World) => join(w.home, ".claude", "settings.json");
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

/** A plain agent of the user's with `tools`. */
function agent(w: World, name: string, tools = "Read, Write, Edit, Bash, Glob, Grep"): void {
  mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
  writeFileSync(
    join(w.home, ".claude", "agents", `${name}.md`),
    `---\nname: ${name}\ndescription: Plain ${name}\ntools: ${tools}\n---\nYou are ${name}.\n`,
  );
}

/** The model calls `calls`, then answers with what it saw. */
function callThenEcho(calls: { name: string; args: unknown }[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : { toolCalls: calls });
}

const run = (w: World, args: string[]) => runXcsh(args, { cwd: w.cwd, home: w.home });

// The guards, as their authors write them for Claude Code.
const ENV_GUARD = `input=$(cat)
file=$(echo "$input" | jq -r '.tool_input.file_path // empty')
case "$file" in
  *.env|*/.env|.env) echo "Blocked: $file holds secrets" >&2; exit 2;;
esac
exit 0`;
const RM_GUARD_PY = `import json, re, sys
data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
if re.search(r"\\brm\\s+-[a-zA-Z]*r[a-zA-Z]*f|\\brm\\s+-[a-zA-Z]*f[a-zA-Z]*r", command):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf is not allowed here"}}))
sys.exit(0)`;
const EDIT_GUARD =
  `jq -e '.tool_input.replace_all == true and (.tool_input.file_path | test("lock"))' > /dev/null && {
  echo '{"decision": "block", "reason": "no bulk edits of lock files"}'
}
exit 0`;
// In the style of Anthropic's example command validator: rules over the command, exit 2.
const VALIDATOR_PY = `import json, re, sys
RULES = [(r"^grep\\b(?!.*\\|)", "Use 'rg' (ripgrep) instead of 'grep'")]
data = json.load(sys.stdin)
if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data["tool_input"].get("command", "")
issues = [m for p, m in RULES if re.search(p, command)]
if issues:
    for m in issues:
        print(f"• {m}", file=sys.stderr)
    sys.exit(2)`;
// In the style of a plugin's write validator: a JSON deny with a system message.
const WRITE_VALIDATOR = `input=$(cat)
file_path=$(echo "$input" | jq -r '.tool_input.file_path // empty')
if [[ "$file_path" == *".."* ]]; then
  echo '{"hookSpecificOutput": {"permissionDecision": "deny"}, "systemMessage": "Path traversal detected"}' >&2
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Path traversal detected"}}'
  exit 0
fi
exit 0`;
const RECORD = (file: string) => `cat >> "${file}"; echo >> "${file}"`;

function records(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) =>
    JSON.parse(l)
  );
}

describe("guards in ~/.claude/settings.json block as in Claude Code", { skip }, () => {
  test("six kinds of guards: every guarded call blocked, the others run", async () => {
    const w = world();
    const dir = hookDir(w);
    settings(userSettings(w), {
      PreToolUse: [
        { matcher: "Read|Write|Edit", hooks: [cmd(script(dir, "env-guard.sh", ENV_GUARD))] },
        {
          matcher: "Bash",
          hooks: [cmd(`python3 ${script(dir, "rm-guard.py", RM_GUARD_PY, "")}`)],
        },
        { matcher: "Edit", hooks: [cmd(script(dir, "lock-guard.sh", EDIT_GUARD))] },
        {
          matcher: "Bash",
          hooks: [cmd(`python3 ${script(dir, "validator.py", VALIDATOR_PY, "")}`)],
        },
        { matcher: "Write|Edit", hooks: [cmd(script(dir, "write-guard.sh", WRITE_VALIDATOR))] },
      ],
    });
    mkdirSync(join(w.cwd, "build"));
    writeFileSync(join(w.cwd, "build", "out.txt"), "keep\n");
    writeFileSync(join(w.cwd, ".env"), "TOKEN=abc\n");
    writeFileSync(join(w.cwd, "pkg.lock"), "a a\n");
    agent(w, "worker");
    callThenEcho([
      { name: "bash", args: { command: "rm -rf build" } },
      { name: "read", args: { path: ".env" } },
      { name: "write", args: { path: ".env", content: "TOKEN=stolen\n" } },
      { name: "edit", args: { path: ".env", old_string: "abc", new_string: "x" } },
      { name: "edit", args: { path: "pkg.lock", old_string: "a", new_string: "b", all: true } },
      { name: "bash", args: { command: "grep -r TOKEN ." } },
      { name: "write", args: { path: "build/../escaped.txt", content: "x\n" } },
      { name: "bash", args: { command: "echo allowed-ran" } },
    ]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(existsSync(join(w.cwd, "build", "out.txt")), "rm -rf did not run");
    assert.equal(readFileSync(join(w.cwd, ".env"), "utf8"), "TOKEN=abc\n", ".env unchanged");
    assert.equal(readFileSync(join(w.cwd, "pkg.lock"), "utf8"), "a a\n", "lock file unchanged");
    assert.doesNotMatch(seen, /TOKEN=abc/, ".env was not read");
    assert.equal(seen.match(/holds secrets/g)?.length, 3, seen);
    assert.match(seen, /rm -rf is not allowed here/);
    assert.match(seen, /no bulk edits of lock files/);
    assert.match(seen, /Use 'rg' \(ripgrep\) instead of 'grep'/);
    assert.match(seen, /blocked by a PreToolUse hook: Path traversal detected/);
    assert.ok(!existsSync(join(w.cwd, "escaped.txt")), "the traversal write did not run");
    assert.match(seen, /allowed-ran/);
  });

  test("a lower-case matcher never fires (matchers are Claude Code's names)", async () => {
    const w = world();
    const flag = join(w.cwd, "fired");
    const fire = `cat > /dev/null; touch "${flag}"`;
    settings(userSettings(w), { PreToolUse: [{ matcher: "bash", hooks: [cmd(fire)] }] });
    // The same matcher in an agent file (where xcsh once matched its own names too).
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "worker.md"),
      `---\nname: worker\ndescription: d\ntools: Bash\nhooks:\n  PreToolUse:\n` +
        `    - matcher: bash\n      hooks:\n        - type: command\n          command: ${
          JSON.stringify(fire)
        }\n---\nGo.\n`,
    );
    callThenEcho([{ name: "bash", args: { command: "echo hi" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(flag), "matcher 'bash' selected nothing");
  });
});

describe("what a hook reads on stdin", { skip }, () => {
  test("Claude Code's names and fields, a real transcript, per-tool tool_response", async () => {
    const w = world();
    const log = join(w.cwd, "events.jsonl");
    const rec = cmd(RECORD(log));
    settings(userSettings(w), {
      SessionStart: [{ hooks: [rec] }],
      SubagentStart: [{ hooks: [rec] }],
      UserPromptSubmit: [{ hooks: [rec] }],
      PreToolUse: [{ matcher: "*", hooks: [rec] }],
      PostToolUse: [{ matcher: "", hooks: [rec] }],
      SubagentStop: [{ hooks: [rec] }],
    });
    writeFileSync(join(w.cwd, "notes.txt"), "one\ntwo\nthree\n");
    agent(w, "worker");
    callThenEcho([
      { name: "read", args: { path: "notes.txt", start_line: 2, end_line: 3 } },
      { name: "bash", args: { command: "echo out" } },
    ]);
    const r = await run(w, ["run", "worker", "the assignment"]);
    assert.equal(r.code, 0, r.stderr);
    const events = records(log);
    assert.deepEqual(events.map((e) => e.hook_event_name), [
      "SessionStart",
      "SubagentStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "PostToolUse",
      "SubagentStop",
    ]);
    for (const e of events) {
      assert.equal(e.agent_type, "worker");
      assert.equal(typeof e.agent_id, "string");
      assert.equal(e.permission_mode, "dontAsk");
      assert.equal(e.cwd, w.cwd);
      assert.ok(String(e.session_id).length > 0);
      assert.ok(existsSync(String(e.transcript_path)), `transcript ${e.transcript_path}`);
      assert.match(
        readFileSync(String(e.transcript_path), "utf8"),
        new RegExp(String(e.session_id)),
      );
    }
    assert.equal(events[0].source, "startup");
    assert.equal(events[2].prompt, "the assignment");
    const [readPre, readPost, bashPre, bashPost] = events.slice(3, 7);
    assert.equal(readPre.tool_name, "Read");
    assert.deepEqual(readPre.tool_input, { file_path: "notes.txt", offset: 2, limit: 2 });
    assert.equal(typeof readPre.tool_use_id, "string");
    assert.equal(readPost.tool_use_id, readPre.tool_use_id);
    const file = (readPost.tool_response as { file: Record<string, unknown> }).file;
    assert.equal(file.filePath, "notes.txt");
    assert.match(String(file.content), /two/);
    assert.equal(bashPre.tool_name, "Bash");
    assert.deepEqual(bashPre.tool_input, { command: "echo out", description: "" });
    const resp = bashPost.tool_response as Record<string, unknown>;
    assert.match(String(resp.stdout), /out/);
    assert.equal(resp.interrupted, false);
    assert.equal(events[7].stop_hook_active, false);
  });
});

describe("SessionStart on resume", { skip }, () => {
  test("a resumed session's hooks read source: resume", async () => {
    const w = world();
    const log = join(w.cwd, "starts.jsonl");
    settings(userSettings(w), { SessionStart: [{ hooks: [cmd(RECORD(log))] }] });
    agent(w, "worker");
    server.script([{ text: "first" }, { text: "again" }]);
    server.requests.length = 0;
    const first = await run(w, ["run", "--json", "worker", "go"]);
    assert.equal(first.code, 0, first.stderr);
    const session = JSON.parse(first.stdout).results[0].session;
    assert.equal(typeof session, "string", first.stdout);
    const again = await run(w, ["run", "--resume", session, "more"]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(records(log).map((e) => e.source), ["startup", "resume"]);
    assert.deepEqual(records(log).map((e) => e.session_id), [session, session]);
  });
});

describe("answers", { skip }, () => {
  test("updatedInput replaces the input, mapped back to xcsh's names", async () => {
    const w = world();
    const dir = hookDir(w);
    const redirect = script(
      dir,
      "redirect.sh",
      `jq '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow",
        updatedInput: (.tool_input | .file_path = "safe.txt")}}'`,
    );
    settings(userSettings(w), { PreToolUse: [{ matcher: "Write", hooks: [cmd(redirect)] }] });
    agent(w, "worker");
    callThenEcho([{ name: "write", args: { path: "target.txt", content: "hello\n" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(join(w.cwd, "target.txt")), "the original input did not run");
    assert.equal(readFileSync(join(w.cwd, "safe.txt"), "utf8"), "hello\n");
  });

  test("an updatedInput the tool cannot take is checked again and refused", async () => {
    const w = world();
    settings(userSettings(w), {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [cmd(
          `cat > /dev/null; echo '{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": 5}}}'`,
        )],
      }],
    });
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "echo original-ran" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.match(seen, /invalid arguments for bash/);
    assert.doesNotMatch(seen, /original-ran/);
  });

  test("additionalContext of PreToolUse and PostToolUse reaches the model", async () => {
    const w = world();
    const say = (event: string, text: string) =>
      cmd(
        `cat > /dev/null; echo '{"hookSpecificOutput": {"hookEventName": "${event}", "additionalContext": "${text}"}}'`,
      );
    settings(userSettings(w), {
      PreToolUse: [{ matcher: "Bash", hooks: [say("PreToolUse", "PRE-CONTEXT")] }],
      PostToolUse: [{ matcher: "Bash", hooks: [say("PostToolUse", "POST-CONTEXT")] }],
      SessionStart: [{ hooks: [cmd("cat > /dev/null; echo START-CONTEXT")] }],
    });
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "echo ran" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.match(seen, /ran[\s\S]*PRE-CONTEXT[\s\S]*POST-CONTEXT/);
    assert.match(JSON.stringify(server.requests[0].body.messages), /START-CONTEXT/);
  });

  test("continue: false ends the task with status stopped and the reason", async () => {
    const w = world();
    settings(userSettings(w), {
      PostToolUse: [{
        matcher: "Bash",
        hooks: [cmd(
          `cat > /dev/null; echo '{"continue": false, "stopReason": "build is red", "suppressOutput": true}'`,
        )],
      }],
    });
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "echo ran" } }]);
    const r = await run(w, ["run", "--json", "worker", "go"]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    const result = out.results?.[0] ?? out;
    assert.equal(result.status, "stopped", r.stdout);
    assert.match(result.error, /build is red/);
    assert.equal(server.requests.length, 1, "no model call after the stop");
  });

  test("UserPromptSubmit exit 2 blocks the assignment: the model is never called", async () => {
    const w = world();
    settings(userSettings(w), {
      UserPromptSubmit: [{
        hooks: [cmd(
          `jq -r .prompt | grep -q password && { echo "no passwords in prompts" >&2; exit 2; }; exit 0`,
        )],
      }],
    });
    agent(w, "worker");
    callThenEcho([]);
    const r = await run(w, ["run", "worker", "my password is hunter2"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /blocked by a UserPromptSubmit hook: no passwords in prompts/);
    assert.equal(server.requests.length, 0);
  });

  test("SubagentStop exit 2 sends the agent back; a settings Stop is the main session's", async () => {
    const w = world();
    const marker = join(w.cwd, "once");
    const stopFlag = join(w.cwd, "main-stop-ran");
    settings(userSettings(w), {
      SubagentStop: [{
        hooks: [cmd(
          `cat > /dev/null; [ -e "${marker}" ] && exit 0; touch "${marker}"; echo "run the tests" >&2; exit 2`,
        )],
      }],
      Stop: [{ hooks: [cmd(`cat > /dev/null; touch "${stopFlag}"`)] }],
    });
    agent(w, "worker");
    server.script([{ text: "first" }, { text: "second" }]);
    server.requests.length = 0;
    respond(() => ({ text: "unexpected" }));
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "second\n");
    assert.match(
      JSON.stringify(server.requests[1].body.messages),
      /a Stop hook says: run the tests/,
    );
    assert.ok(!existsSync(stopFlag), "Stop of a settings file is not a task's");
  });
});

describe("bad input", { skip }, () => {
  test("a settings file that is not JSON: one line naming it, the run goes on", async () => {
    const w = world();
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    writeFileSync(userSettings(w), "{ not json");
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "echo ran" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split("\n").filter((l) => l.includes("settings.json"));
    assert.ok(lines.some((l) => /settings\.json: .*hooks are not run/.test(l)), r.stderr);
    assert.match(toolResults(server.requests.at(-1)!), /ran/);
  });

  test("prompt and http hooks are named and not run; command hooks beside them run", async () => {
    const w = world();
    const flag = join(w.cwd, "command-ran");
    settings(userSettings(w), {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [
          { type: "prompt", prompt: "Is this safe?" },
          { type: "http", url: "http://127.0.0.1:9/hook" },
          cmd(`cat > /dev/null; touch "${flag}"`),
        ],
      }],
    });
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "echo ran" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /hooks\.PreToolUse\[0\]\.hooks\[0\]'? is a 'prompt' hook/);
    assert.match(r.stderr, /hooks\.PreToolUse\[0\]\.hooks\[1\]'? is a 'http' hook/);
    assert.ok(existsSync(flag));
  });
});

describe("plugins", { skip }, () => {
  test("an installed plugin's hooks/hooks.json runs, with CLAUDE_PLUGIN_ROOT", async () => {
    const w = world();
    const root = join(w.home, "plugin-root");
    script(join(root, "hooks"), "guard.sh", ENV_GUARD);
    writeFileSync(
      join(root, "hooks", "hooks.json"),
      JSON.stringify({
        description: "env guard",
        hooks: {
          PreToolUse: [{
            matcher: "Write",
            hooks: [cmd("${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh")],
          }],
        },
      }),
    );
    mkdirSync(join(w.home, ".claude", "plugins"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({ version: 2, plugins: { "g@m": [{ scope: "user", installPath: root }] } }),
    );
    agent(w, "worker");
    callThenEcho([{ name: "write", args: { path: ".env", content: "X=1\n" } }]);
    // The plugin lies in the test's home below /tmp (see hookDir): no sandbox here.
    const r = await run(w, ["run", "--sandbox", "off", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(join(w.cwd, ".env")));
    assert.match(toolResults(server.requests.at(-1)!), /holds secrets/);
    const doctor = await run(w, ["doctor"]);
    assert.match(doctor.stdout, /plugin g@m +.*hooks\.json +active \(PreToolUse: 1\)/);
  });
});

describe("Codex hooks.json", { skip }, () => {
  test("the user's ~/.codex/hooks.json runs; a project's .codex/hooks.json waits for trust", async () => {
    const w = world();
    const guard = script(hookDir(w), "rm-guard.py", RM_GUARD_PY, "");
    settings(join(w.home, ".codex", "hooks.json"), {
      PreToolUse: [{ matcher: "Bash", hooks: [cmd(`python3 ${guard}`)] }],
    });
    const flag = join(w.cwd, "codex-project-ran");
    settings(join(w.cwd, ".codex", "hooks.json"), {
      PreToolUse: [{ hooks: [cmd(`cat > /dev/null; touch "${flag}"`)] }],
    });
    mkdirSync(join(w.cwd, "build"));
    agent(w, "worker");
    callThenEcho([{ name: "bash", args: { command: "rm -rf build" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(w.cwd, "build")), "rm -rf did not run");
    assert.match(toolResults(server.requests.at(-1)!), /rm -rf is not allowed here/);
    assert.ok(!existsSync(flag), "the untrusted project's Codex hook did not run");
    assert.equal((await run(w, ["trust", w.cwd])).code, 0);
    callThenEcho([{ name: "bash", args: { command: "echo hi" } }]);
    assert.equal((await run(w, ["run", "worker", "go"])).code, 0);
    assert.ok(existsSync(flag), "after trust it runs");
  });
});

describe("a project's settings hooks and trust", { skip }, () => {
  const setUp = () => {
    const w = world();
    const flag = join(w.cwd, "project-hook-ran");
    const hook = cmd(`cat > /dev/null; touch "${flag}"`);
    settings(join(w.cwd, ".claude", "settings.json"), {
      PreToolUse: [{ matcher: "Bash", hooks: [hook] }],
    });
    agent(w, "worker");
    return { w, flag };
  };

  test("an untrusted project's settings hooks never run; after xcsh trust they do", async () => {
    const { w, flag } = setUp();
    const localFlag = join(w.cwd, "local-hook-ran");
    settings(join(w.cwd, ".claude", "settings.local.json"), {
      PreToolUse: [{ hooks: [cmd(`cat > /dev/null; touch "${localFlag}"`)] }],
    });
    callThenEcho([{ name: "bash", args: { command: "echo hi" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(flag), "the untrusted project's hook did not run");
    assert.ok(!existsSync(localFlag), "nor its local settings' hook");
    assert.match(r.stderr, /settings\.json: .*not run: the project is not trusted/);
    const before = await run(w, ["doctor"]);
    assert.match(
      before.stdout,
      /project settings +.*settings\.json +skipped: the project is not trusted/,
    );

    const t = await run(w, ["trust", w.cwd]);
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /Trusted hooks of .*\.claude\/settings\.json/);
    callThenEcho([{ name: "bash", args: { command: "echo hi" } }]);
    const again = await run(w, ["run", "worker", "go"]);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(flag), "the trusted project's hook ran");
    assert.ok(existsSync(localFlag), "and its local settings' hook");
    const after = await run(w, ["doctor"]);
    assert.match(after.stdout, /project settings +.*settings\.json +active \(PreToolUse: 1\)/);
  });

  test("a trusted project whose settings file changed after trust: its hooks do not run", async () => {
    const { w, flag } = setUp();
    assert.equal((await run(w, ["trust", w.cwd])).code, 0);
    const evil = join(w.cwd, "evil-ran");
    settings(join(w.cwd, ".claude", "settings.json"), {
      PreToolUse: [{ hooks: [cmd(`cat > /dev/null; touch "${evil}"`)] }],
    });
    callThenEcho([{ name: "bash", args: { command: "echo hi" } }]);
    const r = await run(w, ["run", "worker", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(evil), "the changed file's hook did not run");
    assert.ok(!existsSync(flag));
    assert.match(r.stderr, /not run: the project is not trusted with this file's content/);
  });
});
