// End-to-end tests of the CLI skeleton through the built binary (dist/xcsh):
// --version, --help, usage errors (one line, a hint, exit 2, no stack trace)
// and `agents --json` with a clean environment and no HOME at all.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { requireBinary, ROOT, runCommand, type RunResult, runXcsh } from "../support/cli.ts";

/** A stack trace line as V8/JSC print them. */
const STACK_LINE = /^\s{4}at /m;

function assertNoStackTrace(r: RunResult): void {
  assert.doesNotMatch(r.stderr, STACK_LINE, `stack trace on stderr:\n${r.stderr}`);
  assert.doesNotMatch(r.stdout, STACK_LINE, `stack trace on stdout:\n${r.stdout}`);
}

/** Runs dist/xcsh with exactly `env` (no PATH, nothing inherited), like `env -i`. */
function runBare(args: string[], env: Record<string, string>, cwd = ROOT): Promise<RunResult> {
  return runCommand(requireBinary(), args, { cwd, env });
}

// An empty working folder (no project agents) and an empty HOME, so that no
// agent of the machine running the tests can show up in a listing.
let scratch = "";
let cwd = "";
let home = "";
before(() => {
  scratch = mkdtempSync(join(tmpdir(), "xcsh-cli-"));
  cwd = join(scratch, "project");
  home = join(scratch, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("xcsh --version and --help", () => {
  test("--version prints the package version and the build target", async () => {
    const r = await runXcsh(["--version"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `xcsh ${pkg.version} (bun-linux-x64)\n`);
    assert.equal(r.stderr, "");
  });

  test("--help exits 0 and lists the commands on stdout", async () => {
    const r = await runXcsh(["--help"]);
    assert.equal(r.code, 0, r.stderr);
    for (
      const cmd of ["agents", "agents show", "agents check", "commands", "run", "mcp", "doctor"]
    ) {
      assert.match(r.stdout, new RegExp(`^\\s+xcsh ${cmd}\\b`, "m"), cmd);
    }
    assert.match(r.stdout, /--version/);
    assert.doesNotMatch(r.stdout, /__child/, "the child mode stays hidden");
    assert.equal(r.stderr, "");
  });

  test("no arguments: help on stderr, nothing on stdout, exit 2", async () => {
    const r = await runXcsh([]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /Usage:/);
    assert.match(r.stderr, /xcsh agents/);
  });

  test("agents --help exits 0 and lists its flags", async () => {
    const r = await runXcsh(["agents", "--help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /--json/);
    assert.match(r.stdout, /--all/);
  });
});

describe("usage errors: one line naming the problem, a hint, no stack trace", () => {
  const rows: {
    name: string;
    args: string[];
    code: number;
    /** The first stderr line. */
    error: RegExp;
    /** The hint line, when the error has one. */
    hint?: RegExp;
  }[] = [
    {
      name: "unknown command",
      args: ["frobnicate"],
      code: 2,
      error: /^xcsh: unknown command 'frobnicate'$/,
      hint: /xcsh --help/,
    },
    {
      name: "unknown top-level flag",
      args: ["--bogus"],
      code: 2,
      error: /^xcsh: unknown flag '--bogus'$/,
      hint: /xcsh --help/,
    },
    {
      name: "unknown flag of a command",
      args: ["agents", "--bogus"],
      code: 2,
      error: /^xcsh: agents: unknown flag '--bogus'$/,
      hint: /xcsh agents --help/,
    },
    {
      name: "flag that needs a value",
      args: ["agents", "--cwd"],
      code: 2,
      error: /^xcsh: agents: .*--cwd/,
      hint: /xcsh agents --help/,
    },
    {
      name: "unknown agents subcommand",
      args: ["agents", "frob"],
      code: 2,
      error: /^xcsh: agents: unknown subcommand 'frob'$/,
      hint: /xcsh agents --help/,
    },
    {
      name: "agents show without a name",
      args: ["agents", "show"],
      code: 2,
      error: /^xcsh: agents show: expected one agent NAME$/,
      hint: /xcsh agents/,
    },
    {
      name: "agents show with two names",
      args: ["agents", "show", "explore", "plan"],
      code: 2,
      error: /^xcsh: agents show: expected one agent NAME$/,
      hint: /xcsh agents/,
    },
    {
      // Not a usage error in the code: the name is well-formed but unknown (exit 1);
      // the list of available agents is the hint, on the same line.
      name: "agents show of an unknown agent",
      args: ["agents", "show", "nope"],
      code: 2,
      error:
        /^xcsh: Unknown agent "nope"\. Available: explore, plan, designer, reviewer, task, quick_task$/,
    },
  ];
  for (const row of rows) {
    test(`${row.name}: xcsh ${row.args.join(" ")}`, async () => {
      const r = await runXcsh(row.args, { cwd, home });
      assert.equal(r.code, row.code, r.stderr);
      assert.equal(r.stdout, "");
      assertNoStackTrace(r);
      const lines = r.stderr.trimEnd().split("\n");
      assert.match(lines[0], row.error);
      if (row.hint) {
        assert.equal(lines.length, 2, r.stderr);
        assert.match(lines[1], row.hint);
      } else {
        assert.equal(lines.length, 1, r.stderr);
      }
    });
  }
});

interface AgentJson {
  name: string;
  source: string;
  family: string;
  tools?: string[];
  spawns?: string[] | "*";
  model?: string[];
  thinkingLevel?: string;
  output?: unknown;
  systemPrompt?: string;
}

/** What each bundled agent lists, as documented (undefined = absent). */
const BUNDLED: Record<string, Pick<AgentJson, "tools" | "spawns" | "model" | "thinkingLevel">> = {
  explore: {
    tools: ["read", "grep", "find", "ls", "bash", "submit_result"],
    spawns: undefined,
    model: ["xcsh/smol"],
    thinkingLevel: "minimal",
  },
  plan: {
    tools: ["read", "grep", "find", "ls", "bash", "task", "submit_result"],
    spawns: ["explore"],
    model: ["xcsh/plan", "xcsh/slow"],
    thinkingLevel: "high",
  },
  designer: { tools: undefined, spawns: ["explore"], model: ["default"], thinkingLevel: undefined },
  reviewer: {
    tools: ["read", "grep", "find", "ls", "bash", "report_finding", "task", "submit_result"],
    spawns: ["explore", "task"],
    model: ["xcsh/slow"],
    thinkingLevel: "high",
  },
  task: { tools: undefined, spawns: "*", model: ["default"], thinkingLevel: "medium" },
  quick_task: {
    tools: undefined,
    spawns: undefined,
    model: ["xcsh/smol"],
    thinkingLevel: "minimal",
  },
};

/**
 * Checks a listing of the bundled agents. With `userAgentsAllowed` (no HOME:
 * the user folders come from the password database, which the test does not
 * control) other agents may precede them, but only from user folders.
 */
function assertBundledListing(r: RunResult, userAgentsAllowed = false): void {
  assert.equal(r.code, 0, r.stderr);
  assertNoStackTrace(r);
  const json = JSON.parse(r.stdout) as { version: number; agents: AgentJson[] };
  assert.equal(json.version, 1);
  if (userAgentsAllowed) {
    const others = json.agents.filter((a) => a.source !== "bundled");
    for (const a of others) assert.equal(a.source, "user", `${a.name} comes from a user folder`);
    json.agents = json.agents.filter((a) => a.source === "bundled");
  }
  assert.deepEqual(json.agents.map((a) => a.name), Object.keys(BUNDLED));
  for (const a of json.agents) {
    const e = BUNDLED[a.name];
    assert.deepEqual(a.tools, e.tools, `${a.name} tools`);
    assert.deepEqual(a.spawns, e.spawns, `${a.name} spawns`);
    assert.deepEqual(a.model, e.model, `${a.name} model`);
    assert.equal(a.thinkingLevel, e.thinkingLevel, `${a.name} thinkingLevel`);
    assert.equal(a.source, "bundled");
    assert.equal(a.family, "bundled");
    assert.equal(a.systemPrompt, undefined, "the listing leaves prompts out");
  }
  const withOutput = json.agents.filter((a) => a.output !== undefined).map((a) => a.name);
  assert.deepEqual(withOutput, ["explore", "reviewer"]);
}

describe("agents --json in a clean environment", () => {
  test("clean env (PATH only) and an empty HOME: exactly the bundled agents", async () => {
    assertBundledListing(await runXcsh(["agents", "--json"], { cwd, home }));
  });

  test("env -i with only HOME, pointing at a folder that does not exist", async () => {
    assertBundledListing(
      await runBare(["agents", "--json"], { HOME: join(scratch, "no-such-home") }, cwd),
    );
  });

  test("clean env (PATH only) and no HOME at all", async () => {
    assertBundledListing(await runXcsh(["agents", "--json"], { cwd }), true);
  });

  test("env -i: no variables at all", async () => {
    assertBundledListing(await runBare(["agents", "--json"], {}, cwd), true);
  });

  test("--version also works with no variables at all", async () => {
    const r = await runBare(["--version"], {});
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `xcsh ${pkg.version} (bun-linux-x64)\n`);
  });

  test("agents (table) lists every bundled agent, one per row", async () => {
    const r = await runXcsh(["agents"], { cwd, home });
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split("\n").slice(1);
    assert.deepEqual(rows.map((l) => l.split(/\s+/)[0]), Object.keys(BUNDLED));
    for (const row of rows) assert.match(row, /\bbundled\b/);
  });

  test("agents show explore --json includes the prompt and the output schema", async () => {
    const r = await runXcsh(["agents", "show", "explore", "--json"], { cwd, home });
    assert.equal(r.code, 0, r.stderr);
    const { version, agent } = JSON.parse(r.stdout) as { version: number; agent: AgentJson };
    assert.equal(version, 1);
    assert.equal(agent.name, "explore");
    assert.match(agent.systemPrompt ?? "", /submit_result/);
    assert.equal(typeof agent.output, "object");
  });
});

test("agents check: an output schema no validator accepts is an error naming the file and field", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-check-"));
  try {
    const file = join(dir, "bad-schema.md");
    writeFileSync(file, "---\nname: s\ndescription: d\noutput: {type: nope}\n---\nBody\n");
    const good = join(dir, "good-schema.md");
    writeFileSync(good, "---\nname: g\ndescription: d\noutput: {type: object}\n---\nBody\n");
    const r = await runXcsh(["agents", "check", file, good], { home: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^error: ${file.replace(/[.]/g, "\\.")}: output: output schema is not a valid JSON Schema`,
        "m",
      ),
    );
    assert.match(r.stdout, /^checked 2 files: 1 error, 0 warnings$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
