// Unit tests for the flag reader: every accepted form, and each bad input with
// the message that names the flag and the command.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseFlags, showTarget } from "./args.ts";
import { UsageError } from "./errors.ts";

const SPEC = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  cwd: { type: "string" },
  task: { type: "string", multiple: true },
} as const;

describe("parseFlags: accepted forms", () => {
  const rows: [args: string[], values: Record<string, unknown>, positionals: string[]][] = [
    [[], {}, []],
    [["--json"], { json: true }, []],
    [["--json", "--json"], { json: true }, []],
    [["-h"], { help: true }, []],
    [["--help"], { help: true }, []],
    [["--cwd", "/x"], { cwd: "/x" }, []],
    [["--cwd=/x"], { cwd: "/x" }, []],
    [["--cwd=-dash"], { cwd: "-dash" }, []],
    [["--cwd=a=b"], { cwd: "a=b" }, []],
    [["--cwd="], { cwd: "" }, []],
    [["--cwd", "/a", "--cwd", "/b"], { cwd: "/b" }, []],
    [["--cwd", "-"], { cwd: "-" }, []],
    [["--task", "a=1", "--task=b=2"], { task: ["a=1", "b=2"] }, []],
    [["show", "x", "--json"], { json: true }, ["show", "x"]],
    [["a", "--json", "b"], { json: true }, ["a", "b"]],
    [["-"], {}, ["-"]],
    [["--", "--json", "-h"], {}, ["--json", "-h"]],
    [["x", "--", "--"], {}, ["x", "--"]],
    [["--"], {}, []],
  ];
  for (const [args, values, positionals] of rows) {
    test(JSON.stringify(args), () => {
      const r = parseFlags("cmd", args, SPEC);
      assert.deepEqual({ ...r.values }, values);
      assert.deepEqual(r.positionals, positionals);
    });
  }
});

describe("parseFlags: bad input names the flag", () => {
  const rows: [args: string[], message: string][] = [
    [["--bogus"], "cmd: unknown flag '--bogus'"],
    [["--bogus=1"], "cmd: unknown flag '--bogus'"],
    [["-x"], "cmd: unknown flag '-x'"],
    [["-3"], "cmd: unknown flag '-3'"],
    [["--constructor"], "cmd: unknown flag '--constructor'"],
    [["--__proto__"], "cmd: unknown flag '--__proto__'"],
    [["--json-schema", "{}"], "cmd: unknown flag '--json-schema' (did you mean '--json'?)"],
    [["--tsk=a=b"], "cmd: unknown flag '--tsk' (did you mean '--task'?)"],
    [["--json=yes"], "cmd: flag '--json' does not take a value"],
    [["-h=1"], "cmd: flag '-h' does not take a value"],
    [["--cwd"], "cmd: flag '--cwd' is missing its value"],
    [
      ["--cwd", "--json"],
      "cmd: flag '--cwd' is missing its value (to give a value starting with '-', write --cwd=VALUE)",
    ],
    [
      ["--task", "-1"],
      "cmd: flag '--task' is missing its value (to give a value starting with '-', write --task=VALUE)",
    ],
  ];
  for (const [args, message] of rows) {
    test(JSON.stringify(args), () => {
      assert.throws(() => parseFlags("cmd", args, SPEC), (err: unknown) => {
        assert.ok(err instanceof UsageError);
        assert.equal(err.message, message);
        assert.equal(err.hint, "Run 'xcsh cmd --help' for usage.");
        return true;
      });
    });
  }
});

describe("showTarget", () => {
  test("nothing lists; show NAME [ARG…] shows; anything else names the command", () => {
    assert.deepEqual(showTarget("skills", "skill", []), {});
    assert.deepEqual(showTarget("commands", "command", ["show", "init", "a", "b"]), {
      show: { name: "init", rest: ["a", "b"] },
    });
    assert.throws(
      () => showTarget("skills", "skill", ["list"]),
      /^UsageError: skills: unknown subcommand 'list'$|skills: unknown subcommand 'list'/,
    );
    assert.throws(
      () => showTarget("skills", "skill", ["show"]),
      /skills show: expected a skill NAME/,
    );
  });
});
