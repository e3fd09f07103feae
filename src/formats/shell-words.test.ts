// The shell subset permission rules read: what counts as one command, what
// makes a line unreadable.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { shellCommands } from "./shell-words.ts";

const words = (line: string) => {
  const r = shellCommands(line);
  return r.ok ? r.commands.map((c) => [...c.assignments, ...c.words].join(" ")) : r.reason;
};

describe("shellCommands", () => {
  const rows: [string, string, string[] | RegExp][] = [
    ["one command", "git status", ["git status"]],
    ["extra spaces", "  git   status  ", ["git status"]],
    ["semicolon", "git status; rm -rf /", ["git status", "rm -rf /"]],
    ["and, or, pipe", "git status && curl x || a | b |& c", [
      "git status",
      "curl x",
      "a",
      "b",
      "c",
    ]],
    ["background and newline", "a & b\nc", ["a", "b", "c"]],
    ["subshell", "(rm x)", ["rm x"]],
    ["subshell after a command", "git status && (cd /; rm x)", ["git status", "cd /", "rm x"]],
    ["quotes join words", `git commit -m "a b" 'c d'`, ["git commit -m a b c d"]],
    ["quoted command name", `"git" status`, ["git status"]],
    ["escaped space", "ls a\\ b", ["ls a b"]],
    ["env prefix", "FOO=1 git status", ["FOO=1 git status"]],
    ["fd duplication and /dev/null", "make 2>&1 >/dev/null", ["make"]],
    ["comment", "ls # rm x", ["ls"]],
    ["command substitution", "git status $(rm x)", /command substitution/],
    ["backticks", "git status `rm x`", /command substitution/],
    ["substitution in double quotes", `echo "$(rm x)"`, /command substitution/],
    ["variable", "rm $HOME", /variable expansion/],
    ["redirect to a file", "git status > out", /redirection to a file/],
    ["redirect inside a word", "echo a>b", /redirection to a file/],
    ["read from a file", "sh < script", /redirection from a file/],
    ["here-document", "cat <<EOF", /here-document/],
    ["process substitution", "diff <(ls) x", /process substitution/],
    ["glob as the command", "/bin/r? x", /pattern as a command name/],
    ["unterminated quote", "echo 'a", /unterminated quote/],
    ["unbalanced parenthesis", "(ls", /unbalanced parenthesis/],
    ["closing parenthesis", "ls)", /unbalanced parenthesis/],
    ["brace group", "{ rm x; }", /group/],
    ["brace expansion as the command", "{rm,-rf,x}", /brace expansion/],
    ["brace expansion in an argument", "sudo {rm,x}", /brace expansion/],
    ["a sequence", "echo {1..3}", /brace expansion/],
    ["quoted braces are text", `echo "{a,b}"`, ["echo {a,b}"]],
    ["find's {} is a word", "find . -exec ls {} ;", ["find . -exec ls {}"]],
    // As in the shell, only spaces and tabs part words: these once looped forever.
    ["a carriage return is part of a word", "ls\r", ["ls\r"]],
    ["a CRLF line ending", "ls -la\r\nrm x", ["ls -la\r", "rm x"]],
    ["a vertical tab and a form feed", "ls\v-a\f", ["ls\v-a\f"]],
    ["a Unicode space", "ls\u00a0-la x\u2028y", ["ls\u00a0-la x\u2028y"]],
    ["a line separator before a separator", "ls\u2028; rm x", ["ls\u2028", "rm x"]],
    ["a lone Unicode space is a word", "\u3000", ["\u3000"]],
    ["a carriage return after a duplication", "ls 2>&1\r", /redirection to a file/],
  ];
  for (const [name, line, expected] of rows) {
    test(name, () => {
      const got = words(line);
      if (expected instanceof RegExp) assert.match(String(got), expected);
      else assert.deepEqual(got, expected);
    });
  }
  test("assignments are kept apart from words", () => {
    assert.deepEqual(shellCommands("A=1 B=2 git log"), {
      ok: true,
      commands: [{ assignments: ["A=1", "B=2"], words: ["git", "log"] }],
    });
  });
});
