// End to end: a skill collection as users install them, through the built
// binary. The system prompt the model server receives lists the catalogue
// within its budget (names only past it, the rest found with the `skill`
// tool's `query`), leaves out `disable-model-invocation` skills (which
// `skills:` still preloads), lists the user's skill over the project's,
// loads a nameless skill under its folder's name, finds Codex's nested and
// `.system` skills and names plugin skills `plugin:skill`. `skills check`
// exits 1 on a skill that cannot load and names unknown keys; bad files
// are one line each and the run goes on. `tools: []` gives a Claude Code
// agent no tools and an xcsh agent every tool; a Codex agent's MCP server
// registers only its `enabled_tools`, never its `disabled_tools`.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runXcsh, runXcshJson } from "../support/cli.ts";
import { makeHugeFile, makeNonUtf8File } from "../support/fixtures.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  isAfterTool,
  offeredTools,
  systemPrompt,
  toolResults,
  type World,
} from "../support/world.ts";

/** A skill folder `dir/folder` with a SKILL.md of `frontmatter` and `body`. */
function skill(dir: string, folder: string, frontmatter: string, body = "Body."): string {
  mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, folder, "SKILL.md"), `---\n${frontmatter}\n---\n${body}\n`);
  return join(dir, folder);
}
const plain = (name: string, description: string) => `name: ${name}\ndescription: ${description}`;

/** The `## Skills` section of a system prompt. */
function skillsSection(prompt: string): string {
  const at = prompt.indexOf("## Skills\n");
  assert.ok(at >= 0, prompt);
  const end = prompt.indexOf("\n## ", at + 1);
  return prompt.slice(at, end < 0 ? undefined : end);
}

let w: World;
let big: World;
const { server, respond, world } = modelHarness({
  respond: () => ({ text: "done" }),
  setup: () => {
    w = world({
      agents: {
        helper: agentMd("helper", ""),
        preloader: agentMd("preloader", "tools: Read\nskills: [hidden-helper, toolkit:lint]\n"),
        "xcsh-empty": agentMd("xcsh-empty", "tools: []\n"),
      },
    });
    const userSkills = join(w.home, ".claude", "skills");
    skill(userSkills, "house-style", plain("house-style", "USER-OWN house style"));
    skill(join(w.cwd, ".claude", "skills"), "house-style", plain("house-style", "REPO-COPY"));
    skill(userSkills, "folder-fallback", "name: Folder Fallback\ndescription: Named by folder");
    skill(userSkills, "no-name", "description: No name at all");
    skill(
      userSkills,
      "hidden-helper",
      `${plain("hidden-helper", "HIDDEN-DESCRIPTION")}\ndisable-model-invocation: true`,
      "HIDDEN-BODY",
    );
    skill(
      userSkills,
      "meta",
      `${plain("meta", "Nested metadata")}\nmetadata:\n  a:\n    b: 1\ntriggers: [x]\nversion: 2`,
    );
    const codex = join(w.home, ".codex", "skills");
    skill(join(codex, "devops"), "deploy-k8s", plain("deploy-k8s", "CODEX-NESTED"));
    skill(join(codex, ".system"), "codex-builtin", plain("codex-builtin", "CODEX-SYSTEM"));
    const plugin = join(w.root, "plugins", "toolkit");
    skill(join(plugin, "skills"), "lint", plain("lint", "PLUGIN-LINT"), "PLUGIN-LINT-BODY");
    mkdirSync(join(w.home, ".claude", "plugins"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({
        version: 2,
        plugins: { "toolkit@market": [{ scope: "user", installPath: plugin }] },
      }),
    );
    mkdirSync(join(w.cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".claude", "agents", "claude-empty.md"),
      agentMd("claude-empty", "tools: []\n"),
    );

    // 391 skills, as in a real installed collection.
    big = world({ agents: { helper: agentMd("helper", "") } });
    for (let i = 0; i < 391; i++) {
      const n = String(i).padStart(3, "0");
      skill(
        join(big.home, ".claude", "skills"),
        `skill-${n}`,
        plain(
          `skill-${n}`,
          `Word${n}unique. ` + "Helps with a particular kind of job in some detail. ".repeat(5),
        ),
      );
    }
  },
});

describe("the catalogue a task's model sees", () => {
  test("user wins, folder-name fallback, Codex nested and .system, plugin:skill, no hidden", async () => {
    server.script([]);
    server.requests.length = 0;
    respond((req) => {
      const n = server.requests.indexOf(req);
      if (n === 0) return { toolCalls: [{ name: "skill", args: { name: "hidden-helper" } }] };
      return isAfterTool(req) ? { text: "done" } : { text: "?" };
    });
    const r = await runXcsh(["run", "helper", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const section = skillsSection(systemPrompt(server.requests[0]));
    assert.match(section, /^- house-style: USER-OWN house style$/m);
    assert.doesNotMatch(section, /REPO-COPY/);
    assert.match(section, /^- folder-fallback: Named by folder$/m);
    assert.match(section, /^- no-name: No name at all$/m);
    assert.match(section, /^- deploy-k8s: CODEX-NESTED$/m);
    assert.match(section, /^- codex-builtin: CODEX-SYSTEM$/m);
    assert.match(section, /^- toolkit:lint: PLUGIN-LINT$/m);
    assert.doesNotMatch(section, /hidden-helper|HIDDEN/);
    assert.doesNotMatch(section, /not complete/, "everything fits");
    // Nor can the model load it.
    assert.match(toolResults(server.requests[1]), /no skill 'hidden-helper'/);
    assert.doesNotMatch(toolResults(server.requests[1]), /HIDDEN-BODY/);
  });

  test("skills: preloads a disable-model-invocation skill and a plugin:skill", async () => {
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "preloader", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    assert.match(prompt, /## Skill: hidden-helper\n\nHIDDEN-BODY/);
    assert.match(prompt, /## Skill: toolkit:lint\n\nPLUGIN-LINT-BODY/);
    assert.doesNotMatch(r.stderr, /no skill found/);
  });

  test("391 skills: within the budget, names only past it, the rest found by query", async () => {
    server.script([]);
    server.requests.length = 0;
    respond((req) => {
      const n = server.requests.indexOf(req);
      if (n === 0) return { toolCalls: [{ name: "skill", args: { query: "word390unique" } }] };
      if (n === 1) return { toolCalls: [{ name: "skill", args: { name: "skill-390" } }] };
      return isAfterTool(req) ? { text: "done" } : { text: "?" };
    });
    const r = await runXcsh(["run", "helper", "go"], { cwd: big.cwd, home: big.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    const section = skillsSection(prompt);
    const lines = section.split("\n").filter((l) => l.startsWith("- "));
    // The model's window is unknown here: the default budget, 5 120 characters.
    const listed = lines.reduce((n, l) => n + l.length + 1, 0);
    assert.ok(listed <= 5_120, `${listed}`);
    assert.match(section, /^- skill-000: Word000unique\. Helps/m);
    assert.ok(lines.some((l) => /^- skill-\d+$/.test(l)), "names only past the descriptions");
    assert.doesNotMatch(section, /^- skill-390/m, "past the names, nothing");
    assert.match(
      section,
      /more are not listed \(391 in all\)\. Search them with the `skill` tool's `query`/,
    );
    assert.ok(prompt.length < 12_000, `the whole prompt is ${prompt.length} characters`);
    assert.match(toolResults(server.requests[1]), /^- skill-390: Word390unique/m);
    assert.match(toolResults(server.requests[2]), /Skill: skill-390/);
  });

  test("SLASH_COMMAND_TOOL_CHAR_BUDGET sets the budget, as in Claude Code", async () => {
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "helper", "go"], {
      cwd: big.cwd,
      home: big.home,
      env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "2000" },
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = skillsSection(systemPrompt(server.requests[0])).split("\n")
      .filter((l) => l.startsWith("- "));
    assert.ok(lines.reduce((n, l) => n + l.length + 1, 0) <= 2_000);
  });
});

describe("xcsh skills check", () => {
  test("every skill found: unknown keys and fallbacks are warnings, exit 0", async () => {
    const r = await runXcsh(["skills", "check"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /meta\/SKILL\.md: 'triggers': not in the Agent Skills specification/);
    assert.doesNotMatch(r.stdout, /'version'|'metadata'/);
    assert.match(r.stdout, /folder-fallback\/SKILL\.md.*loaded under its folder's name/);
    assert.match(r.stdout, /^checked \d+ skills: 0 errors, \d+ warnings$/m);
  });

  test("a skill that cannot load: exit 1, one line naming each file", async () => {
    const bad = join(w.root, "bad-skills");
    skill(bad, "good", plain("good", "fine"));
    skill(bad, "no-description", "name: no-description");
    makeHugeFile(join(skill(bad, "huge", plain("huge", "d")), "SKILL.md"), 5 * 1024 * 1024);
    makeNonUtf8File(join(skill(bad, "latin1", plain("latin1", "d")), "SKILL.md"));
    mkdirSync(join(bad, "group"), { recursive: true });
    symlinkSync(bad, join(bad, "group", "loop"));
    const r = await runXcsh(["skills", "check", bad], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /no-description\/SKILL\.md.*needs a 'description'/);
    assert.match(r.stdout, /huge\/SKILL\.md: skipped: file is 5\.0 MiB, over the 1\.0 MiB limit/);
    assert.match(r.stdout, /latin1\/SKILL\.md: skipped: file is not valid UTF-8 text/);
    assert.match(r.stdout, /group\/loop.*skipped: .*symlink/);
    assert.match(r.stdout, /^checked 1 skill: 4 errors, 0 warnings$/m);
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /, "no stack trace");
    const one = await runXcsh(["skills", "check", join(bad, "good")], { cwd: w.cwd });
    assert.equal(one.code, 0, one.stdout);
    assert.match(one.stdout, /^checked 1 skill: 0 errors, 0 warnings$/m);
    const json = await runXcshJson<{ errors: number; skills: { name: string }[] }>(
      ["skills", "check", "--json", bad],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(json.json.errors, 4);
  });

  test("bad skill files in the user's folder: one line each, the run goes on", async () => {
    const bw = world({ agents: { helper: agentMd("helper", "") } });
    const dir = join(bw.home, ".claude", "skills");
    skill(dir, "fine", plain("fine", "FINE-SKILL"));
    makeHugeFile(join(skill(dir, "huge", plain("huge", "d")), "SKILL.md"), 5 * 1024 * 1024);
    makeNonUtf8File(join(skill(dir, "latin1", plain("latin1", "d")), "SKILL.md"));
    symlinkSync(dir, join(dir, "loop"));
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "helper", "go", "--verbose"], { cwd: bw.cwd, home: bw.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(systemPrompt(server.requests[0]), /- fine: FINE-SKILL/);
    const doctor = await runXcsh(["doctor"], { cwd: bw.cwd, home: bw.home });
    assert.equal(doctor.code, 0);
    assert.match(doctor.stdout, /skipped 3 \(xcsh skills check says more\):/);
    assert.match(doctor.stdout, /huge\/SKILL\.md: skipped: file is 5\.0 MiB/);
    assert.match(doctor.stdout, /latin1\/SKILL\.md: skipped: file is not valid UTF-8/);
    assert.match(doctor.stdout, /loop.*skipped: .*symlink/);
  });

  test("metadata is kept as data in skills --json", async () => {
    const { json } = await runXcshJson<{ skills: { name: string; metadata?: unknown }[] }>(
      ["skills", "--json"],
      { cwd: w.cwd, home: w.home },
    );
    assert.deepEqual(json.skills.find((s) => s.name === "meta")?.metadata, { a: { b: 1 } });
  });
});

describe("tools: [] never loosens a Claude Code agent", () => {
  test("a Claude Code agent gets only submit_result; an xcsh agent every tool", async () => {
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const claude = await runXcsh(["run", "claude-empty", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(claude.code, 0, claude.stderr);
    assert.deepEqual(offeredTools(server.requests[0]), ["submit_result"]);
    server.requests.length = 0;
    const xcsh = await runXcsh(["run", "xcsh-empty", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(xcsh.code, 0, xcsh.stderr);
    const tools = offeredTools(server.requests[0]);
    for (const t of ["read", "write", "bash", "skill", "submit_result"]) {
      assert.ok(tools.includes(t), `${t} in ${tools.join(", ")}`);
    }
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.match(
      check.stdout,
      /claude-empty\.md.*'tools' is empty, which in a Claude Code file means no tools/,
    );
    assert.match(
      check.stdout,
      /xcsh-empty\.md.*'tools' is empty, which gives the agent every tool/,
    );
  });
});

describe("Codex's enabled_tools and disabled_tools", () => {
  test("only the enabled tools are registered, the disabled removed, unknown names warned", async () => {
    const fixture = join(ROOT, "tests", "support", "mcp-fixture-server.mjs");
    const cw = world({ agents: {} });
    mkdirSync(join(cw.home, ".codex", "agents"), { recursive: true });
    writeFileSync(
      join(cw.home, ".codex", "agents", "fixer.toml"),
      'name = "fixer"\ndescription = "Uses the fixture"\ndeveloper_instructions = "Go."\n' +
        `[mcp_servers.fix]\ncommand = "node"\nargs = ["${fixture}"]\n` +
        'enabled_tools = ["echo", "shout", "nosuch"]\ndisabled_tools = ["shout"]\n',
    );
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "fixer", "go"], { cwd: cw.cwd, home: cw.home });
    assert.equal(r.code, 0, r.stderr);
    const mcp = offeredTools(server.requests[0]).filter((t) => t.startsWith("mcp__"));
    assert.deepEqual(mcp, ["mcp__fix__echo"]);
    assert.match(
      r.stderr,
      /MCP server 'fix': enabled_tools names 'nosuch', which it does not have/,
    );
  });
});

describe("a repository's recursive skill root", () => {
  test("a link out of .agents/skills, or round to its parent, is refused and named", async () => {
    const rw = world({ agents: { helper: agentMd("helper", "") } });
    const outside = join(rw.root, "outside");
    skill(outside, "secret", plain("secret", "OUTSIDE-SECRET"), "OUTSIDE-BODY");
    const shared = join(rw.cwd, ".agents", "skills");
    skill(join(shared, "cat"), "inside", plain("inside", "INSIDE-SKILL"));
    symlinkSync(outside, join(shared, "cat", "evil"));
    symlinkSync(shared, join(shared, "cat", "loop"));
    server.script([]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "helper", "go", "--verbose"], { cwd: rw.cwd, home: rw.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    assert.match(prompt, /- inside: INSIDE-SKILL/);
    assert.doesNotMatch(prompt, /OUTSIDE-SECRET|secret:/);
    const check = await runXcsh(["skills", "check"], { cwd: rw.cwd, home: rw.home });
    assert.equal(check.code, 1);
    assert.match(check.stdout, /cat\/evil: skipped: .*symlink/);
    assert.match(check.stdout, /cat\/loop: skipped: .*symlink/);
  });
});
