// Unit tests for Claude plugin discovery: reading
// installed_plugins.json versions 1 and 2 (and refusing other shapes), the
// verdict on each install (enabled flags, merged enabledPlugins, projectPath
// against cwd and its ancestors, installPath), the order (project-scoped
// first, then user, file order within each), and the layering of the
// user's and the project's settings on a real temporary tree.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeInstalls, listClaudePluginRoots, readRegistry } from "./plugins.ts";

type Raw = Exclude<ReturnType<typeof readRegistry>, string>;

describe("readRegistry", () => {
  test("version 2: a list of installs per id, flattened in file order", () => {
    const raw = readRegistry({
      version: 2,
      plugins: {
        "a@m": [{ scope: "project", projectPath: "/p" }, { scope: "user", installPath: "/a" }],
        "b@m": [{ scope: "user", installPath: "/b" }],
      },
    });
    assert.deepEqual(raw, [
      { id: "a@m", entry: { scope: "project", projectPath: "/p" } },
      { id: "a@m", entry: { scope: "user", installPath: "/a" } },
      { id: "b@m", entry: { scope: "user", installPath: "/b" } },
    ]);
  });

  test("version 1: one install object per id", () => {
    const raw = readRegistry({
      version: 1,
      plugins: { "old@m": { version: "1.0.0", installPath: "/old", isLocal: false } },
    });
    assert.deepEqual(raw, [{
      id: "old@m",
      entry: { version: "1.0.0", installPath: "/old", isLocal: false },
    }]);
  });

  test("entries that are not objects are dropped", () => {
    const raw = readRegistry({ plugins: { "a@m": [1, null, "x", [], { installPath: "/a" }] } });
    assert.deepEqual(raw, [{ id: "a@m", entry: { installPath: "/a" } }]);
  });

  test("wrong shapes: a reason, not an exception", () => {
    for (
      const doc of [null, 3, "x", [], {}, { plugins: [] }, { plugins: "x" }, { plugins: null }]
    ) {
      const r = readRegistry(doc);
      assert.equal(typeof r, "string", JSON.stringify(doc));
      assert.match(r as string, /'plugins' object/);
    }
  });
});

describe("judgeInstalls", () => {
  const cwdAncestors = ["/w/repo/src", "/w/repo", "/w", "/"];
  const raw = (id: string, entry: Record<string, unknown>) => ({ id, entry });

  test("each verdict and its reason", () => {
    const installs: Raw = [
      raw("user@m", { scope: "user", installPath: "/i/user" }),
      raw("entry-off@m", { scope: "user", enabled: false, installPath: "/i/x" }),
      raw("settings-off@m", { scope: "user", installPath: "/i/x" }),
      raw("settings-on@m", { scope: "user", installPath: "/i/on" }),
      raw("both@m", { scope: "user", enabled: false, installPath: "/i/x" }),
      raw("proj@m", { scope: "project", projectPath: "/w/repo", installPath: "/i/proj" }),
      raw("proj-cwd@m", { scope: "project", projectPath: "/w/repo/src/", installPath: "/i/pc" }),
      raw("proj-other@m", { scope: "project", projectPath: "/w/other", installPath: "/i/x" }),
      raw("proj-below@m", { scope: "project", projectPath: "/w/repo/src/x", installPath: "/i/x" }),
      raw("proj-none@m", { scope: "project", installPath: "/i/x" }),
      raw("local@m", { scope: "local", projectPath: "/w", installPath: "/i/local" }),
      raw("no-path@m", { scope: "user" }),
      raw("rel-path@m", { scope: "user", installPath: "plugins/x" }),
      raw("odd-scope@m", { scope: "galaxy", installPath: "/i/odd" }),
      raw("no-scope@m", { installPath: "/i/none" }),
      raw("managed@m", { scope: "managed", installPath: "/i/managed" }),
    ];
    const enabled = { "settings-off@m": false, "settings-on@m": true, "both@m": true };
    const verdicts = judgeInstalls(installs, enabled, cwdAncestors).map((i) =>
      `${i.id} ${i.scope} ${i.included ? "in" : "out"}: ${i.reason}`
    );
    assert.deepEqual(verdicts, [
      // project and local first, in file order
      "proj@m project in: project install",
      "proj-cwd@m project in: project install",
      "proj-other@m project out: installed for another project (/w/other)",
      "proj-below@m project out: installed for another project (/w/repo/src/x)",
      "proj-none@m project out: project install without projectPath",
      "local@m local in: local install",
      // then user (and managed, unknown or missing scope), in file order
      "user@m user in: user install",
      "entry-off@m user out: disabled in installed_plugins.json",
      "settings-off@m user out: disabled in enabledPlugins",
      "settings-on@m user in: user install",
      "both@m user out: disabled in installed_plugins.json",
      "no-path@m user out: installPath missing",
      "rel-path@m user out: installPath is not absolute (plugins/x)",
      "odd-scope@m user in: user install",
      "no-scope@m user in: user install",
      "managed@m managed in: managed install",
    ]);
  });

  test("the order is stable: file order within each of the two groups", () => {
    const ids = ["u1", "p1", "u2", "l1", "u3", "p2"];
    const installs: Raw = ids.map((id) =>
      raw(id, {
        scope: id[0] === "u" ? "user" : id[0] === "p" ? "project" : "local",
        projectPath: "/w",
        installPath: `/i/${id}`,
      })
    );
    assert.deepEqual(
      judgeInstalls(installs, {}, cwdAncestors).map((i) => i.id),
      ["p1", "l1", "p2", "u1", "u2", "u3"],
    );
  });

  test("disabled project installs still sort with the project group", () => {
    const installs: Raw = [
      raw("u@m", { scope: "user", installPath: "/i/u" }),
      raw("p@m", { scope: "project", projectPath: "/w", installPath: "/i/p", enabled: false }),
    ];
    assert.deepEqual(judgeInstalls(installs, {}, cwdAncestors).map((i) => i.id), ["p@m", "u@m"]);
  });
});

describe("listClaudePluginRoots on a real tree", () => {
  let root: string;
  let home: string;
  const json = (path: string, value: unknown) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), "xcsh-plugins-"));
    home = join(root, "home");
    for (const p of ["a", "b", "c", "d", "e"]) {
      mkdirSync(join(root, "cache", p, "agents"), { recursive: true });
    }
    json(join(home, ".claude/plugins/installed_plugins.json"), {
      version: 2,
      plugins: Object.fromEntries(
        ["a", "b", "c", "d", "e"].map((p) => [`${p}@m`, [{
          scope: "user",
          installPath: join(root, "cache", p),
        }]]),
      ),
    });
    // user: a off, b off, c off; project: b back on; local: c stays off, d off.
    json(join(home, ".claude/settings.json"), {
      enabledPlugins: { "a@m": false, "b@m": false, "c@m": false },
    });
    json(join(root, "w/repo/.claude/settings.json"), { enabledPlugins: { "b@m": true } });
    json(join(root, "w/repo/.claude/settings.local.json"), { enabledPlugins: { "d@m": false } });
    // A farther project .claude: never read when a nearer one exists.
    json(join(root, "w/.claude/settings.json"), { enabledPlugins: { "e@m": false } });
    mkdirSync(join(root, "w/repo/src"), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("user settings, then the nearest project's settings.json and settings.local.json", () => {
    const listing = listClaudePluginRoots({
      cwd: join(root, "w/repo/src"),
      home,
      env: {},
    });
    assert.deepEqual(listing.roots.map((r) => r.id), ["b@m", "e@m"]);
    assert.deepEqual(listing.files.map((f) => [f.path.slice(root.length), f.exists]), [
      ["/home/.claude/plugins/installed_plugins.json", true],
      ["/home/.claude/settings.json", true],
      ["/w/repo/.claude/settings.json", true],
      ["/w/repo/.claude/settings.local.json", true],
    ]);
    assert.deepEqual(listing.warnings, []);
  });

  test("a registry pointing at a missing folder: the install is out, with a warning", () => {
    rmSync(join(root, "cache", "e"), { recursive: true });
    try {
      const listing = listClaudePluginRoots({ cwd: join(root, "w/repo"), home, env: {} });
      assert.deepEqual(listing.roots.map((r) => r.id), ["b@m"]);
      const e = listing.installs.find((i) => i.id === "e@m")!;
      assert.equal(e.included, false);
      assert.match(e.reason, /^installPath does not exist/);
      assert.equal(listing.warnings.length, 1);
      assert.match(listing.warnings[0].message, /plugin e@m: installPath does not exist/);
    } finally {
      mkdirSync(join(root, "cache", "e", "agents"), { recursive: true });
    }
  });

  test("no registry: no roots, no warnings", () => {
    const listing = listClaudePluginRoots({
      cwd: root,
      home: join(root, "nobody"),
      env: {},
    });
    assert.deepEqual(listing.roots, []);
    assert.deepEqual(listing.installs, []);
    assert.deepEqual(listing.warnings, []);
    assert.equal(listing.files[0].exists, false);
  });

  test("CLAUDE_CONFIG_DIR moves the registry and the user settings", () => {
    const alt = join(root, "alt");
    mkdirSync(join(alt, "plugins"), { recursive: true });
    json(join(alt, "plugins/installed_plugins.json"), {
      version: 1,
      plugins: { "a@m": { installPath: join(root, "cache", "a") } },
    });
    const listing = listClaudePluginRoots({
      cwd: root,
      home,
      env: { CLAUDE_CONFIG_DIR: alt },
    });
    assert.deepEqual(listing.roots.map((r) => [r.id, r.scope]), [["a@m", "user"]]);
    assert.equal(listing.files[1].path, join(alt, "settings.json"));
  });
});

test("a registry that is a FIFO is one warning, not a hang", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-plugins-fifo-"));
  try {
    const registry = join(root, "home/.claude/plugins/installed_plugins.json");
    mkdirSync(join(registry, ".."), { recursive: true });
    assert.equal(spawnSync("mkfifo", [registry]).status, 0, "mkfifo");
    const listing = listClaudePluginRoots({ cwd: root, home: join(root, "home"), env: {} });
    assert.deepEqual(listing.roots, []);
    assert.equal(listing.warnings.length, 1);
    assert.equal(listing.warnings[0].file, registry);
    assert.match(listing.warnings[0].message, /is not a regular file/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
