// Unit tests for the config-folder rules: family priority, the
// user folders (CLAUDE_CONFIG_DIR, CODEX_HOME), the project walk that never
// treats $HOME as a project root, and the nearest-folder search on a real
// temporary tree.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  claudeHome,
  codexHome,
  definitionExtensions,
  FAMILIES,
  findAllNearestProjectConfigDirs,
  getConfigDirs,
  projectAncestors,
  userConfigDirs,
} from "./config-dirs.ts";

describe("FAMILIES", () => {
  test("priority order is xcsh, claude, codex, gemini", () => {
    assert.deepEqual([...FAMILIES], ["xcsh", "claude", "codex", "gemini"]);
  });
});

describe("userConfigDirs", () => {
  test("default user folders, in priority order, gemini's two last", () => {
    assert.deepEqual(userConfigDirs("agents", { home: "/h", env: {} }), [
      { family: "xcsh", scope: "user", path: "/h/.xcsh/agent/agents" },
      { family: "claude", scope: "user", path: "/h/.claude/agents" },
      { family: "codex", scope: "user", path: "/h/.codex/agents" },
      { family: "gemini", scope: "user", path: "/h/.gemini/agents" },
      { family: "gemini", scope: "user", path: "/h/.config/gemini-cli/agents" },
    ]);
  });

  test("CLAUDE_CONFIG_DIR moves ~/.claude, CODEX_HOME moves ~/.codex, nothing else moves", () => {
    const env = { CLAUDE_CONFIG_DIR: "/etc/claude", CODEX_HOME: "/opt/codex" };
    assert.deepEqual(userConfigDirs("commands", { home: "/h", env }).map((d) => d.path), [
      "/h/.xcsh/agent/commands",
      "/etc/claude/commands",
      "/opt/codex/commands",
      "/h/.gemini/commands",
      "/h/.config/gemini-cli/commands",
    ]);
  });

  test("empty variables count as unset", () => {
    const env = { CLAUDE_CONFIG_DIR: "", CODEX_HOME: "" };
    assert.equal(claudeHome("/h", env), "/h/.claude");
    assert.equal(codexHome("/h", env), "/h/.codex");
  });
});

describe("projectAncestors", () => {
  test("cwd and every ancestor up to /, nearest first", () => {
    assert.deepEqual(projectAncestors("/a/b/c", "/elsewhere"), ["/a/b/c", "/a/b", "/a", "/"]);
  });

  test("inside $HOME the walk stops below it: neither $HOME nor folders above it", () => {
    assert.deepEqual(projectAncestors("/home/ada/work/repo", "/home/ada"), [
      "/home/ada/work/repo",
      "/home/ada/work",
    ]);
  });

  test("cwd = $HOME: no project folder at all", () => {
    assert.deepEqual(projectAncestors("/home/ada", "/home/ada"), []);
  });

  test("outside $HOME: up to /", () => {
    assert.deepEqual(projectAncestors("/srv/x", "/home/ada"), ["/srv/x", "/srv", "/"]);
  });

  test("paths are normalised before comparing (trailing slash, dot segments)", () => {
    assert.deepEqual(projectAncestors("/home/ada/./x/../y/", "/home/ada/"), ["/home/ada/y"]);
  });

  test("no home: nothing is excluded", () => {
    assert.deepEqual(projectAncestors("/home/ada", ""), ["/home/ada", "/home", "/"]);
  });
});

describe("findAllNearestProjectConfigDirs and getConfigDirs on a real tree", () => {
  let root: string;
  let home: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "xcsh-config-dirs-"));
    home = join(root, "home");
    const dirs = [
      "home/.claude/agents", // user folder: never a project folder
      "home/.xcsh/agents", // project-style folder in HOME: never read
      "home/repo/.claude/agents",
      "home/repo/sub/.xcsh/agents",
      "home/repo/sub/deep/.xcsh/agents-not-this", // wrong subpath
      "home/.gemini/agents",
      ".gemini/agents", // above HOME: never a project folder for a cwd under it
      "home/repo/sub/deep/cwd",
    ];
    for (const d of dirs) mkdirSync(join(root, d), { recursive: true });
    // A file where a folder is expected does not count as that family's folder.
    mkdirSync(join(root, "home/repo/sub/deep/.codex"), { recursive: true });
    writeFileSync(join(root, "home/repo/sub/deep/.codex/agents"), "not a folder");
    mkdirSync(join(root, "home/repo/.codex/agents"), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("the nearest folder per family, in family order", async () => {
    const cwd = join(root, "home/repo/sub/deep/cwd");
    const found = await findAllNearestProjectConfigDirs("agents", { cwd, home });
    assert.deepEqual(found, [
      { family: "xcsh", scope: "project", path: join(root, "home/repo/sub/.xcsh/agents") },
      { family: "claude", scope: "project", path: join(root, "home/repo/.claude/agents") },
      { family: "codex", scope: "project", path: join(root, "home/repo/.codex/agents") },
    ]);
  });

  test("cwd = HOME: neither HOME's folders nor those above it are project folders", async () => {
    const found = await findAllNearestProjectConfigDirs("agents", { cwd: home, home });
    assert.deepEqual(found, []);
  });

  test("a folder outside HOME is found up to /", async () => {
    const found = await findAllNearestProjectConfigDirs("agents", { cwd: root, home });
    assert.deepEqual(found, [
      { family: "gemini", scope: "project", path: join(root, ".gemini/agents") },
    ]);
  });

  test("getConfigDirs: per family, project then user folder(s)", () => {
    const cwd = join(root, "home/repo");
    const dirs = getConfigDirs("agents", { cwd, home, env: {} });
    assert.deepEqual(dirs.map((d) => `${d.family} ${d.scope} ${d.path.slice(root.length)}`), [
      "xcsh user /home/.xcsh/agent/agents",
      "claude project /home/repo/.claude/agents",
      "claude user /home/.claude/agents",
      "codex project /home/repo/.codex/agents",
      "codex user /home/.codex/agents",
      "gemini user /home/.gemini/agents",
      "gemini user /home/.config/gemini-cli/agents",
    ]);
  });

  test("getConfigDirs options: project only, user only, no home", () => {
    const cwd = join(root, "home/repo");
    const e = { cwd, home, env: {} };
    const project = getConfigDirs("agents", e, { user: false });
    assert.ok(project.every((d) => d.scope === "project"));
    assert.equal(project.length, 2);
    const user = getConfigDirs("agents", e, { project: false });
    assert.ok(user.every((d) => d.scope === "user"));
    assert.equal(user.length, 5);
    const homeless = getConfigDirs("agents", { cwd, home: "", env: {} });
    assert.ok(homeless.every((d) => d.scope === "project"));
  });
});

test("definitionExtensions: Codex folders hold .toml files too", () => {
  assert.deepEqual(definitionExtensions("codex"), [".md", ".toml"]);
  assert.deepEqual(definitionExtensions("claude"), [".md"]);
});
