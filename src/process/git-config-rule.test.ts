// Which git config keys name programs, when the listing is needed, and the
// overrides that blank the repository's own.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  commandSettings,
  FIXED_SETTINGS,
  mayNameProgram,
  namesProgram,
  parseConfigList,
  PROGRAM_SETTINGS,
  repositoryOverrides,
  withGitSettings,
} from "./git-config-rule.ts";

/** Keys git's documentation gives a program or a shell command as value. */
const PROGRAM_KEYS = [
  "core.fsmonitor",
  "core.hooksPath",
  "core.editor",
  "core.pager",
  "core.sshCommand",
  "core.askPass",
  "core.gitProxy",
  "core.alternateRefsCommand",
  "sequence.editor",
  "pager.status",
  "pager.log",
  "credential.helper",
  "credential.https://example.com.helper",
  "diff.external",
  "diff.word.textconv",
  "diff.word.command",
  "merge.ours.driver",
  "filter.lfs.clean",
  "filter.lfs.smudge",
  "filter.lfs.process",
  "gpg.program",
  "gpg.ssh.program",
  "gpg.ssh.defaultKeyCommand",
  "gpg.x509.program",
  "remote.origin.uploadpack",
  "remote.origin.receivepack",
  "remote.origin.vcs",
  "uploadpack.packObjectsHook",
  "interactive.diffFilter",
  "submodule.lib.update",
  "difftool.x.cmd",
  "difftool.x.path",
  "mergetool.x.cmd",
  "mergetool.x.path",
  "web.browser",
  "browser.x.cmd",
  "browser.x.path",
  "man.viewer",
  "man.x.cmd",
  "man.x.path",
  "lfs.customtransfer.x.path",
  "lfs.extension.x.clean",
];

const PLAIN_KEYS = [
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.worktree",
  "core.excludesFile",
  "remote.origin.url",
  "remote.origin.fetch",
  "remote.origin.partialclonefilter",
  "branch.main.remote",
  "branch.main.merge",
  "submodule.lib.path",
  "submodule.lib.url",
  "include.path",
  "user.email",
  "status.showUntrackedFiles",
];

describe("namesProgram", () => {
  test("every documented program key, in any case", () => {
    for (const k of PROGRAM_KEYS) {
      assert.equal(namesProgram(k), true, k);
      assert.equal(namesProgram(k.toLowerCase()), true, k);
    }
  });
  test("data keys are left alone", () => {
    for (const k of PLAIN_KEYS) assert.equal(namesProgram(k), false, k);
    assert.equal(namesProgram("nodot"), false);
  });
});

describe("mayNameProgram", () => {
  test("a file setting any program key is listed, however the section is written", () => {
    for (const k of PROGRAM_KEYS) {
      const parts = k.split(".");
      const variable = parts.pop()!;
      const section = parts.length > 1
        ? `[${parts[0]} "${parts.slice(1).join(".")}"]`
        : `[${parts[0]}]`;
      assert.equal(mayNameProgram(`${section}\n\t${variable} = x\n`), true, k);
      assert.equal(mayNameProgram(`${section.toUpperCase()} ${variable.toUpperCase()}=x`), true, k);
    }
    assert.equal(mayNameProgram("[include]\n\tpath = ../x\n"), true);
    assert.equal(mayNameProgram('[includeIf "gitdir:/x/"]\n\tpath = y\n'), true);
    assert.equal(mayNameProgram("[alias]\n\ttidy = !rm -rf ~\n"), true);
    assert.equal(mayNameProgram("[alias]\n\tst = status --short\n"), false);
  });
  test("the config git init writes needs no listing", () => {
    const initial = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n" +
      '\tlogallrefupdates = true\n[remote "origin"]\n\turl = https://example.com/app.git\n' +
      '\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n' +
      "\tmerge = refs/heads/main\n";
    assert.equal(mayNameProgram(initial), false);
  });
});

describe("repositoryOverrides", () => {
  const listing = [
    "system\0credential.helper\nsystem-helper",
    "global\0filter.lfs.process\ngit-lfs filter-process",
    "global\0core.pager\nless",
    "local\0core.fsmonitor\n./.git/evil",
    "local\0core.sshcommand\nevil",
    "local\0filter.Evil.clean\nevil",
    "local\0remote.origin.url\nhttps://example.com/x.git",
    "worktree\0diff.word.textconv\nevil",
    "local\0core.bare",
    "local\0alias.tidy\n!rm -rf ~",
    "local\0alias.st\nstatus --short",
    "command\0core.editor\nvi",
    "",
  ].join("\0");
  test("parses the null-separated listing, value-less keys included", () => {
    const e = parseConfigList(listing);
    assert.equal(e.length, 12);
    assert.deepEqual(e[8], { scope: "local", key: "core.bare", value: null });
    assert.deepEqual(e[4], { scope: "local", key: "core.sshcommand", value: "evil" });
  });
  test("blanks the repository's programs; the user's own settings stay", () => {
    assert.deepEqual(repositoryOverrides(parseConfigList(listing)), [
      ["core.fsmonitor", ""],
      ["core.sshcommand", ""],
      ["filter.Evil.clean", ""],
      ["filter.Evil.smudge", ""],
      ["filter.Evil.process", ""],
      ["filter.Evil.required", "false"],
      ["diff.word.textconv", ""],
      ["alias.tidy", ""],
    ]);
  });
  test("every call disables hooks and fsmonitor", () => {
    const fixed = new Map(FIXED_SETTINGS.map(([k, v]) => [k, v]));
    assert.equal(fixed.get("core.hooksPath"), "/dev/null");
    assert.equal(fixed.get("core.fsmonitor"), "false");
  });
});

describe("withGitSettings", () => {
  const mine: [string, string][] = [["core.hooksPath", "/dev/null"], ["core.fsmonitor", "false"]];
  test("appends after the user's own entries, which stay", () => {
    assert.deepEqual(
      withGitSettings({
        PATH: "/bin",
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "core.hooksPath",
        GIT_CONFIG_VALUE_0: "./evil",
      }, mine),
      {
        PATH: "/bin",
        GIT_CONFIG_COUNT: "3",
        GIT_CONFIG_KEY_0: "core.hooksPath",
        GIT_CONFIG_VALUE_0: "./evil",
        GIT_CONFIG_KEY_1: "core.hooksPath",
        GIT_CONFIG_VALUE_1: "/dev/null",
        GIT_CONFIG_KEY_2: "core.fsmonitor",
        GIT_CONFIG_VALUE_2: "false",
      },
    );
  });
  test("a list with a key missing below its count is replaced", () => {
    assert.deepEqual(
      withGitSettings({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_VALUE_0: "x" }, [[
        "core.fsmonitor",
        "false",
      ]]),
      { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false" },
    );
  });
  test("a count git would refuse is replaced with its entries", () => {
    assert.deepEqual(
      withGitSettings({ GIT_CONFIG_COUNT: "x", GIT_CONFIG_KEY_0: "a.b", GIT_CONFIG_VALUE_0: "c" }, [
        ["core.fsmonitor", "false"],
      ]),
      { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false" },
    );
  });
  test("xcsh's own git and commands share the program settings", () => {
    for (const s of PROGRAM_SETTINGS) assert.ok(FIXED_SETTINGS.includes(s));
    assert.deepEqual(commandSettings([["filter.x.clean", ""]]), [
      ...PROGRAM_SETTINGS,
      ["filter.x.clean", ""],
    ]);
  });
});
