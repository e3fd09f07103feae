// Unit tests for reading `xcsh -p`'s flags (Claude Code's names) and its prompt.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseFlags } from "./args.ts";
import { UsageError } from "./errors.ts";
import { parseBudget, PRINT_FLAGS, readPrintFlags, runArgs } from "./print-flags.ts";
import { printPrompt } from "./print-prompt.ts";

const read = (args: string[]) => {
  const { values, positionals } = parseFlags("-p", args, PRINT_FLAGS);
  return readPrintFlags(values, positionals);
};

describe("readPrintFlags", () => {
  test("a CI call: the task agent, the format, the lists, the budget", () => {
    const { plan, notes } = read([
      "-p",
      "fix it",
      "--output-format",
      "stream-json",
      "--allowedTools",
      "Read,Bash(git diff *)",
      "--allowed-tools",
      "Grep",
      "--disallowedTools",
      "WebFetch",
      "--max-budget-usd",
      "1.5",
      "--include-partial-messages",
    ]);
    assert.deepEqual(plan.words, ["fix it"]);
    assert.equal(plan.agent, "task");
    assert.equal(plan.format, "stream-json");
    assert.deepEqual(plan.allowed, ["Read,Bash(git diff *)", "Grep"]);
    assert.deepEqual(plan.disallowed, ["WebFetch"]);
    assert.equal(plan.budgetUSD, 1.5);
    assert.equal(plan.partial, true);
    assert.deepEqual(notes, []);
    assert.equal(plan.unpricedFree, undefined);
  });

  test("--budget-unpriced-free travels to the run with the budget", () => {
    const { plan } = read(["-p", "go", "--max-budget-usd", "2", "--budget-unpriced-free"]);
    assert.equal(plan.unpricedFree, true);
    const args = runArgs(plan, undefined);
    assert.deepEqual(
      args.slice(args.indexOf("--max-budget-usd")),
      ["--max-budget-usd", "2", "--budget-unpriced-free"],
    );
  });

  test("flags with no meaning here are accepted with one note each", () => {
    const { notes } = read([
      "-p",
      "go",
      "--dangerously-skip-permissions",
      "--mcp-config",
      "servers.json",
      "--permission-mode",
      "bypassPermissions",
    ]);
    assert.equal(notes.length, 3);
    assert.match(notes[0], /^--dangerously-skip-permissions is accepted and ignored/);
    assert.match(notes[1], /^--mcp-config is accepted and ignored/);
    assert.match(notes[2], /^--permission-mode bypassPermissions is accepted and ignored/);
  });

  test("--permission-mode plan is plan mode; --agent names the agent", () => {
    const { plan, notes } = read(["-p", "go", "--permission-mode", "plan", "--agent", "explore"]);
    assert.equal(plan.plan, true);
    assert.equal(plan.agent, "explore");
    assert.deepEqual(notes, []);
  });

  test("bad values are one line naming the flag", () => {
    const bad: [string[], RegExp][] = [
      [
        ["--output-format", "xml"],
        /^--output-format: expected text, json, stream-json, got "xml"$/,
      ],
      [["--permission-mode", "yolo"], /^--permission-mode: expected one of default, acceptEdits/],
      [["--input-format", "stream-json"], /^--input-format: only text is read here/],
      [["--resume", "abc", "--continue"], /--resume and --continue do not go together/],
      [["--max-budget-usd", "0"], /^--max-budget-usd: expected a positive number/],
    ];
    for (const [args, message] of bad) {
      assert.throws(() => read(["-p", ...args]), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, message);
        return true;
      });
    }
  });
});

test("parseBudget: positive decimal dollars only", () => {
  assert.equal(parseBudget("5"), 5);
  assert.equal(parseBudget("0.25"), 0.25);
  assert.equal(parseBudget(".5"), 0.5);
  for (const bad of ["0", "-1", "$5", "5usd", "", "1e3", "Infinity", "NaN", "0.0"]) {
    assert.throws(() => parseBudget(bad), /--max-budget-usd/, bad);
  }
});

test("runArgs: the run flags of the same meaning", () => {
  const { plan } = read([
    "-p",
    "go",
    "--json-schema",
    "{}",
    "--model",
    "local/m",
    "--max-turns",
    "3",
    "--permission-mode",
    "plan",
    "--verbose",
  ]);
  assert.deepEqual(runArgs(plan, undefined), [
    "task",
    "--schema",
    "{}",
    "--model",
    "local/m",
    "--max-turns",
    "3",
    "--plan",
    "--verbose",
  ]);
  // A resumed session keeps its own agent and mode.
  assert.deepEqual(runArgs(plan, "s1").slice(0, 2), ["--resume", "s1"]);
  assert.ok(!runArgs(plan, "s1").includes("--plan"));
});

test("printPrompt: the argument, then stdin, one line apart; either alone", () => {
  assert.equal(printPrompt(["summarize", "this"], "line\n"), "summarize this\nline\n");
  assert.equal(printPrompt([], "only stdin"), "only stdin");
  assert.equal(printPrompt(["only", "args"], ""), "only args");
  assert.equal(printPrompt([], "  \n"), "");
});
