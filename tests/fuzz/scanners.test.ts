// The hand-written scanners that read text from outside (agent and config
// files, a model's tool arguments, fetched pages, files in the project) each
// answer every input: every loop over the text moves on or ends, whatever
// character it meets. A regression hangs the test, so the alphabet leans on
// the characters that once made one loop stand still (whitespace other than
// space and tab) and on each scanner's own syntax.
//
// Seeded: a failure prints the seed and the shrunk counterexample; replay it
// with FUZZ_SEED=<seed>.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { splitToolList } from "../../src/discovery/tool-entries.ts";
import { parseKeyValueLines } from "../../src/formats/frontmatter.ts";
import { parseSimpleToml } from "../../src/formats/simple-toml.ts";
import { parseSimpleYaml } from "../../src/formats/simple-yaml.ts";
import { cleanText, showInvisible } from "../../src/text/clean-text.ts";
import { isIgnored, parseGitignore } from "../../src/tools/search/gitignore.ts";
import { compileNodes } from "../../src/fs/glob-match.ts";
import { parseGlob } from "../../src/fs/glob-syntax.ts";
import { requiredLiterals } from "../../src/tools/search/regex-literals.ts";
import { htmlToMarkdown, pageTitle } from "../../src/tools/web/html-to-markdown.ts";
import { check } from "./support.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SLOW = { timeout: 120_000 };

const SPACES = [
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  " ",
  "\u0085",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
];

/** Text made of `syntax` pieces, whitespace of every kind and anything at all. */
function textOf(syntax: string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("a", "b", "x", "0", "é") },
    { weight: 4, arbitrary: fc.constantFrom(...syntax) },
    { weight: 3, arbitrary: fc.constantFrom(...SPACES) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 2 }) },
  );
  return fc.oneof(
    fc.array(piece, { maxLength: 40 }).map((p) => p.join("")),
    fc.string({ unit: "binary", maxLength: 40 }),
  );
}

/** Runs `f`; a thrown error is an answer too (a pattern can be invalid). */
function answers(f: () => unknown): void {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof Error, String(err));
  }
}

describe("scanners answer every input", () => {
  test("globs: parsed and matched", SLOW, () => {
    const glob = textOf(["*", "**", "?", "[", "]", "!", "^", "-", "{", "}", ",", "\\", "/"]);
    check(fc.tuple(glob, textOf(["/", ".", "a/b"])), ([g, path]) => {
      answers(() => compileNodes(parseGlob(g))(path));
    }, RUNS);
  });

  test("gitignore rules: parsed and applied", SLOW, () => {
    const rules = textOf(["#", "!", "/", "*", "**", "\\", "[", "]", "\n", " "]);
    check(fc.tuple(rules, textOf(["/", "."])), ([text, path]) => {
      answers(() => isIgnored(path, false, parseGitignore(text, "")));
    }, RUNS);
  });

  test("regular expressions: the literals a match needs", SLOW, () => {
    const source = textOf([..."\\()[]{}|*+?^$.", "\\x41", "\\u0041", "\\k<a>", "{2,3}", "(?:"]);
    check(source, (s) => answers(() => requiredLiterals(s)), RUNS);
  });

  test("HTML pages: Markdown and title", SLOW, () => {
    const html = textOf([
      "<",
      ">",
      "</",
      "<a href='",
      '<img src="x"',
      "<!--",
      "-->",
      "<!",
      "<?",
      "<script>",
      "</script >",
      "<pre>",
      "</pre>",
      "<title>",
      "&amp;",
      "&#",
      "=",
      '"',
      "'",
    ]);
    check(html, (h) => {
      assert.equal(typeof htmlToMarkdown(h, "https://example.com/"), "string");
      assert.equal(typeof pageTitle(h), "string");
    }, RUNS);
  });

  test("agent and config files: tool lists, frontmatter lines, simple YAML and TOML", SLOW, () => {
    const text = textOf([..."()[]{},:#'\"\\=-|>", "\n", "  ", "- ", "key: ", "a = ", '"""', "'''"]);
    check(text, (t) => {
      assert.ok(typeof splitToolList(t) === "object");
      answers(() => parseKeyValueLines(t));
      answers(() => parseSimpleYaml(t));
      answers(() => parseSimpleToml(t));
    }, RUNS);
  });

  test("text shown to a terminal", SLOW, () => {
    check(textOf(["\u001b[", "\u001b]", "\u0007", "\u202e", "\u2066", "\u200b"]), (t) => {
      assert.ok(cleanText(t).length <= t.length);
      assert.equal(typeof showInvisible(t), "string");
    }, RUNS);
  });
});
