// Which settings and hooks files' hooks run, in what order, on a real folder tree.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSettingsHooks, settingsHookReport, withPluginRoot } from "./settings-hooks.ts";

const hooksOf = (command: string, event = "PreToolUse") => ({
  hooks: { [event]: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
});

function tree() {
  const root = mkdtempSync(join(tmpdir(), "settings-hooks-"));
  const home = join(root, "home");
  const cwd = join(home, "src", "app");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const put = (path: string, value: unknown) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  };
  return { home, cwd, put, env: { cwd, home, env: {} } };
}

describe("readSettingsHooks", () => {
  test("the user's, the project's and the local file's, in that order, each named", () => {
    const t = tree();
    t.put(join(t.home, ".claude", "settings.json"), hooksOf("user.sh"));
    t.put(join(t.cwd, ".claude", "settings.json"), hooksOf("project.sh"));
    t.put(join(t.cwd, ".claude", "settings.local.json"), hooksOf("local.sh"));
    t.put(join(t.home, ".codex", "hooks.json"), hooksOf("codex.sh"));
    const r = readSettingsHooks(t.env, () => true);
    assert.deepEqual(
      r.hooks.PreToolUse?.map((g) => g.hooks[0].command),
      ["user.sh", "project.sh", "local.sh", "codex.sh"],
    );
    assert.equal(r.hooks.PreToolUse?.[0].from, join(t.home, ".claude", "settings.json"));
    assert.deepEqual(r.sources.map((s) => [s.kind, s.state]), [
      ["user settings", "active"],
      ["project settings", "active"],
      ["local settings", "active"],
      ["codex user hooks", "active"],
    ]);
    assert.deepEqual(r.warnings, []);
  });

  test("project files wait for trust; the user's do not", () => {
    const t = tree();
    t.put(join(t.home, ".claude", "settings.json"), hooksOf("user.sh"));
    t.put(join(t.cwd, ".claude", "settings.json"), hooksOf("project.sh"));
    t.put(join(t.cwd, ".codex", "hooks.json"), hooksOf("codex-project.sh"));
    const asked: string[] = [];
    const r = readSettingsHooks(t.env, (path) => {
      asked.push(path);
      return false;
    });
    assert.deepEqual(r.hooks.PreToolUse?.map((g) => g.hooks[0].command), ["user.sh"]);
    assert.deepEqual(asked, [
      join(t.cwd, ".claude", "settings.json"),
      join(t.cwd, ".codex", "hooks.json"),
    ]);
    assert.deepEqual(r.sources.map((s) => s.state), ["active", "untrusted", "untrusted"]);
    assert.equal(r.warnings.length, 2);
    assert.match(r.warnings[0].message, /not run: the project is not trusted/);
    assert.ok(settingsHookReport(r.sources)[1].includes("skipped: the project is not trusted"));
  });

  test("a file that is not JSON, and hooks of a bad shape: one warning each, no hooks", () => {
    const t = tree();
    t.put(join(t.home, ".claude", "settings.json"), "{ nope");
    t.put(join(t.cwd, ".claude", "settings.json"), { hooks: { PreToolUse: "x" } });
    const r = readSettingsHooks(t.env, () => true);
    assert.deepEqual(r.hooks, {});
    assert.deepEqual(r.sources.map((s) => s.state), ["bad", "bad"]);
    assert.equal(r.warnings.length, 2);
    assert.equal(r.warnings[0].file, join(t.home, ".claude", "settings.json"));
    assert.match(r.warnings[0].message, /its hooks are not run/);
    assert.match(r.warnings[1].message, /must be a list/);
  });

  test("CLAUDE_CONFIG_DIR moves the user's settings", () => {
    const t = tree();
    t.put(join(t.home, "cc", "settings.json"), hooksOf("moved.sh"));
    t.put(join(t.home, ".claude", "settings.json"), hooksOf("default.sh"));
    const r = readSettingsHooks({ ...t.env, env: { CLAUDE_CONFIG_DIR: join(t.home, "cc") } });
    assert.deepEqual(r.hooks.PreToolUse?.map((g) => g.hooks[0].command), ["moved.sh"]);
  });

  test("an installed plugin's hooks.json, its root filled in", () => {
    const t = tree();
    const plugin = join(t.home, "plugins", "guard");
    t.put(join(plugin, "hooks", "hooks.json"), hooksOf("${CLAUDE_PLUGIN_ROOT}/hooks/g.sh"));
    t.put(join(t.home, ".claude", "plugins", "installed_plugins.json"), {
      version: 2,
      plugins: { "guard@m": [{ scope: "user", installPath: plugin }] },
    });
    const r = readSettingsHooks(t.env, () => false);
    assert.deepEqual(r.hooks.PreToolUse?.map((g) => g.hooks[0].command), [
      `${plugin}/hooks/g.sh`,
    ]);
    assert.equal(r.sources[0].kind, "plugin guard@m");
  });
});

test("events a task never has are notes for doctor, not run warnings", () => {
  const t = tree();
  t.put(join(t.home, ".claude", "settings.json"), {
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "notify.sh" }] }],
      Notification: [{ hooks: [{ type: "command", command: "notify.sh" }] }],
      PreToolUse: [{ hooks: [{ type: "prompt", prompt: "safe?" }] }],
    },
  });
  const r = readSettingsHooks(t.env, () => true);
  assert.deepEqual(r.notes.map((n) => n.field), ["hooks.Stop", "hooks.Notification"]);
  assert.deepEqual(r.warnings.map((n) => n.field), ["hooks.PreToolUse[0].hooks[0]"]);
});

test("withPluginRoot fills both spellings", () => {
  assert.equal(
    withPluginRoot('"${CLAUDE_PLUGIN_ROOT}"/a $CLAUDE_PLUGIN_ROOT/b', "/p"),
    '"/p"/a /p/b',
  );
});
