// Unit tests for the command line a launcher gets.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { jobName, launchCommand, protocolVariables, shellQuote } from "./launch-command.ts";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("launchCommand", () => {
  const values = { task: "t 1", agent: "explore", session: "s9", cwd: "/work dir" };
  test("fills placeholders and appends the protocol variables and the binary", () => {
    const c = launchCommand(
      {
        name: "c",
        key: "k",
        args: ["srun", "-J", "{job}", "--chdir={cwd}", "{session}", "--"],
        shell: false,
      },
      values,
      { XCSH_TASK_DEPTH: "1", XCSH_SPAWNS: "" },
      ["/bin/xcsh"],
    );
    assert.deepEqual(c, {
      command: "srun",
      args: [
        "-J",
        "xcsh-explore-t-1",
        "--chdir=/work dir",
        "s9",
        "--",
        "env",
        "XCSH_TASK_DEPTH=1",
        "XCSH_SPAWNS=",
        "/bin/xcsh",
        "__child",
      ],
    });
  });
  test("through a shell every value and word after the program is shell-quoted", () => {
    const c = launchCommand(
      { name: "c", key: "k", args: ["ssh", "box", "cd", "{cwd}", "&&"], shell: true },
      values,
      { XCSH_SPAWNS: "*", XCSH_MODEL: "it's" },
      ["/opt/x y/xcsh"],
    );
    assert.deepEqual(c.args, [
      "box",
      "cd",
      "'/work dir'",
      "&&",
      "env",
      "'XCSH_SPAWNS=*'",
      `'XCSH_MODEL=it'\\''s'`,
      "'/opt/x y/xcsh'",
      "__child",
    ]);
  });

  // Hostile values, as if a name had got past discovery: whatever the program
  // (autossh, env ssh, timeout 5 ssh, sshpass -e ssh, a wrapper), a launcher
  // whose far side is a shell hands each value over as one quoted word, which
  // `sh -c` (what ssh's far side runs) reads back unchanged and never runs.
  const hostile = [
    "rev$(touch${IFS}pwned)",
    "rev`touch${IFS}pwned`",
    "rev;touch${IFS}pwned",
    "rev\ntouch pwned",
    "rev'$(touch pwned)'",
    "rev|touch pwned&",
  ];
  const wrappers = [
    ["autossh", "-M", "0", "box"],
    ["env", "ssh", "box"],
    ["timeout", "5", "ssh", "box"],
    ["sshpass", "-e", "ssh", "box"],
    ["/home/me/bin/remote"],
  ];
  for (const prefix of wrappers) {
    test(`${prefix.join(" ")} (shell): a hostile value stays one inert word`, () => {
      for (const bad of hostile) {
        const c = launchCommand(
          {
            name: "c",
            key: "k",
            args: [...prefix, "echo", "{agent}", "{task}", "{cwd}"],
            shell: true,
          },
          { task: bad, agent: bad, session: "s", cwd: `/p/${bad}` },
          { XCSH_TASK_DEPTH: "1" },
          ["/bin/xcsh"],
        );
        const words = c.args.slice(prefix.length - 1);
        const at = words.indexOf("echo");
        assert.deepEqual(words.slice(at + 1, at + 4).map(unquote), [bad, bad, `/p/${bad}`]);
      }
    });
  }

  test("a far shell (sh -c, as ssh's far side runs it) echoes hostile values and runs none", () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-launch-"));
    try {
      for (const bad of hostile) {
        const c = launchCommand(
          {
            name: "c",
            key: "k",
            args: ["autossh", "box", "printf", "'%s|'", "{agent}", "{cwd}", ";", "true"],
            shell: true,
          },
          { task: "t", agent: bad, session: "s", cwd: `/p/${bad}` },
          { XCSH_TASK_DEPTH: "1" },
          ["/bin/true"],
        );
        // ssh joins the words after the host with spaces; the far shell reads them.
        const out = execFileSync("sh", ["-c", c.args.slice(1).join(" ")], {
          cwd: dir,
          encoding: "utf8",
        });
        assert.equal(out, `${bad}|/p/${bad}|`);
        assert.deepEqual(readdirSync(dir), [], `nothing ran for ${JSON.stringify(bad)}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the blocked agent and the spawn right never reach the command line", () => {
    const c = launchCommand(
      { name: "c", key: "k", args: ["ssh", "box"], shell: true },
      values,
      protocolVariables({ XCSH_TASK_DEPTH: "1", XCSH_SPAWNS: "a,b", PI_BLOCKED_AGENT: "rev" }),
      ["/bin/xcsh"],
    );
    assert.deepEqual(c.args, ["box", "env", "XCSH_TASK_DEPTH=1", "/bin/xcsh", "__child"]);
  });
});

/** What a POSIX shell reads back from one word shellQuote wrote. */
function unquote(word: string): string {
  if (!word.startsWith("'")) {
    assert.match(
      word,
      /^[A-Za-z0-9_./:,=@%+-]+$/,
      `a bare word holds nothing a shell reads: ${word}`,
    );
    return word;
  }
  assert.match(word, /^'([^']|'\\'')*'$/, `one quoted word: ${word}`);
  return word.slice(1, -1).replaceAll(`'\\''`, "'");
}

test("jobName keeps what every engine accepts, at most 63 characters", () => {
  assert.equal(jobName("explore", "0-explore"), "xcsh-explore-0-explore");
  assert.equal(jobName("Quick_Task", "x/y;z"), "xcsh-quick-task-x-y-z");
  assert.equal(jobName("a".repeat(100), "t").length, 63);
  assert.equal(jobName("a", "b--"), "xcsh-a-b");
  assert.equal(jobName("a".repeat(57), "-x"), "xcsh-" + "a".repeat(57));
});

test("shellQuote leaves plain words alone and quotes the rest", () => {
  assert.equal(shellQuote("XCSH_TASK_DEPTH=1"), "XCSH_TASK_DEPTH=1");
  assert.equal(shellQuote("a b"), "'a b'");
  assert.equal(shellQuote("$(rm -rf ~)"), "'$(rm -rf ~)'");
  assert.equal(shellQuote(""), "''");
});

test("protocolVariables keeps xcsh's variables, less those the envelope carries", () => {
  assert.deepEqual(
    protocolVariables({
      XCSH_TASK_DEPTH: "1",
      XCSH_PARENT_PIPE: "1",
      XCSH_SPAWNS: "a",
      PI_BLOCKED_AGENT: "a",
      HOME: "/h",
      PATH: "/bin",
    }),
    { XCSH_TASK_DEPTH: "1", XCSH_PARENT_PIPE: "1" },
  );
});
