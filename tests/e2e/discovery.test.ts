// End-to-end tests of agent and command discovery
// through the built binary, on the committed fixture trees materialized in a
// temp folder (tests/support/fixtures.ts):
//
// - fixtures/world: every precedence rule on one tree, HOME = <root>/home and
//   cwd = <root>/home/work/repo/src/deep/cwd (cwd inside HOME);
// - fixtures/plugins-v1: a version-1 installed_plugins.json;
// - fixtures/env-dirs: CLAUDE_CONFIG_DIR and CODEX_HOME pointing elsewhere,
//   and an empty nearer folder that still wins for its family.
//
// Every listing is asserted complete and in order: one line per agent,
// "name source family[/plugin] file-relative-to-root".
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, type RunResult, runXcsh, runXcshJson } from "../support/cli.ts";
import { type Materialized, materializeFixture, rel } from "../support/fixtures.ts";

interface Listed {
  name: string;
  source: string;
  family: string;
  plugin?: string;
  filePath?: string;
  tools?: string[];
  thinkingLevel?: string;
  model?: string[];
  shadowedBy?: Listed;
}

interface AgentsDoc {
  version: number;
  agents: Listed[];
  shadowed?: Listed[];
}

const BUNDLED = ["explore", "plan", "designer", "reviewer", "task", "quick_task"];
const STACK_LINE = /^\s{4}at /m;

/** One agent as a line: `name source family[/plugin] file` (file relative to root). */
function line(root: string, a: Listed): string {
  const fam = a.plugin ? `${a.family}/${a.plugin}` : a.family;
  return `${a.name} ${a.source} ${fam} ${a.filePath ? rel(root, a.filePath) : "(built in)"}`;
}

/** Bundled agents, as listed when not shadowed. */
function bundledLines(except: string[] = []): string[] {
  return BUNDLED.filter((n) => !except.includes(n)).map((n) => `${n} bundled bundled (built in)`);
}

function assertClean(r: RunResult): void {
  assert.equal(r.code, 0, `exit ${r.code}\nstderr: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, STACK_LINE);
}

// ---------------------------------------------------------------------------
// fixtures/world
// ---------------------------------------------------------------------------

const REPO = "home/work/repo";
const PLUG = "home/.claude/plugins/cache/mkt";
const DEEP_CWD = `${REPO}/src/deep/cwd`;

/** The complete, ordered result from the deep cwd of the world tree. */
const WORLD_AGENTS = [
  // xcsh: nearest project folder, byte order of file names
  `p-xcsh project xcsh ${REPO}/.xcsh/agents/p-xcsh.md`,
  `shared project xcsh ${REPO}/.xcsh/agents/shared.md`,
  `task project xcsh ${REPO}/.xcsh/agents/task.md`,
  // xcsh user (~/.xcsh/agent/agents): shared.md lost to the project one
  `u-xcsh user xcsh home/.xcsh/agent/agents/u-xcsh.md`,
  // claude project: `Task.md` sorts before `p-claude.md` (byte order), and
  // `Task` is not `task`
  `Task project claude ${REPO}/.claude/agents/Task.md`,
  `p-claude project claude ${REPO}/.claude/agents/p-claude.md`,
  // claude user: Task and shared lost; ~/.claude is "user" though cwd is under HOME
  `u-claude user claude home/.claude/agents/u-claude.md`,
  // codex: TOML in the project, .md and .toml mixed in byte order in the user folder
  `p-codex project codex ${REPO}/.codex/agents/p-codex.toml`,
  `u-codex-md user codex home/.codex/agents/u-codex-md.md`,
  `u-codex user codex home/.codex/agents/u-codex.toml`,
  // gemini: the repo has no .gemini, so the nearest is above the git root;
  // then ~/.gemini/agents, then ~/.config/gemini-cli/agents
  `above-git project gemini home/work/.gemini/agents/above-git.md`,
  `u-gemini user gemini home/.gemini/agents/u-gemini.md`,
  `u-gemini-cli user gemini home/.config/gemini-cli/agents/u-gemini-cli.md`,
  // plugins: project-scoped installs (project, local) first, then user, file order
  `plug-proj project plugin/proj-plug@mkt ${PLUG}/proj-plug/2.0.0/agents/plug-proj.md`,
  `plug-local project plugin/local-plug@mkt ${PLUG}/local-plug/1.0.0/agents/plug-local.md`,
  `plan user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/agents/plan.md`,
  `plug-user user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/agents/plug-user.md`,
  `plug-late user plugin/user-late@mkt ${PLUG}/user-late/1.0.0/agents/plug-late.md`,
  `plug-reenabled user plugin/reenabled@mkt ${PLUG}/reenabled/1.0.0/agents/plug-reenabled.md`,
  `plug-multi user plugin/multi@mkt ${PLUG}/multi/1.0.0/agents/plug-multi.md`,
  // bundled minus the shadowed `plan` and `task`
  ...bundledLines(["plan", "task"]),
];

/** Every shadowing, in discovery order: "loser <= winner". */
const WORLD_SHADOWED = [
  `shared user xcsh home/.xcsh/agent/agents/shared.md <= ${REPO}/.xcsh/agents/shared.md`,
  `shared project claude ${REPO}/.claude/agents/shared.md <= ${REPO}/.xcsh/agents/shared.md`,
  `Task user claude home/.claude/agents/Task.md <= ${REPO}/.claude/agents/Task.md`,
  `shared user claude home/.claude/agents/shared.md <= ${REPO}/.xcsh/agents/shared.md`,
  `shared user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/agents/shared.md <= ${REPO}/.xcsh/agents/shared.md`,
  `plug-user user plugin/user-late@mkt ${PLUG}/user-late/1.0.0/agents/plug-user.md <= ${PLUG}/user-plug/1.0.0/agents/plug-user.md`,
  `plan bundled bundled (built in) <= ${PLUG}/user-plug/1.0.0/agents/plan.md`,
  `task bundled bundled (built in) <= ${REPO}/.xcsh/agents/task.md`,
];

/** Agents of the world tree that must never be listed, whatever the cwd. */
const NEVER = ["far-claude", "home-decoy", "plug-other-proj", "plug-off-entry", "plug-multi-v2"];

describe("agents on fixtures/world (cwd deep inside a repo under HOME)", () => {
  let fx: Materialized;
  let home: string;
  let cwd: string;
  before(() => {
    fx = materializeFixture("world");
    home = join(fx.root, "home");
    cwd = join(fx.root, DEEP_CWD);
  });
  after(() => fx.cleanup());

  test("agents --json lists the complete result in precedence order", async () => {
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--json"], { home, cwd });
    assertClean(result);
    assert.equal(result.stderr, "", "a good tree gives no warnings");
    assert.equal(json.version, 1);
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), WORLD_AGENTS);
    assert.equal(json.shadowed, undefined, "shadowed rows only with --all");
  });

  test("agents --all --json explains every shadowing with shadowedBy", async () => {
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--all", "--json"], {
      home,
      cwd,
    });
    assertClean(result);
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), WORLD_AGENTS);
    assert.deepEqual(
      json.shadowed!.map((s) => {
        const by = s.shadowedBy!;
        assert.equal(by.name, s.name, "only an exact name shadows");
        return `${line(fx.root, s)} <= ${by.filePath ? rel(fx.root, by.filePath) : "(built in)"}`;
      }),
      WORLD_SHADOWED,
    );
    // Every winner named by shadowedBy is a listed agent, with the same fields.
    const listed = new Set(json.agents.map((a) => line(fx.root, a)));
    for (const s of json.shadowed!) assert.ok(listed.has(line(fx.root, s.shadowedBy!)));
  });

  test("agents --all (table) prints each shadowed row under its winner", async () => {
    const r = await runXcsh(["agents", "--all"], { home, cwd });
    assertClean(r);
    const rows = r.stdout.trimEnd().split("\n").slice(1).map((l) => l.split(/\s{2,}/));
    const shadowRows = rows.filter((cells) => cells.length === 5);
    assert.equal(shadowRows.length, WORLD_SHADOWED.length);
    assert.ok(
      rows.some((c) =>
        c[0] === "Task" && c[1] === "user" && c[3] === "~/.claude/agents/Task.md" &&
        c[4] === "shadowed by ~/work/repo/.claude/agents/Task.md"
      ),
      r.stdout,
    );
    assert.ok(
      rows.some((c) =>
        c[0] === "task" && c[1] === "bundled" && c[3] === "(built in)" &&
        c[4] === "shadowed by ~/work/repo/.xcsh/agents/task.md"
      ),
      r.stdout,
    );
    // A shadowed row follows its winner's row directly (or another loser of it).
    const planAt = rows.findIndex((c) => c[0] === "plan" && c[1] === "user");
    assert.deepEqual(rows[planAt + 1].slice(0, 2), ["plan", "bundled"]);
  });

  test("--cwd DIR gives the same result as running in DIR", async () => {
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--json", "--cwd", cwd], {
      home,
      cwd: ROOT,
    });
    assertClean(result);
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), WORLD_AGENTS);
  });

  test("field mapping survives discovery: Codex TOML, Claude and Gemini tool names", async () => {
    const { json } = await runXcshJson<AgentsDoc>(["agents", "--json"], { home, cwd });
    const by = new Map(json.agents.map((a) => [a.name, a]));
    assert.deepEqual(by.get("p-codex")!.tools, ["read", "grep", "find", "ls", "submit_result"]);
    assert.equal(by.get("p-codex")!.thinkingLevel, "high");
    assert.deepEqual(by.get("p-codex")!.model, ["gpt-5-codex"]);
    assert.equal(by.get("u-codex")!.thinkingLevel, "off", "effort none → off");
    assert.equal(by.get("u-codex")!.tools, undefined, "workspace-write keeps all tools");
    assert.deepEqual(by.get("u-claude")!.tools, ["read", "grep", "find", "submit_result"]);
    assert.deepEqual(by.get("u-gemini")!.tools, ["read", "grep", "submit_result"]);
    assert.deepEqual(by.get("task")!.tools, ["read", "grep", "submit_result"]);
  });

  test("agents show prints the winner in full and what it shadows", async () => {
    const codex = await runXcshJson<{ agent: Listed & { systemPrompt: string } }>(
      ["agents", "show", "p-codex", "--json"],
      { home, cwd },
    );
    assertClean(codex.result);
    assert.equal(
      codex.json.agent.systemPrompt,
      "You are p-codex, defined in a project .codex/agents TOML file.",
    );
    const shared = await runXcshJson<{ agent: Listed; shadows: Listed[] }>(
      ["agents", "show", "shared", "--json"],
      { home, cwd },
    );
    assertClean(shared.result);
    assert.equal(rel(fx.root, shared.json.agent.filePath!), `${REPO}/.xcsh/agents/shared.md`);
    assert.deepEqual(shared.json.shadows.map((s) => rel(fx.root, s.filePath!)), [
      "home/.xcsh/agent/agents/shared.md",
      `${REPO}/.claude/agents/shared.md`,
      "home/.claude/agents/shared.md",
      `${PLUG}/user-plug/1.0.0/agents/shared.md`,
    ]);
    // Exact, case-sensitive lookup: `TASK` is nobody.
    const none = await runXcsh(["agents", "show", "TASK"], { home, cwd });
    assert.equal(none.code, 2, "an unknown name is a usage error");
    assert.match(none.stderr, /Unknown agent "TASK"/);
  });

  test("cwd under HOME but in no project: HOME's folders are user folders, once", async () => {
    const expected = [
      "shared user xcsh home/.xcsh/agent/agents/shared.md",
      "u-xcsh user xcsh home/.xcsh/agent/agents/u-xcsh.md",
      "Task user claude home/.claude/agents/Task.md",
      "u-claude user claude home/.claude/agents/u-claude.md",
      "u-codex-md user codex home/.codex/agents/u-codex-md.md",
      "u-codex user codex home/.codex/agents/u-codex.toml",
      "u-gemini user gemini home/.gemini/agents/u-gemini.md",
      "u-gemini-cli user gemini home/.config/gemini-cli/agents/u-gemini-cli.md",
      // No project here: proj-plug and local-plug are out; the repo's settings
      // are not read, so reenabled stays disabled and off-local is in.
      `plan user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/agents/plan.md`,
      `plug-user user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/agents/plug-user.md`,
      `plug-late user plugin/user-late@mkt ${PLUG}/user-late/1.0.0/agents/plug-late.md`,
      `plug-off-local user plugin/off-local@mkt ${PLUG}/off-local/1.0.0/agents/plug-off-local.md`,
      `plug-multi user plugin/multi@mkt ${PLUG}/multi/1.0.0/agents/plug-multi.md`,
      ...bundledLines(["plan"]),
    ];
    for (const dir of ["home/notes", "home"]) {
      const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--json"], {
        home,
        cwd: join(fx.root, dir),
      });
      assertClean(result);
      assert.deepEqual(json.agents.map((a) => line(fx.root, a)), expected, `cwd ${dir}`);
    }
  });

  test("decoys are never listed, from any cwd below the repo or in HOME", async () => {
    for (const dir of [DEEP_CWD, `${REPO}/src`, REPO, "home/notes", "home"]) {
      const { json } = await runXcshJson<AgentsDoc>(["agents", "--all", "--json"], {
        home,
        cwd: join(fx.root, dir),
      });
      const names = [...json.agents, ...json.shadowed!].map((a) => a.name);
      for (const never of NEVER) assert.ok(!names.includes(never), `${never} from ${dir}`);
    }
  });

  test("from the farther folder home/work, its own .claude is the nearest project folder", async () => {
    const { json } = await runXcshJson<AgentsDoc>(["agents", "--json"], {
      home,
      cwd: join(fx.root, "home/work"),
    });
    const claude = json.agents.filter((a) => a.family === "claude").map((a) => line(fx.root, a));
    assert.deepEqual(claude, [
      "far-claude project claude home/work/.claude/agents/far-claude.md",
      "Task user claude home/.claude/agents/Task.md",
      "u-claude user claude home/.claude/agents/u-claude.md",
    ]);
    // home/work/.claude/settings.json is now the project's: it disables user-plug and user-late.
    const plugins = json.agents.filter((a) => a.family === "plugin").map((a) => a.plugin);
    assert.deepEqual(plugins, ["off-local@mkt", "multi@mkt"]);
  });

  test("agents check exits 0 on the good tree (text and --json)", async () => {
    // With the keys of the models the agents name, nothing to note.
    const keys = { ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test" };
    const text = await runXcsh(["agents", "check"], { home, cwd, env: keys });
    assert.equal(text.code, 0, text.stdout + text.stderr);
    assert.match(text.stdout, /^checked 26 files: 0 errors, 0 warnings$/m);
    // Without them, each model that will not run is noted; still exit 0.
    const keyless = await runXcsh(["agents", "check"], { home, cwd });
    assert.equal(keyless.code, 0, keyless.stdout);
    assert.match(
      keyless.stdout,
      /^warning: model: sonnet will not run here: sonnet → anthropic\/claude-\S+ \(ANTHROPIC_API_KEY not set\); models\.default \(not set, and no built-in provider has its key \(ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY\)\) \(1 agent: p-claude\)$/m,
    );
    assert.match(
      keyless.stdout,
      /^warning: model: gpt-5-codex will not run here: .*OPENAI_API_KEY not set/m,
    );
    assert.match(keyless.stdout, /^checked 26 files: 0 errors, 2 warnings$/m);
    const { result, json } = await runXcshJson<{
      files: { path: string; name: string | null; ok: boolean }[];
      errors: number;
      warnings: number;
    }>(["agents", "check", "--json"], { home, cwd, env: keys });
    assert.equal(result.code, 0);
    assert.equal(json.errors, 0);
    assert.equal(json.warnings, 0);
    // Every file of every searched folder, winners and losers alike.
    assert.equal(json.files.length, 26);
    assert.ok(json.files.every((f) => f.ok));
    assert.ok(json.files.some((f) => rel(fx.root, f.path) === "home/.claude/agents/Task.md"));
  });

  test("agents check PATH on good single files and folders exits 0", async () => {
    const paths = [
      join(fx.root, REPO, ".claude/agents/p-claude.md"),
      join(fx.root, REPO, ".codex/agents/p-codex.toml"),
      join(fx.root, "home/.gemini/agents"),
    ];
    const { result, json } = await runXcshJson<{
      files: { path: string; name: string | null; ok: boolean }[];
      errors: number;
    }>(["agents", "check", "--json", ...paths], { home, cwd });
    assert.equal(result.code, 0, result.stdout);
    assert.deepEqual(json.files.map((f) => [rel(fx.root, f.path), f.name, f.ok]), [
      [`${REPO}/.claude/agents/p-claude.md`, "p-claude", true],
      [`${REPO}/.codex/agents/p-codex.toml`, "p-codex", true],
      ["home/.gemini/agents/u-gemini.md", "u-gemini", true],
    ]);
  });

  test("doctor --json lists every folder searched and every plugin install with its verdict", async () => {
    const { result, json } = await runXcshJson<{
      folders: { family: string; scope: string; path: string; exists: boolean; count: number }[];
      plugins: {
        files: { path: string; exists: boolean }[];
        installs: { id: string; scope: string; included: boolean; reason: string }[];
      };
      warnings: unknown[];
    }>(["doctor", "--json"], { home, cwd });
    assertClean(result);
    assert.deepEqual(
      json.folders.map((f) =>
        `${f.family} ${f.scope} ${rel(fx.root, f.path)} ${f.exists ? f.count : "missing"}`
      ),
      [
        `xcsh project ${REPO}/.xcsh/agents 3`,
        "xcsh user home/.xcsh/agent/agents 2",
        `claude project ${REPO}/.claude/agents 3`,
        "claude user home/.claude/agents 3",
        `codex project ${REPO}/.codex/agents 1`,
        "codex user home/.codex/agents 2",
        "gemini project home/work/.gemini/agents 1",
        "gemini user home/.gemini/agents 1",
        "gemini user home/.config/gemini-cli/agents 1",
        `plugin project ${PLUG}/proj-plug/2.0.0/agents 1`,
        `plugin project ${PLUG}/local-plug/1.0.0/agents 1`,
        `plugin user ${PLUG}/user-plug/1.0.0/agents 3`,
        `plugin user ${PLUG}/user-late/1.0.0/agents 2`,
        `plugin user ${PLUG}/reenabled/1.0.0/agents 1`,
        `plugin user ${PLUG}/multi/1.0.0/agents 1`,
      ],
    );
    assert.deepEqual(
      json.plugins.files.map((f) => `${rel(fx.root, f.path)} ${f.exists}`),
      [
        "home/.claude/plugins/installed_plugins.json true",
        "home/.claude/settings.json true",
        `${REPO}/.claude/settings.json true`,
        `${REPO}/.claude/settings.local.json true`,
      ],
    );
    const elsewhere = `installed for another project (${join(fx.root, "home/elsewhere")})`;
    assert.deepEqual(
      json.plugins.installs.map((i) => [i.id, i.scope, i.included, i.reason]),
      [
        ["proj-plug@mkt", "project", true, "project install"],
        ["other-proj@mkt", "project", false, elsewhere],
        ["local-plug@mkt", "local", true, "local install"],
        ["multi@mkt", "project", false, elsewhere],
        ["user-plug@mkt", "user", true, "user install"],
        ["off-entry@mkt", "user", false, "disabled in installed_plugins.json"],
        ["user-late@mkt", "user", true, "user install"],
        ["off-settings@mkt", "user", false, "disabled in enabledPlugins"],
        ["off-local@mkt", "user", false, "disabled in enabledPlugins"],
        ["reenabled@mkt", "user", true, "user install"],
        ["multi@mkt", "user", true, "user install"],
      ],
    );
    assert.deepEqual(json.warnings, []);
  });

  test("doctor (text) shows each folder, each plugin file and each install verdict", async () => {
    const r = await runXcsh(["doctor"], { home, cwd });
    assertClean(r);
    const out = r.stdout.split("\n").map((l) => l.trim().replace(/\s+/g, " "));
    for (
      const want of [
        "xcsh project ~/work/repo/.xcsh/agents 3 agents",
        "gemini project ~/work/.gemini/agents 1 agent",
        "gemini user ~/.config/gemini-cli/agents 1 agent",
        "plugin local-plug@mkt ~/.claude/plugins/cache/mkt/local-plug/1.0.0/agents 1 agent",
        "bundled (built in) 6 agents",
        "~/work/repo/.claude/settings.local.json read",
        "in proj-plug@mkt [project] project install",
        `out other-proj@mkt [project] installed for another project (${
          join(fx.root, "home/elsewhere")
        })`,
        "out off-entry@mkt [user] disabled in installed_plugins.json",
        "out off-local@mkt [user] disabled in enabledPlugins",
        "in reenabled@mkt [user] user install",
        "Agents: 24 available, 8 shadowed",
      ]
    ) assert.ok(out.includes(want), `missing line "${want}" in:\n${r.stdout}`);
  });
});

// ---------------------------------------------------------------------------
// Workflow commands on fixtures/world
// ---------------------------------------------------------------------------

interface CommandsDoc {
  commands: (Listed & { description: string; argumentHint?: string })[];
  shadowed?: Listed[];
}

describe("commands on fixtures/world", () => {
  let fx: Materialized;
  let home: string;
  let cwd: string;
  before(() => {
    fx = materializeFixture("world");
    home = join(fx.root, "home");
    cwd = join(fx.root, DEEP_CWD);
  });
  after(() => fx.cleanup());

  test("commands --all --json: complete ordered list, shadowing, bundled init last", async () => {
    const { result, json } = await runXcshJson<CommandsDoc>(["commands", "--all", "--json"], {
      home,
      cwd,
    });
    assertClean(result);
    assert.equal(result.stderr, "");
    assert.deepEqual(json.commands.map((c) => line(fx.root, c)), [
      `deploy project xcsh ${REPO}/.xcsh/commands/deploy.md`,
      `review project xcsh ${REPO}/.xcsh/commands/review.md`,
      "mine user xcsh home/.xcsh/agent/commands/mine.md",
      `fix project claude ${REPO}/.claude/commands/fix.md`,
      "u-claude-cmd user claude home/.claude/commands/u-claude-cmd.md",
      "u-codex-cmd user codex home/.codex/commands/u-codex-cmd.md",
      "u-gemini-cmd user gemini home/.gemini/commands/u-gemini-cmd.md",
      `plug-cmd project plugin/proj-plug@mkt ${PLUG}/proj-plug/2.0.0/commands/plug-cmd.md`,
      "init bundled bundled (built in)",
    ]);
    assert.deepEqual(
      json.shadowed!.map((s) => `${line(fx.root, s)} <= ${line(fx.root, s.shadowedBy!)}`),
      [
        `review user xcsh home/.xcsh/agent/commands/review.md <= review project xcsh ${REPO}/.xcsh/commands/review.md`,
        `review project claude ${REPO}/.claude/commands/review.md <= review project xcsh ${REPO}/.xcsh/commands/review.md`,
        `fix user plugin/user-plug@mkt ${PLUG}/user-plug/1.0.0/commands/fix.md <= fix project claude ${REPO}/.claude/commands/fix.md`,
      ],
    );
    const fix = json.commands.find((c) => c.name === "fix")!;
    assert.equal(fix.description, "Fix (project claude)");
    assert.equal(fix.argumentHint, "<issue> <why>");
  });

  test("commands show NAME a b expands the winner's template", async () => {
    const fix = await runXcsh(["commands", "show", "fix", "42", "flaky test"], { home, cwd });
    assertClean(fix);
    assert.equal(fix.stdout, "Fix issue 42 because flaky test (all: 42 flaky test).\n");
    const review = await runXcshJson<{ command: Listed; prompt: string }>(
      ["commands", "show", "review", "a.ts", "b.ts", "--json"],
      { home, cwd },
    );
    assertClean(review.result);
    assert.equal(review.json.prompt, "Review these files: a.ts b.ts");
    assert.equal(rel(fx.root, review.json.command.filePath!), `${REPO}/.xcsh/commands/review.md`);
    // No placeholder: the arguments are appended.
    const deploy = await runXcsh(["commands", "show", "deploy", "prod"], { home, cwd });
    assert.equal(deploy.stdout, "Deploy the service.\n\nprod\n");
    const init = await runXcshJson<{ command: Listed }>(["commands", "show", "init", "--json"], {
      home,
      cwd,
    });
    assert.equal(init.json.command.source, "bundled");
    const unknown = await runXcsh(["commands", "show", "Fix"], { home, cwd });
    assert.equal(unknown.code, 2, "an unknown name is a usage error");
    assert.match(unknown.stderr, /unknown command "Fix"/);
  });
});

// ---------------------------------------------------------------------------
// fixtures/plugins-v1 and fixtures/env-dirs
// ---------------------------------------------------------------------------

describe("installed_plugins.json version 1", () => {
  let fx: Materialized;
  before(() => (fx = materializeFixture("plugins-v1")));
  after(() => fx.cleanup());

  test("v1 installs are user-scoped, in file order; settings can disable one", async () => {
    const P = "home/.claude/plugins/cache";
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--all", "--json"], {
      home: join(fx.root, "home"),
      cwd: join(fx.root, "proj"),
    });
    assertClean(result);
    assert.equal(result.stderr, "");
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), [
      `old-a user plugin/old@mkt ${P}/old/agents/old-a.md`,
      `old-b user plugin/old@mkt ${P}/old/agents/old-b.md`,
      `second user plugin/second@mkt ${P}/second/agents/second.md`,
      ...bundledLines(),
    ]);
    assert.deepEqual(json.shadowed!.map((s) => line(fx.root, s)), [
      `old-a user plugin/second@mkt ${P}/second/agents/old-a.md`,
    ]);
  });
});

describe("CLAUDE_CONFIG_DIR, CODEX_HOME and an empty nearer folder (fixtures/env-dirs)", () => {
  let fx: Materialized;
  before(() => (fx = materializeFixture("env-dirs")));
  after(() => fx.cleanup());

  test("the variables move the user folders, the registry and the settings", async () => {
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--json"], {
      home: join(fx.root, "home"),
      cwd: join(fx.root, "proj/sub"),
      env: {
        CLAUDE_CONFIG_DIR: join(fx.root, "alt/claude"),
        CODEX_HOME: join(fx.root, "alt/codex"),
      },
    });
    assertClean(result);
    assert.equal(result.stderr, "");
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), [
      "u-xcsh user xcsh home/.xcsh/agent/agents/u-xcsh.md",
      // the project's .claude is still a project folder
      "proj-claude project claude proj/.claude/agents/proj-claude.md",
      "alt-claude user claude alt/claude/agents/alt-claude.md",
      "alt-codex user codex alt/codex/agents/alt-codex.toml",
      // proj/sub/.gemini/agents is empty but nearest: proj/.gemini/agents is never read
      "u-gemini user gemini home/.gemini/agents/u-gemini.md",
      // alt/claude/settings.json disables alt-off
      "alt-plug user plugin/alt-plug@mkt alt/claude/plugins/cache/alt-plug/agents/alt-plug.md",
      ...bundledLines(),
    ]);
  });

  test("without the variables, ~/.claude and ~/.codex count again", async () => {
    const { result, json } = await runXcshJson<AgentsDoc>(["agents", "--json"], {
      home: join(fx.root, "home"),
      cwd: join(fx.root, "proj/sub"),
    });
    assertClean(result);
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), [
      "u-xcsh user xcsh home/.xcsh/agent/agents/u-xcsh.md",
      "proj-claude project claude proj/.claude/agents/proj-claude.md",
      "ignored-claude user claude home/.claude/agents/ignored-claude.md",
      "ignored-codex user codex home/.codex/agents/ignored-codex.md",
      "u-gemini user gemini home/.gemini/agents/u-gemini.md",
      "ignored-plug user plugin/ignored-plug@mkt home/.claude/plugins/cache/ignored-plug/agents/ignored-plug.md",
      ...bundledLines(),
    ]);
  });

  test("from proj itself, proj/.gemini/agents is the nearest gemini folder", async () => {
    const { json } = await runXcshJson<AgentsDoc>(["agents", "--json"], {
      home: join(fx.root, "home"),
      cwd: join(fx.root, "proj"),
    });
    assert.deepEqual(
      json.agents.filter((a) => a.family === "gemini").map((a) => line(fx.root, a)),
      [
        "far-gemini project gemini proj/.gemini/agents/far-gemini.md",
        "u-gemini user gemini home/.gemini/agents/u-gemini.md",
      ],
    );
  });
});
