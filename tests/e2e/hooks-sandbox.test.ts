// End to end: where an agent's hooks run. A hook runs in the sandbox the
// agent's `bash` commands would get whether or not the agent has `bash`
// (`tools: Read`, `--plan`, `disallowedTools: Bash`, `permissionMode: plan`):
// a `git status` in a hook of a repository whose `.git/config` names a
// `core.fsmonitor` program cannot write outside the project nor read a key,
// a hook cannot write outside the project, and the script a hook runs from
// the project is read-only to the hook and to the agent's commands (as is
// the file an approved MCP server runs from the project). Without
// bubblewrap, hooks degrade as `bash` commands do: one warning, or a usage
// error when the mode was asked for. The tests that need bwrap say so when
// they are skipped.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { ROOT, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { ran, trappedRepo } from "../support/git-traps.ts";
import { outsideFolder } from "../support/outside-folder.ts";
import { isAfterTool, toolResults, type World } from "../support/world.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const linux = process.platform === "linux" ? false : "needs Linux";
const support = sandboxSupport(bwrapLocations(process.env), true);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server, respond } = harness;

/** A key a command must never see (its name marks it secret). */
const KEY = "ghp_hook-sandbox-0123456789abcdef";

interface Trap {
  w: World;
  /** Outside the project, visible (read-only) inside the sandbox. */
  marks: string;
  /** The hook's script, inside the project. */
  script: string;
  scriptText: string;
}

/**
 * A project that is a trapped repository (`core.fsmonitor` and friends
 * write into `marks`) with a hook script that runs `git status`, records
 * that it ran and its environment in the project, then tries to write
 * outside the project and to change itself.
 */
function trap(): Trap {
  const w = harness.world();
  const marks = harness.scratch(outsideFolder("xcsh-hook-marks-"));
  trappedRepo(w.root, w.cwd, marks);
  mkdirSync(join(w.cwd, "hooks"), { recursive: true });
  const script = join(w.cwd, "hooks", "check.sh");
  const scriptText = "#!/bin/sh\ncat > /dev/null\n" +
    `git status > /dev/null 2>&1\n` +
    `env > "${join(w.cwd, "hook-env")}"\n` +
    `touch "${join(marks, "hook-outside")}" 2>/dev/null\n` +
    `echo '# changed by the hook' >> "$0" 2>/dev/null\n` +
    "exit 0\n";
  writeFileSync(script, scriptText);
  chmodSync(script, 0o755);
  return { w, marks, script, scriptText };
}

/** A user agent (its hooks need no trust) with `fields` and `hooks` (YAML, indented two). */
function userAgent(w: World, name: string, fields: string, hooks: string): void {
  mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
  writeFileSync(
    join(w.home, ".claude", "agents", `${name}.md`),
    `---\nname: ${name}\ndescription: Hooked ${name}\n${fields}hooks:\n${hooks}---\nYou are ${name}.\n`,
  );
}

const hookYaml = (event: string, command: string, matcher?: string) =>
  `  ${event}:\n    - ${matcher ? `matcher: ${matcher}\n      ` : ""}hooks:\n` +
  `        - type: command\n          command: ${command}\n`;

/** What the trap left: nothing outside the project, the script unchanged, the hook ran. */
function assertContained(t: Trap, stderr: string): void {
  assert.ok(existsSync(join(t.w.cwd, "hook-env")), `the hook ran\n${stderr}`);
  assert.deepEqual(ran(t.marks), [], "no program of the repository ran on the host");
  assert.ok(!existsSync(join(t.marks, "hook-outside")), "the hook wrote outside the project");
  assert.equal(readFileSync(t.script, "utf8"), t.scriptText, "the hook's script is unchanged");
  assert.doesNotMatch(readFileSync(join(t.w.cwd, "hook-env"), "utf8"), new RegExp(KEY));
}

describe("hooks of an agent without bash run in the sandbox", { skip: needsBwrap }, () => {
  const variants: { name: string; fields: string; args: string[] }[] = [
    { name: "reader", fields: "tools: Read\n", args: [] },
    { name: "planner", fields: "tools: Read, Bash\n", args: ["--plan"] },
    { name: "nobash", fields: "tools: Read, Bash\ndisallowedTools: Bash\n", args: [] },
    { name: "planmode", fields: "tools: Read, Bash\npermissionMode: plan\n", args: [] },
  ];
  for (const v of variants) {
    test(`${[v.fields.trim().replace(/\n/g, ", "), ...v.args].join(" ")}: Stop hook`, async () => {
      const t = trap();
      userAgent(t.w, v.name, v.fields, hookYaml("Stop", t.script));
      server.script([{ text: "done" }]);
      const r = await runXcsh(["run", v.name, ...v.args, "go"], {
        cwd: t.w.cwd,
        home: t.w.home,
        env: { GITHUB_TOKEN: KEY },
      });
      assert.equal(r.code, 0, r.stderr);
      assertContained(t, r.stderr);
    });
  }

  test("tools: Read: PreToolUse hook named through $CLAUDE_PROJECT_DIR", async () => {
    const t = trap();
    userAgent(
      t.w,
      "reader",
      "tools: Read\n",
      hookYaml("PreToolUse", `'"$CLAUDE_PROJECT_DIR"/hooks/check.sh'`, "Read"),
    );
    server.script([]);
    respond((req) =>
      isAfterTool(req)
        ? { text: "done" }
        : { toolCalls: [{ name: "read", args: { path: "README.md" } }] }
    );
    const r = await runXcsh(["run", "reader", "go"], {
      cwd: t.w.cwd,
      home: t.w.home,
      env: { GITHUB_TOKEN: KEY },
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assertContained(t, r.stderr);
  });

  test("an agent with bash: neither the hook nor a command changes the hook's script", async () => {
    const t = trap();
    userAgent(t.w, "writer", "tools: Read, Bash\n", hookYaml("PreToolUse", t.script, "Bash"));
    server.script([]);
    respond((req) =>
      isAfterTool(req) ? { text: "done" } : {
        toolCalls: [{
          name: "bash",
          args: { command: `echo '# changed by a command' >> hooks/check.sh; echo x > mine.txt` },
        }],
      }
    );
    const r = await runXcsh(["run", "writer", "go"], {
      cwd: t.w.cwd,
      home: t.w.home,
      env: { GITHUB_TOKEN: KEY },
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assertContained(t, r.stderr);
    assert.equal(readFileSync(join(t.w.cwd, "mine.txt"), "utf8"), "x\n", "the project is writable");
  });
});

describe("the file tools and the scripts hooks run", () => {
  test("write and edit refuse a hook's script, with or without a sandbox", async () => {
    const w = harness.world();
    mkdirSync(join(w.cwd, "hooks"), { recursive: true });
    const script = join(w.cwd, "hooks", "guard.sh");
    const text = "#!/bin/sh\ncat > /dev/null\nexit 0\n";
    writeFileSync(script, text);
    chmodSync(script, 0o755);
    userAgent(w, "editor", "tools: Read, Write, Edit\n", hookYaml("PreToolUse", script, "Write"));
    server.script([]);
    let seen = "";
    respond((req) =>
      isAfterTool(req) ? { text: `saw: ${seen = toolResults(req)}` } : {
        toolCalls: [
          { name: "write", args: { path: "hooks/guard.sh", content: "#!/bin/sh\nexit 0\n" } },
          {
            name: "edit",
            args: { path: "hooks/guard.sh", old_string: "exit 0", new_string: "exit 1" },
          },
          { name: "write", args: { path: "notes.txt", content: "mine\n" } },
        ],
      }
    );
    const r = await runXcsh(["run", "editor", "--sandbox", "off", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(script, "utf8"), text, "the hook's script is unchanged");
    assert.equal(
      readFileSync(join(w.cwd, "notes.txt"), "utf8"),
      "mine\n",
      "other files are written",
    );
    assert.equal(seen.match(/hooks or MCP servers run: it is read-only/g)?.length, 2, seen);
  });
});

describe("the files an MCP server runs from the project", { skip: needsBwrap }, () => {
  test("are read-only to the agent's commands", async () => {
    const w = harness.world();
    mkdirSync(join(w.cwd, "mcp"));
    const file = join(w.cwd, "mcp", "server.mjs");
    copyFileSync(join(ROOT, "tests", "support", "mcp-fixture-server.mjs"), file);
    const before = readFileSync(file, "utf8");
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "served.md"),
      "---\nname: served\ndescription: d\ntools: Read, Bash, mcp__fix__*\nmcpServers:\n" +
        `  - fix:\n      command: node\n      args: ["${file}"]\n---\nGo.\n`,
    );
    server.script([]);
    respond((req) =>
      isAfterTool(req) ? { text: "done" } : {
        toolCalls: [{
          name: "bash",
          args: { command: "echo '// changed by a command' >> mcp/server.mjs; echo x > mine.txt" },
        }],
      }
    );
    const r = await runXcsh(["run", "served", "go"], { cwd: w.cwd, home: w.home });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /MCP server 'fix'/, "the server started");
    const after = readFileSync(file, "utf8");
    assert.ok(after === before, `the server's file is unchanged; it ends: ${after.slice(-60)}`);
    assert.equal(readFileSync(join(w.cwd, "mine.txt"), "utf8"), "x\n", "the project is writable");
  });
});

describe("hooks without bubblewrap degrade as bash commands do", { skip: linux }, () => {
  const noBwrap = { XCSH_NO_BWRAP: "1" };

  test("the default: one warning, the hook runs unsandboxed", async () => {
    const w = harness.world();
    const flag = join(w.cwd, "hook-ran");
    userAgent(w, "reader", "tools: Read\n", hookYaml("Stop", `touch ${flag}`));
    server.script([{ text: "done" }]);
    const r = await runXcsh(["run", "reader", "go"], { cwd: w.cwd, home: w.home, env: noBwrap });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(flag), "the hook ran");
    const warnings = r.stderr.match(/bash commands run unsandboxed/g) ?? [];
    assert.equal(warnings.length, 1, r.stderr);
  });

  test("--sandbox workspace-write: a usage error before any child starts", async () => {
    const w = harness.world();
    const flag = join(w.cwd, "hook-ran");
    userAgent(w, "reader", "tools: Read\n", hookYaml("Stop", `touch ${flag}`));
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "reader", "--sandbox", "workspace-write", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: noBwrap,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--sandbox workspace-write: bubblewrap \(bwrap\) is not installed/);
    assert.equal(server.requests.length, 0);
    assert.ok(!existsSync(flag), "the hook did not run");
    server.script([]);
  });
});
