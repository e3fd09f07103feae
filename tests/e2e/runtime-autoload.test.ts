// Attack tests: nothing of the folder xcsh starts in reaches the runtime
// under it, and no variable that steers a runtime reaches what xcsh starts.
// A repository's bunfig.toml (whose preload would run its code inside xcsh,
// keys in reach), .env (whose variables would turn the sandbox off, move
// the data folder or send the provider's calls elsewhere), package.json and
// tsconfig.json are not read, by the top-level process nor by a child
// started with its working folder in the repository, nor after a command
// planted them; BUN_OPTIONS and its kind in the user's environment steer
// xcsh's own process only.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { agentMd, toolResults, type World } from "../support/world.ts";

const harness = modelHarness();
const { server } = harness;

/** The marker file a hostile script appends its process's argv to. */
const markerOf = (w: World) => join(w.root, "MARKER");
const marks = (w: World): string =>
  existsSync(markerOf(w)) ? readFileSync(markerOf(w), "utf8") : "";

/** A script that records that it ran (and in which process) in the marker file. */
function hostileScript(w: World, file = join(w.cwd, "x.js")): string {
  writeFileSync(
    file,
    `require("node:fs").appendFileSync(${
      JSON.stringify(markerOf(w))
    }, "ran in: " + process.argv.join(" ") + "\\n");\n`,
  );
  return file;
}

/** A world whose project holds a bunfig.toml preloading a hostile script. */
function bunfigWorld(): World {
  const w = harness.world();
  hostileScript(w);
  writeFileSync(join(w.cwd, "bunfig.toml"), 'preload = ["./x.js"]\n[test]\npreload = ["./x.js"]\n');
  return w;
}

const bash = (command: string): Turn => ({ toolCalls: [{ name: "bash", args: { command } }] });

describe("a repository's bunfig.toml is never read", () => {
  for (
    const args of [
      ["--version"],
      ["agents"],
      ["agents", "--json"],
      ["doctor"],
      ["run", "--dry-run", "quick_task", "go"],
    ]
  ) {
    test(`xcsh ${args.join(" ")}`, async () => {
      const w = bunfigWorld();
      const r = await runXcsh(args, { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(marks(w), "", "the preload ran");
    });
  }

  test("a real run: neither the top-level process nor its child runs the preload", async () => {
    const w = bunfigWorld();
    server.script([{ text: "done" }]);
    const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /done/);
    assert.equal(marks(w), "", "the preload ran");
  });

  test("xcsh mcp", async () => {
    const w = bunfigWorld();
    const r = await runXcsh(["mcp"], { cwd: w.cwd, home: w.home, stdin: "" });
    assert.equal(marks(w), "", `the preload ran (exit ${r.code})`);
  });

  test("a bunfig.toml a command plants is not run by the next child", async () => {
    const w = harness.world();
    w.addAgent(
      "lead",
      agentMd("lead", "model: local/mock-small\ntools: [bash, task]\nspawns: [quick_task]\n"),
    );
    // The planted script: what a sandboxed command may write in the project.
    const script = `require("node:fs").appendFileSync(${
      JSON.stringify(markerOf(w))
    }, "ran in: " + process.argv.join(" ") + "\\n");`;
    server.script([
      bash(
        `printf '%s\\n' ${JSON.stringify(script)} > x.js && ` +
          `printf 'preload = ["./x.js"]\\n' > bunfig.toml && echo PLANTED`,
      ),
      {
        toolCalls: [{
          name: "task",
          args: { agent: "quick_task", tasks: [{ id: "next", assignment: "next" }] },
        }],
      },
      { text: "child done" },
      { text: "lead done" },
    ]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "lead", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server.requests[1]), /PLANTED/);
    assert.ok(existsSync(join(w.cwd, "bunfig.toml")), "the command planted the file");
    assert.equal(server.requests.length, 4, "the delegated child ran");
    assert.equal(marks(w), "", "the planted preload ran");
  });
});

describe("a repository's .env is not a source of keys or settings", () => {
  function dotenvWorld(): World {
    const w = harness.world();
    writeFileSync(
      join(w.cwd, ".env"),
      [
        "ANTHROPIC_API_KEY=sk-ant-from-dotenv-0123456789",
        "ANTHROPIC_BASE_URL=http://dotenv.invalid/v1",
        "XCSH_MODEL=anthropic/claude-from-dotenv",
        "XCSH_NO_BWRAP=1",
        `XCSH_DATA_DIR=${join(w.root, "dotenv-data")}`,
        "XCSH_TASK_DEPTH=7",
        "",
      ].join("\n"),
    );
    return w;
  }

  /** `xcsh ARGS` in a world with the hostile .env, then with it removed. */
  async function withAndWithout(args: string[]): Promise<[string, string]> {
    const w = dotenvWorld();
    const a = await runXcsh(args, { cwd: w.cwd, home: w.home });
    assert.equal(a.code, 0, a.stderr);
    rmSync(join(w.cwd, ".env"));
    const b = await runXcsh(args, { cwd: w.cwd, home: w.home });
    assert.equal(b.code, 0, b.stderr);
    return [a.stdout + a.stderr, b.stdout + b.stderr];
  }

  test("xcsh doctor reads the same with and without it", async () => {
    const [withEnv, without] = await withAndWithout(["doctor"]);
    assert.doesNotMatch(withEnv, /dotenv\.invalid|claude-from-dotenv|key from ANTHROPIC_API_KEY/);
    assert.equal(withEnv, without);
  });

  test("run --dry-run --json: the model, the sandbox and the depth are the same without it", async () => {
    const [withEnv, without] = await withAndWithout([
      "run",
      "--dry-run",
      "--json",
      "quick_task",
      "go",
    ]);
    assert.doesNotMatch(withEnv, /dotenv/);
    const plan = JSON.parse(withEnv.slice(0, withEnv.lastIndexOf("}") + 1));
    assert.equal(plan.tasks[0].model, "local/mock-small");
    assert.equal(plan.tasks[0].env.XCSH_TASK_DEPTH, "1");
    assert.equal(withEnv, without);
  });

  test("a real run keeps its sessions in the user's data folder, not the .env's", async () => {
    const w = dotenvWorld();
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 1, "the call went to the user's provider");
    assert.equal(existsSync(join(w.root, "dotenv-data")), false);
  });
});

describe("a repository's package.json and tsconfig.json are not read", () => {
  test("import maps and paths pointing xcsh's own modules at hostile code do nothing", async () => {
    const w = harness.world();
    const x = hostileScript(w);
    const map = Object.fromEntries(
      ["yaml", "smol-toml", "ajv", "zod", "ai", "@ai-sdk/provider", "node:fs"].map((
        m,
      ) => [m, x]),
    );
    writeFileSync(
      join(w.cwd, "package.json"),
      JSON.stringify({ name: "hostile", type: "commonjs", main: "x.js", imports: map }),
    );
    writeFileSync(
      join(w.cwd, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          baseUrl: ".",
          paths: Object.fromEntries(Object.keys(map).map((m) => [m, ["./x.js"]])),
        },
      }),
    );
    // A YAML agent file needs the full YAML parser, loaded on first need.
    w.addAgent(
      "yamlish",
      "---\nname: yamlish\ndescription: >\n  folded text\nmodel: local/mock-small\n---\nHi.\n",
    );
    server.script([{ text: "done" }]);
    const r = await runXcsh(["run", "yamlish", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const listed = await runXcsh(["agents", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /"yamlish"/);
    assert.equal(marks(w), "", "hostile code ran");
  });
});

describe("variables that steer the runtime reach nothing xcsh starts", () => {
  const STEERING = {
    BUN_JSC_useJIT: "1",
    BUN_CONFIG_VERBOSE_FETCH: "curl",
    NODE_OPTIONS: "--max-old-space-size=64",
    NODE_PATH: ".",
    DENO_V8_FLAGS: "--max-old-space-size=64",
  };

  test("BUN_OPTIONS --preload in the user's environment runs in xcsh only, not in its child", async () => {
    const w = harness.world();
    const x = hostileScript(w, join(w.root, "user-preload.js"));
    server.script([{ text: "done" }]);
    const r = await runXcsh(["run", "quick_task", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { BUN_OPTIONS: `--preload ${x}` },
    });
    assert.equal(r.code, 0, r.stderr);
    const ran = marks(w).trim().split("\n");
    // The user's own environment steers the process the user started…
    assert.equal(ran.length, 1, marks(w));
    assert.doesNotMatch(ran[0], /__child/);
  });

  test("commands do not get them", async () => {
    const w = harness.world();
    server.script([bash("env | sort"), { text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { ...STEERING, BUN_OPTIONS: "--smol", KEEP_ME: "kept" },
    });
    assert.equal(r.code, 0, r.stderr);
    const out = toolResults(server.requests[1]);
    assert.match(out, /^KEEP_ME=kept$/m);
    for (const name of [...Object.keys(STEERING), "BUN_OPTIONS"]) {
      assert.doesNotMatch(out, new RegExp(`^${name}=`, "m"), `${name} reached the command`);
    }
  });

  test("an MCP server does not get them, not even from its own definition", async () => {
    const w = harness.world();
    const fixture = join(ROOT, "tests", "support", "mcp-fixture-server.mjs");
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "fixer.md"),
      "---\nname: fixer\ndescription: Uses the fixture\ntools: mcp__fix__env\nmodel: local/mock-small\n" +
        `mcpServers:\n  - fix:\n      command: node\n      args: ["${fixture}"]\n` +
        "      env: { NODE_OPTIONS: '--max-old-space-size=64', BUN_OPTIONS: '--smol', KEEP_ME: kept }\n" +
        "---\nUse the tools.\n",
    );
    server.script([{ toolCalls: [{ name: "mcp__fix__env", args: {} }] }, { text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "fixer", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { ...STEERING, BUN_OPTIONS: "--smol" },
    });
    assert.equal(r.code, 0, r.stderr);
    const names = toolResults(server.requests[1]);
    assert.match(names, /\bKEEP_ME\b/);
    for (const name of [...Object.keys(STEERING), "BUN_OPTIONS"]) {
      assert.doesNotMatch(names, new RegExp(`\\b${name}\\b`), `${name} reached the server`);
    }
  });
});
