import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileNodes, type StepCounter } from "../../fs/glob-match.ts";
import { parseGlob } from "../../fs/glob-syntax.ts";
import { compileGlob } from "../../fs/glob.ts";
import { isIgnored, parseGitignore } from "./gitignore.ts";
import * as oldGlob from "../../../tests/support/reference-search/glob.ts";
import * as oldIgnore from "../../../tests/support/reference-search/gitignore.ts";

/** Characters that exercise every part of the syntax and of the matcher. */
const GLOB_CHARS = [
  "a",
  "a",
  "b",
  ".",
  "/",
  "/",
  "*",
  "*",
  "*",
  "?",
  "[",
  "]",
  "!",
  "^",
  "-",
  "{",
  "}",
  ",",
  "\\",
];
const PATH_CHARS = ["a", "b", ".", "/", "/", "-", "\n", "é", "{", "*"];
const glob = fc.array(fc.constantFrom(...GLOB_CHARS), { maxLength: 12 }).map((cs) => cs.join(""));
const path = fc.array(fc.constantFrom(...PATH_CHARS), { maxLength: 14 }).map((cs) => cs.join(""));

/**
 * Paths that look like `g`: each wildcard replaced by one of `fills` in turn,
 * some syntax characters dropped, so that many of them match.
 */
function instantiate(g: string, fills: string[]): string {
  let k = 0;
  const next = () => fills[k++ % fills.length];
  return g.replace(/\*+|\?/g, () => next()).replace(
    /[{}\\\[\]!^,]/g,
    (c) => next().length > 1 ? "" : c,
  );
}
const fills = fc.array(fc.constantFrom("", "a", "ab", "a/b", "b.a", "/", "\n"), {
  minLength: 1,
  maxLength: 5,
});

/** The old matcher's answer, or "error" when it threw. */
function attempt<T>(f: () => T): T | "error" {
  try {
    return f();
  } catch {
    return "error";
  }
}

describe("glob matching in linear time", () => {
  test("a backtracking pattern against a long name finishes in steps linear in its length", () => {
    const pattern = "*a*a*a*a*a*a*a*a*b";
    for (const n of [1_000, 10_000, 100_000]) {
      const name = "a".repeat(n);
      const counter: StepCounter = { steps: 0 };
      assert.equal(compileNodes(parseGlob(pattern), counter)(name), false);
      // A regular expression with backtracking needs about n^8 steps here.
      assert.ok(counter.steps <= 4 * n * pattern.length, `${counter.steps} steps for n=${n}`);
    }
  });

  test("the same for `**` and alternatives, which run as an automaton", () => {
    const pattern = "**/*a*a*a*a*a*{a,b}*a*a*b";
    const n = 50_000;
    const counter: StepCounter = { steps: 0 };
    assert.equal(compileNodes(parseGlob(pattern), counter)("x/" + "a".repeat(n)), false);
    assert.ok(counter.steps <= 4 * n * pattern.length, `${counter.steps} steps`);
  });

  test("find and .gitignore answer at once for such a pattern", () => {
    const name = "a".repeat(5_000);
    assert.equal(compileGlob("*a*a*a*a*a*a*a*a*b")(`src/${name}`), false);
    const rules = parseGitignore("*a*a*a*a*a*a*a*a*b\n", "");
    assert.equal(isIgnored(`src/${name}`, false, rules), false);
    assert.equal(isIgnored(`src/${name}b`, false, rules), true);
  });
});

describe("glob matching agrees with the earlier regular expressions", () => {
  test("compileGlob: same answer (or same error) on generated globs and paths", () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 6 }), fills, (g, some, f) => {
        const paths = [...some, instantiate(g, f), instantiate(g, f.slice(1).concat(f[0]))];
        const before = attempt(() => oldGlob.compileGlob(g));
        const after = attempt(() => compileGlob(g));
        if (before === "error" || after === "error") {
          assert.equal(after === "error", before === "error", `glob ${JSON.stringify(g)}`);
          return;
        }
        for (const p of paths) {
          assert.equal(after(p), before(p), `glob ${JSON.stringify(g)} path ${JSON.stringify(p)}`);
        }
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  test("the automaton gives the same answers when it may remember few states or none", () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 6 }), fills, (g, some, f) => {
        let nodes;
        try {
          nodes = parseGlob(g);
        } catch {
          return;
        }
        const full = compileNodes(nodes);
        const few = compileNodes(nodes, undefined, 2);
        const none = compileNodes(nodes, undefined, 0);
        for (const p of [...some, instantiate(g, f)]) {
          const want = full(p);
          assert.equal(few(p), want, `${g} on ${JSON.stringify(p)}`);
          assert.equal(none(p), want, `${g} on ${JSON.stringify(p)}`);
        }
      }),
      { numRuns: 2000, seed: 15 },
    );
  });

  test("gitignore: same answer on generated rules and paths", () => {
    const line = fc.tuple(fc.constantFrom("", "!", "/", "\\!", "#"), glob, fc.constantFrom("", "/"))
      .map(([a, b, c]) => a + b + c);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 5 }),
        fc.constantFrom("", "a", "a/b"),
        fc.array(fc.tuple(path, fc.boolean()), { minLength: 1, maxLength: 6 }),
        fills,
        (lines, base, some, f) => {
          const text = lines.join("\n");
          const paths = [
            ...some,
            ...lines.map((l): [string, boolean] => [instantiate(l, f), false]),
          ];
          const before = oldIgnore.parseGitignore(text, base);
          const after = parseGitignore(text, base);
          assert.equal(after.length, before.length, `rules of ${JSON.stringify(text)}`);
          for (const [p0, isDir] of paths) {
            const p = base === "" ? p0 : `${base}/${p0}`;
            assert.equal(
              isIgnored(p, isDir, after),
              oldIgnore.isIgnored(p, isDir, before),
              `rules ${JSON.stringify(text)} in ${JSON.stringify(base)}, path ${JSON.stringify(p)}`,
            );
          }
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
  });

  test("hand-picked edge cases", () => {
    const cases: [string, string][] = [
      ["[!a]", "/"],
      ["a[!b]c", "a/c"],
      ["[^]", "\n"],
      ["{a,b", "a"],
      ["{a,b", "{a"],
      ["a/**", "a/"],
      ["a/**", "a/b\nc"],
      ["**", "x\ny/z"],
      ["***", "abc"],
      ["a\\*", "a*"],
      ["\\", "\\"],
      ["{**/x,y}", "a/x"],
      ["x{a,/}y", "x/y"],
    ];
    for (const [g, p] of cases) {
      assert.equal(compileGlob(g)(p), oldGlob.compileGlob(g)(p), `${g} on ${JSON.stringify(p)}`);
    }
    const rules = [["*.log", "a\nb/c.log"], ["**", "a\nb"], ["c", "a\nb/c"]];
    for (const [r, p] of rules) {
      assert.equal(
        isIgnored(p, false, parseGitignore(r, "")),
        oldIgnore.isIgnored(p, false, oldIgnore.parseGitignore(r, "")),
        `${r} on ${JSON.stringify(p)}`,
      );
    }
  });
});
