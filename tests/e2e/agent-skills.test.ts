// End to end: Agent Skills through the built binary. `xcsh skills` lists
// and shows them, doctor names the folders searched, and a task's model
// sees their names, loads one with the `skill` tool and reads its files
// with `read` (never writes them); `skills:` preloads a skill's body.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh, runXcshJson } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  isAfterTool,
  offeredTools,
  systemPrompt,
  toolResults,
  type World,
} from "../support/world.ts";

let w: World;
let userSkill: string;

const { server, respond, world } = modelHarness({
  respond: () => ({ text: "unexpected" }),
  setup: () => {
    w = world({
      agents: {
        helper: agentMd("helper", ""),
        preloader: agentMd("preloader", "tools: Read\nskills: [pdf-tools, nope]\n"),
      },
    });
    userSkill = skill(
      join(w.home, ".claude", "skills"),
      "pdf-tools",
      "Fill and read PDF forms",
      "To fill a form, read reference.md first.",
    );
    writeFileSync(join(userSkill, "reference.md"), "REFERENCE-TEXT\n");
    writeFileSync(join(userSkill, "scripts", "fill.py"), "print('x')\n");
    skill(join(w.cwd, ".agents", "skills"), "release", "Cut a release", "Tag, then push.");
    skill(join(w.home, ".codex", "skills"), "release", "Another release", "Hidden.");
    mkdirSync(join(w.cwd, ".agents", "skills", "broken"), { recursive: true });
  },
});
function skill(dir: string, name: string, description: string, body: string): string {
  mkdirSync(join(dir, name, "scripts"), { recursive: true });
  writeFileSync(
    join(dir, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`,
  );
  return join(dir, name);
}

describe("xcsh skills", () => {
  test("lists skills, --all shows the hidden one, --json, show NAME", async () => {
    const list = await runXcsh(["skills"], { cwd: w.cwd, home: w.home });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^pdf-tools +user +claude .*Fill and read PDF forms$/m);
    // The user's own skill wins over the project's of the same name.
    assert.match(list.stdout, /^release +user +codex .*Another release$/m);
    assert.doesNotMatch(list.stdout, /Cut a release/);
    assert.match(list.stderr, /1 skill file has warnings \(xcsh skills --verbose\)/);
    const all = await runXcsh(["skills", "--all"], { cwd: w.cwd, home: w.home });
    assert.match(all.stdout, /^release +project +agents .*shadowed by/m);
    const verbose = await runXcsh(["skills", "--verbose"], { cwd: w.cwd, home: w.home });
    assert.match(verbose.stderr, /broken: skipped: a skill folder needs a SKILL\.md/);
    const { json } = await runXcshJson<{ skills: { name: string; filePath: string }[] }>(
      ["skills", "--json"],
      { cwd: w.cwd, home: w.home },
    );
    assert.deepEqual(json.skills.map((s) => s.name), ["pdf-tools", "release"]);
    const show = await runXcsh(["skills", "show", "pdf-tools"], { cwd: w.cwd, home: w.home });
    assert.equal(show.code, 0);
    assert.match(show.stdout, /To fill a form, read reference\.md first\./);
    assert.match(show.stdout, /files: +SKILL\.md, reference\.md, scripts\/fill\.py/);
    const missing = await runXcsh(["skills", "show", "nope"], { cwd: w.cwd, home: w.home });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /unknown skill "nope". Available: pdf-tools, release/);
  });

  test("doctor lists the skill folders searched", async () => {
    const r = await runXcsh(["doctor"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Skill folders, in precedence order:/);
    assert.match(r.stdout, /claude user +~\/\.claude\/skills +1 skill/);
    // The user's codex skill shadows the project's release skill of the same name.
    assert.match(r.stdout, /codex user +~\/\.codex\/skills +1 skill/);
    assert.match(r.stdout, /agents project +.*\.agents\/skills +0 skills/);
  });
});

describe("skills in a task", () => {
  test("names in the prompt; the skill tool loads one; its files are readable, not writable", async () => {
    server.script([]);
    server.requests.length = 0;
    const ref = join(userSkill, "reference.md");
    respond((req) => {
      const n = server.requests.indexOf(req);
      if (n === 0) return { toolCalls: [{ name: "skill", args: { name: "pdf-tools" } }] };
      if (n === 1) {
        return {
          toolCalls: [
            { name: "read", args: { path: ref } },
            { name: "write", args: { path: ref, content: "changed" } },
          ],
        };
      }
      return isAfterTool(req) ? { text: "done" } : { text: "?" };
    });
    const r = await runXcsh(["run", "helper", "fill the form"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const first = server.requests[0];
    assert.ok(offeredTools(first).includes("skill"));
    assert.match(systemPrompt(first), /- pdf-tools: Fill and read PDF forms/);
    assert.match(systemPrompt(first), /- release: Another release/);
    assert.doesNotMatch(systemPrompt(first), /To fill a form/, "bodies load on demand");
    const loaded = toolResults(server.requests[1]);
    assert.match(loaded, /To fill a form, read reference\.md first\./);
    assert.ok(loaded.includes("scripts/fill.py"), loaded);
    const after = toolResults(server.requests[2]);
    assert.ok(after.includes("REFERENCE-TEXT"), after);
    assert.match(after, /outside/);
    assert.equal(readFileSync(ref, "utf8"), "REFERENCE-TEXT\n");
  });

  test("skills: preloads a body into the prompt; an unknown name is one warning", async () => {
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "preloader", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(systemPrompt(server.requests[0]), /## Skill: pdf-tools\n\nTo fill a form/);
    assert.ok(!offeredTools(server.requests[0]).includes("skill"), "not in its tools");
    const lines = r.stderr.split("\n").filter((l) => l.includes("'nope'"));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /'skills' names 'nope', which is no skill found here/);
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.match(
      check.stdout,
      /^warning: skills: 'nope' is no skill found here \(preloaded by 1 agent: preloader\)/m,
    );
    assert.doesNotMatch(check.stdout, /'pdf-tools' is no skill/);
  });
});

describe("a repository's skill of the user's skill's name", () => {
  test("the user's own skill wins: the user's agent preloads the user's text", async () => {
    const own = world({ agents: {} });
    mkdirSync(join(own.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(own.home, ".claude", "agents", "mine.md"),
      agentMd("mine", "tools: Read\nskills: [house-style]\n"),
    );
    skill(join(own.home, ".claude", "skills"), "house-style", "Mine", "USER-OWN-TEXT");
    skill(join(own.cwd, ".claude", "skills"), "house-style", "Theirs", "REPOSITORY-TEXT");
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "mine", "go"], { cwd: own.cwd, home: own.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    assert.match(prompt, /## Skill: house-style\n\nUSER-OWN-TEXT/);
    assert.doesNotMatch(prompt, /REPOSITORY-TEXT/);
  });
});
