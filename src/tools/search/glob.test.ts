import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { matchesGlob } from "../../fs/glob.ts";
import { isIgnored, parseGitignore } from "./gitignore.ts";

describe("glob", () => {
  const cases: [string, string, boolean][] = [
    ["*.ts", "a.ts", true],
    ["*.ts", "src/deep/a.ts", true],
    ["*.ts", "a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["**/README.md", "README.md", true],
    ["**/README.md", "docs/README.md", true],
    ["*.{md,txt}", "notes.txt", true],
    ["file?.js", "file1.js", true],
    ["file?.js", "file10.js", false],
    ["[ab]*.js", "b.js", true],
    ["[!ab]*.js", "b.js", false],
    ["lib/**", "lib/a/b", true],
    ["./src/*.ts", "src/a.ts", true],
    ["a+b(1).txt", "a+b(1).txt", true],
  ];
  for (const [glob, path, expected] of cases) {
    test(`${glob} ${expected ? "matches" : "does not match"} ${path}`, () => {
      assert.equal(matchesGlob(path, glob), expected);
    });
  }
  test("a glob with a slash is anchored to the whole path", () => {
    assert.ok(!matchesGlob("x/a/b.ts", "a/*.ts"));
    assert.ok(matchesGlob("a/b.ts", "a/*.ts"));
  });
});

describe("gitignore", () => {
  const rules = parseGitignore(
    "# comment\n\nnode_modules/\n*.log\n!keep.log\n/build\ndocs/*.tmp\n\\#hash\n",
    "",
  );
  const cases: [string, boolean, boolean][] = [
    ["node_modules", true, true],
    ["pkg/node_modules", true, true],
    ["node_modules", false, false], // dir-only rule, a file of that name stays
    ["a.log", false, true],
    ["x/y/a.log", false, true],
    ["keep.log", false, false],
    ["build", true, true],
    ["src/build", true, false], // anchored to the root
    ["docs/a.tmp", false, true],
    ["docs/x/a.tmp", false, false],
    ["#hash", false, true],
    ["src/main.ts", false, false],
  ];
  for (const [path, isDir, expected] of cases) {
    test(`${path}${isDir ? "/" : ""} is ${expected ? "" : "not "}ignored`, () => {
      assert.equal(isIgnored(path, isDir, rules), expected);
    });
  }
  test("rules of a nested .gitignore apply below it only", () => {
    const nested = parseGitignore("*.gen.ts\n", "pkg");
    assert.equal(isIgnored("pkg/src/a.gen.ts", false, nested), true);
    assert.equal(isIgnored("other/a.gen.ts", false, nested), false);
  });
});
