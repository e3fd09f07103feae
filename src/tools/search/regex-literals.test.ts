import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { requiredLiterals } from "./regex-literals.ts";
import { lineSearcher, searchText } from "./line-search.ts";

describe("requiredLiterals", () => {
  const cases: [string, string[] | undefined][] = [
    ["foo", ["foo"]],
    ["function\\s+(\\w+)", ["function"]],
    ["TODO|FIXME", ["TODO", "FIXME"]],
    ["colou?r", ["colo"]],
    ["ab*c", ["a"]],
    ["ab+c", ["ab"]],
    ["a{2}bcd", ["bcd"]],
    ["\\bfoo\\b", ["foo"]],
    ["\\x41BC", undefined], // the characters after \x belong to the escape
    ["(a)\\1xyz", undefined],
    ["a\\.b", ["a.b"]],
    ["\\d+", undefined],
    ["foo|", undefined],
    ["(foo|bar)baz", ["baz"]],
    ["[abc]def", ["def"]],
    ["x\ty", ["x\ty"]],
    ["\ud83d\ude00", undefined], // surrogates: no byte filter
  ];
  for (const [source, want] of cases) {
    test(JSON.stringify(source), () => assert.deepEqual(requiredLiterals(source), want));
  }

  test("every line a pattern matches holds one of its literals", () => {
    const atom = fc.constantFrom(
      "a",
      "b",
      "ab",
      "\\.",
      ".",
      "\\d",
      "\\w",
      "[ab]",
      "(a|b)",
      "(?:ab)",
      "\\b",
      "^",
      "$",
      "\\x61",
      "\\u0062",
    );
    const quant = fc.constantFrom("", "", "", "?", "*", "+", "{2}", "{0,2}", "+?");
    const alt = fc.array(fc.tuple(atom, quant).map(([a, q]) => a + q), {
      minLength: 1,
      maxLength: 5,
    })
      .map((xs) => xs.join(""));
    const source = fc.array(alt, { minLength: 1, maxLength: 3 }).map((xs) => xs.join("|"));
    const text = fc.array(fc.constantFrom("a", "b", ".", "1", " ", "ab"), { maxLength: 12 })
      .map((xs) => xs.join(""));
    fc.assert(
      fc.property(source, text, (src, line) => {
        let re: RegExp;
        try {
          re = new RegExp(src);
        } catch {
          return; // e.g. `^*`: grep reports it before searching
        }
        const lits = requiredLiterals(src);
        if (lits === undefined || !re.test(line)) return;
        assert.ok(lits.some((l) => line.includes(l)), `${src} matched ${line}, lits ${lits}`);
      }),
      { numRuns: 5000, seed: 15 },
    );
  });
});

describe("lineSearcher", () => {
  const text = "foo\r\nbar foo\n\nFOO x\r\nlast foo\r";
  const lines = (p: string, i = false) => searchText(text, new RegExp(p, i ? "i" : ""), Infinity);

  test("the byte search finds the lines splitting the text finds", () => {
    for (
      const [p, i] of [["foo", false], ["foo", true], ["foo$", false], ["o|x", false]] as const
    ) {
      assert.deepEqual(lineSearcher(p, i)(Buffer.from(text), 100), lines(p, i), `${p} ${i}`);
    }
    assert.deepEqual(lineSearcher("foo", false)(Buffer.from(text), 100), [
      [1, "foo"],
      [2, "bar foo"],
      [5, "last foo\r"],
    ]);
  });

  test("a cap stops early; no hit means no lines", () => {
    assert.deepEqual(lineSearcher("foo", true)(Buffer.from(text), 2), [[1, "foo"], [2, "bar foo"]]);
    assert.deepEqual(lineSearcher("zzz", false)(Buffer.from(text), 2), []);
  });
});
