// Skill discovery on real folder trees: precedence, shadowing, and every
// kind of bad input skipped with one warning naming the file.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import process from "node:process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverSkills, readSkillBody, skillFolders } from "./skills.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-skills-"));
after(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const cwd = join(root, "proj", "sub");
mkdirSync(cwd, { recursive: true });
mkdirSync(home, { recursive: true });

function skill(dir: string, name: string, text?: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(
    join(dir, name, "SKILL.md"),
    text ?? `---\nname: ${name}\ndescription: The ${name} skill\n---\nUse ${name}.\n`,
  );
}

const env = { cwd, home, env: {} };

describe("discoverSkills", () => {
  const claudeProject = join(root, "proj", ".claude", "skills");
  const agentsProject = join(root, "proj", ".agents", "skills");
  const claudeUser = join(home, ".claude", "skills");
  const codexUser = join(home, ".codex", "skills");
  skill(claudeProject, "review");
  skill(agentsProject, "review", "---\nname: review\ndescription: shared one\n---\nx\n");
  skill(agentsProject, "deploy");
  skill(claudeUser, "notes");
  skill(codexUser, "deploy", "---\nname: deploy\ndescription: codex one\n---\nx\n");
  mkdirSync(join(claudeUser, "empty"), { recursive: true });
  skill(claudeUser, "huge", "---\nname: huge\ndescription: d\n---\n" + "x".repeat(1024 * 1024));
  skill(claudeUser, "noname", "---\ndescription: d\n---\nx\n");
  skill(claudeUser, "binary", "---\nname: binary\ndescription: d\n---\n\xff");
  writeFileSync(join(claudeUser, "binary", "SKILL.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0xff]));
  writeFileSync(join(claudeUser, "README.md"), "not a skill\n");

  test("the user's folders, then the project's, in precedence order, first name wins", async () => {
    const found = await discoverSkills(env);
    assert.deepEqual(found.skills.map((s) => `${s.name}:${s.family}:${s.source}`), [
      // No name: loaded under its folder's name, as Claude Code does.
      "noname:claude:user",
      "notes:claude:user",
      "deploy:codex:user",
      "review:claude:project",
    ]);
    // The user's own deploy skill wins over the repository's of the same name.
    assert.deepEqual(
      found.shadowed.map((s) => `${s.agent.name}:${s.agent.family}:${s.agent.source}`),
      ["deploy:agents:project", "review:agents:project"],
    );
    const folders = skillFolders(env).map((f) => `${f.family} ${f.source}`);
    assert.deepEqual(folders.slice(0, 7), [
      "xcsh user",
      "claude user",
      "agents user",
      "codex user",
      "gemini user",
      "gemini user",
      "claude project",
    ]);
  });

  test("bad input: one warning each, naming the file, and discovery goes on", async () => {
    const found = await discoverSkills(env);
    const said = found.warnings.map((w) => `${w.file}: ${w.message}`);
    const has = (re: RegExp) =>
      assert.ok(said.some((l) => re.test(l)), `${re}\n${said.join("\n")}`);
    has(/empty: skipped: a skill folder needs a SKILL\.md/);
    has(/huge\/SKILL\.md: skipped: file is .* over the 1\.0 MiB limit/);
    has(/noname\/SKILL\.md: no 'name'; loaded under its folder's name "noname"/);
    has(/binary\/SKILL\.md: skipped: file is not valid UTF-8/);
    assert.equal(said.length, 4, said.join("\n"));
  });

  test("a SKILL.md owned by another user, or writable by others, is ignored", {
    skip: process.getuid?.() !== 0 ? "needs root to give a file away" : false,
  }, async () => {
    const dir = join(root, "proj", ".gemini", "skills");
    skill(dir, "theirs");
    skill(dir, "open");
    const { chownSync } = await import("node:fs");
    chownSync(join(dir, "theirs", "SKILL.md"), 4242, 4242);
    chmodSync(join(dir, "open", "SKILL.md"), 0o666);
    const found = await discoverSkills(env);
    assert.ok(!found.skills.some((s) => s.name === "theirs" || s.name === "open"));
    assert.ok(
      found.warnings.some((w) => /theirs.*owned by another user/.test(`${w.file} ${w.message}`)),
    );
    assert.ok(
      found.warnings.some((w) => /open.*writable by every user/.test(`${w.file} ${w.message}`)),
    );
    rmSync(dir, { recursive: true });
  });

  test("readSkillBody: the text after the frontmatter", async () => {
    assert.deepEqual(await readSkillBody(join(claudeUser, "notes", "SKILL.md")), {
      body: "Use notes.",
    });
    const gone = await readSkillBody(join(root, "nope", "SKILL.md"));
    assert.ok("error" in gone);
  });
});

describe("skill folders found walking up", () => {
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  test(
    "another user's .agents/skills or .claude/skills in a shared parent is ignored, with a warning",
    {
      skip: asRoot ? false : "needs root to give a folder to another user (chown)",
    },
    async () => {
      const shared = mkdtempSync(join(tmpdir(), "xcsh-skills-shared-"));
      try {
        const proj = join(shared, "victim", "proj");
        mkdirSync(proj, { recursive: true });
        for (const anchor of [".agents", ".claude"]) {
          skill(join(shared, anchor, "skills"), `planted-${anchor.slice(1)}`);
          chownSync(join(shared, anchor), 4242, 4242);
        }
        const found = await discoverSkills({ cwd: proj, home: join(shared, "no-home"), env: {} });
        assert.deepEqual(found.skills.map((s) => s.name), []);
        const said = found.warnings.map((w) => `${w.file ?? ""}: ${w.message}`).join("\n");
        assert.match(said, /\.agents.*owned by another user \(uid 4242\)/);
        assert.match(said, /\.claude.*owned by another user \(uid 4242\)/);
      } finally {
        rmSync(shared, { recursive: true, force: true });
      }
    },
  );
});

describe("discoverSkills and the full YAML parser", () => {
  test("a SKILL.md that needs it loads it once: no warning or skill is counted twice", async () => {
    const { forgetParsers, loadParsers } = await import("../formats/full-parsers.ts");
    const base = mkdtempSync(join(tmpdir(), "xcsh-skills-yaml-"));
    try {
      const h = join(base, "home");
      const dir = join(h, ".claude", "skills");
      // Read first: a folder without SKILL.md (one warning), then a skill whose
      // frontmatter only the full parser reads (an anchor and its alias).
      mkdirSync(join(dir, "a-empty"), { recursive: true });
      skill(
        dir,
        "b-anchored",
        "---\nname: b-anchored\ndescription: &d Anchored\nalso: *d\n---\nx\n",
      );
      skill(dir, "c-plain");
      mkdirSync(join(base, "cwd"));
      forgetParsers();
      const found = await discoverSkills({ cwd: join(base, "cwd"), home: h, env: {} });
      assert.deepEqual(found.skills.map((s) => s.name), ["b-anchored", "c-plain"]);
      const mine = found.warnings.filter((w) => w.file?.startsWith(dir));
      assert.deepEqual(mine.map((w) => w.file), [join(dir, "a-empty")], JSON.stringify(mine));
    } finally {
      await loadParsers();
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("skill folders lie where they were found", () => {
  const base = mkdtempSync(join(tmpdir(), "xcsh-skills-links-"));
  after(() => rmSync(base, { recursive: true, force: true }));
  const h = join(base, "home");
  const p = join(base, "proj");
  mkdirSync(join(p, ".git"), { recursive: true });
  mkdirSync(h, { recursive: true });
  const out = join(base, "out");
  skill(out, "leak");
  writeFileSync(join(out, "secret"), "---\nname: secret\ndescription: d\n---\nSECRET\n");
  mkdirSync(join(p, ".claude", "skills", "linkedfile"), { recursive: true });
  symlinkSync(join(out, "secret"), join(p, ".claude", "skills", "linkedfile", "SKILL.md"));
  symlinkSync(join(out, "leak"), join(p, ".claude", "skills", "leak"));
  skill(join(p, ".claude", "skills"), "fine");
  mkdirSync(join(h, ".claude"), { recursive: true });
  symlinkSync(out, join(h, ".claude", "skills"));

  test("a linked skill folder, a SKILL.md linked out, a linked user folder: skipped", async () => {
    const found = await discoverSkills({ cwd: p, home: h, env: {} });
    assert.deepEqual(found.skills.map((s) => s.name), ["fine"]);
    const text = found.warnings.map((w) => `${w.file}: ${w.message}`).join("\n");
    assert.match(text, /`\.claude\/skills\/leak` is a symlink: skill folders must be real folders/);
    assert.match(text, /linkedfile\/SKILL\.md: skipped: .*leads outside its folder/);
    assert.match(
      text,
      /`skills` is a symlink: skill folders must be real folders inside .*\.claude/,
    );
    assert.equal(found.skills[0].filePath, join(realpathSync(p), ".claude/skills/fine/SKILL.md"));
  });

  test("readSkillBody refuses a folder that became a link", async () => {
    const file = join(p, ".claude", "skills", "fine", "SKILL.md");
    assert.deepEqual(await readSkillBody(file), { body: "Use fine." });
    const moved = join(p, ".claude", "skills", "moved");
    renameSync(join(p, ".claude", "skills", "fine"), moved);
    symlinkSync(moved, join(p, ".claude", "skills", "fine"));
    const r = await readSkillBody(file);
    assert.ok("error" in r && /is a symlink/.test(r.error), JSON.stringify(r));
  });
});

describe("Codex's recursive roots", () => {
  const r = mkdtempSync(join(tmpdir(), "xcsh-skills-rec-"));
  after(() => rmSync(r, { recursive: true, force: true }));
  const h = join(r, "home");
  const c = join(r, "proj");
  mkdirSync(c, { recursive: true });
  const codex = join(h, ".codex", "skills");
  skill(join(codex, "devops"), "deploy");
  skill(join(codex, ".system"), "builtin");
  skill(join(codex, "a", "b", "c"), "deep-ok");
  skill(join(codex, "a", "b", "c", "d"), "too-deep");
  const shared = join(c, ".agents", "skills");
  skill(join(shared, "cat"), "nested");
  // A repository's folder linked to its own parent: refused, never walked round.
  symlinkSync(shared, join(shared, "cat", "loop"));
  mkdirSync(join(shared, "empty"), { recursive: true });
  // A Claude folder is one level: a category there is a folder without SKILL.md.
  skill(join(c, ".claude", "skills", "group"), "not-found");
  const e = { cwd: c, home: h, env: {} };

  test("<category>/<skill> and .system found, within the depth cap; links refused", async () => {
    const found = await discoverSkills(e);
    assert.deepEqual(found.skills.map((s) => s.name).sort(), [
      "builtin",
      "deep-ok",
      "deploy",
      "nested",
    ]);
    const said = found.warnings.map((w) => `${w.file}: ${w.message}`);
    const has = (re: RegExp) =>
      assert.ok(said.some((l) => re.test(l)), `${re}\n${said.join("\n")}`);
    has(/a\/b\/c\/d: skipped: deeper than 4 folders/);
    has(/cat\/loop: skipped: .*symlink/);
    has(/\.agents\/skills\/empty: skipped: a skill folder needs a SKILL\.md/);
    has(/\.claude\/skills\/group: skipped: a skill folder needs a SKILL\.md/);
    assert.equal(said.length, 4, said.join("\n"));
  });

  test("$CODEX_HOME moves the user's Codex root", async () => {
    const moved = join(r, "codex-home");
    skill(join(moved, "skills", "tools"), "moved");
    const found = await discoverSkills({ ...e, env: { CODEX_HOME: moved } });
    assert.ok(found.skills.some((s) => s.name === "moved"));
    assert.ok(!found.skills.some((s) => s.name === "deploy"));
  });
});
