// Properties of the shell-words reader behind `Bash(…)` permission rules
// (`shellCommands`), whose input is whatever command a model writes:
//
// - total: every line gets an answer (a list of commands, or a reason it is
//   unreadable), for every Unicode whitespace character and random text;
// - bounded: the words hold no more characters than the line, and there are
//   no more words than characters;
// - separators: only space and tab part words, a newline, `;`, `&`, `|`
//   part commands, as in the shell; every other whitespace character (`\r`,
//   `\v`, `\f`, NEL, NBSP, U+2028, …) is part of its word;
// - round trip: words joined by blanks and commands by separators read back
//   as the same words; any text in single quotes reads back as itself.
//
// Seeded: a failure prints the seed and the shrunk counterexample; replay it
// with FUZZ_SEED=<seed>.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { shellCommands, type ShellParse } from "../../src/formats/shell-words.ts";
import { check } from "./support.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SLOW = { timeout: 120_000 };

/** Every code point with White_Space=yes, and the look-alikes that are not. */
const WHITESPACE: string[] = (() => {
  const out: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (/^\p{White_Space}$/u.test(c)) out.push(c);
  }
  for (const c of ["\ufeff", "\u180e", "\u200b", "\u2060"]) out.push(c);
  return out;
})();

/** What only the shell's parser treats as blanks and command separators. */
const BLANKS = new Set([" ", "\t"]);
const SEPARATORS = /[ \t\n;&|()]/;

/** The shape every answer has. */
function assertAnswer(line: string, r: ShellParse): void {
  if (!r.ok) {
    assert.equal(typeof r.reason, "string");
    assert.ok(r.reason.length > 0, `a reason for ${JSON.stringify(line)}`);
    return;
  }
  let chars = 0;
  let words = 0;
  for (const c of r.commands) {
    assert.ok(c.words.length + c.assignments.length > 0, "no empty command");
    for (const w of [...c.assignments, ...c.words]) {
      chars += w.length;
      words++;
    }
  }
  assert.ok(chars <= line.length, `words longer than ${JSON.stringify(line)}`);
  assert.ok(words <= line.length, `more words than characters in ${JSON.stringify(line)}`);
}

describe("shellCommands over Unicode whitespace", () => {
  test("the list holds every White_Space character and the old troublemakers", () => {
    for (const c of ["\t", "\n", "\v", "\f", "\r", " ", "\u0085", "\u00a0", "\u2028", "\u3000"]) {
      assert.ok(WHITESPACE.includes(c), JSON.stringify(c));
    }
    assert.ok(WHITESPACE.length >= 25);
  });

  for (const c of WHITESPACE) {
    const name = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    test(`${name} alone, between words, around separators and in quotes`, () => {
      const lines = [
        c,
        c.repeat(3),
        `ls${c}`,
        `${c}ls`,
        `ls${c}-la`,
        `ls${c};${c}rm x`,
        `ls ${c} x`,
        `(ls${c})`,
        `ls${c}|${c}wc`,
        `'a${c}b'`,
        `"a${c}b"`,
        `a\\${c}b`,
        `ls 2>&1${c}`,
        `ls >/dev/null${c}`,
        `# x${c}y`,
      ];
      for (const line of lines) assertAnswer(line, shellCommands(line));

      const r = shellCommands(`ls${c}-la`);
      assert.ok(r.ok, JSON.stringify(r));
      const words = r.commands.map((x) => x.words);
      if (BLANKS.has(c)) assert.deepEqual(words, [["ls", "-la"]]);
      else if (c === "\n") assert.deepEqual(words, [["ls"], ["-la"]]);
      else assert.deepEqual(words, [[`ls${c}-la`]], "part of the word, as in the shell");

      const quoted = shellCommands(`echo '${c}' "${c}"`);
      assert.ok(quoted.ok);
      assert.deepEqual(quoted.commands[0].words, ["echo", c, c]);
    });
  }
});

// ---- Random lines -----------------------------------------------------------

/** Characters that mean something to the reader, and whitespace of every kind. */
const SPECIAL = fc.constantFrom(
  ..."'\"\\$`;&|()<>{}[]*?~#=,.!-0123456789/".split(""),
  "..",
  "&&",
  "||",
  "|&",
  ">&",
  "2>&1",
  ">/dev/null",
  "$(",
  "<<",
  "<(",
  "{a,b}",
);
const charArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b", "l", "s", "x", " ") },
  { weight: 3, arbitrary: SPECIAL },
  { weight: 3, arbitrary: fc.constantFrom(...WHITESPACE) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const lineArb = fc.oneof(
  fc.array(charArb, { maxLength: 40 }).map((cs) => cs.join("")),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);

/**
 * A word of plain characters (no `=`, `#`, quotes, globs or braces) and
 * whitespace other than blanks and newlines.
 */
const OTHER_SPACE = WHITESPACE.filter((c) => !BLANKS.has(c) && c !== "\n");
const wordArb = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(..."abcxyz019._/-+%@:^".split(""), "é", "日") },
    { weight: 2, arbitrary: fc.constantFrom(...OTHER_SPACE) },
  ),
  { minLength: 1, maxLength: 8 },
).map((cs) => cs.join(""));
const commandArb = fc.array(wordArb, { minLength: 1, maxLength: 5 });

describe("shellCommands over random lines", () => {
  test("every line gets an answer of bounded size", SLOW, () => {
    check(lineArb, (line) => assertAnswer(line, shellCommands(line)), RUNS);
  });

  test("words never hold a blank, a newline or a separator the line did not quote", SLOW, () => {
    // Without quotes or backslashes nothing is quoted.
    const unquoted = lineArb.map((l) => l.replace(/['"\\]/g, ""));
    check(unquoted, (line) => {
      const r = shellCommands(line);
      assertAnswer(line, r);
      if (!r.ok) return;
      for (const c of r.commands) {
        for (const w of [...c.assignments, ...c.words]) {
          assert.doesNotMatch(w, SEPARATORS, `${JSON.stringify(w)} from ${JSON.stringify(line)}`);
        }
      }
    }, RUNS);
  });

  test("words joined by blanks, commands by separators, read back as they were", SLOW, () => {
    const arb = fc.tuple(
      fc.array(commandArb, { minLength: 1, maxLength: 4 }),
      fc.array(fc.constantFrom(" ", "\t", "  "), { minLength: 1, maxLength: 4 }),
      fc.array(fc.constantFrom(";", "&&", "||", "|", "\n", "&", "|&"), {
        minLength: 4,
        maxLength: 4,
      }),
    );
    check(arb, ([commands, blanks, seps]) => {
      const line = commands.map((words, i) => words.join(blanks[i % blanks.length]))
        .map((text, i) => (i === 0 ? "" : seps[i - 1]) + text).join(" ");
      const r = shellCommands(line);
      assert.ok(r.ok, `${JSON.stringify(line)}: ${JSON.stringify(r)}`);
      assert.deepEqual(r.commands.map((c) => c.words), commands, JSON.stringify(line));
    }, RUNS);
  });

  test("any text in single quotes reads back as itself", SLOW, () => {
    const textArb = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      lineArb,
    );
    check(fc.tuple(textArb, textArb), ([a, b]) => {
      const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
      const r = shellCommands(`echo ${quote(a)} ${quote(b)}`);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.commands, [{ assignments: [], words: ["echo", a, b] }]);
    }, RUNS);
  });
});
