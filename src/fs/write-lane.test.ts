import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  inLane,
  laneGlobProblem,
  lanePrefix,
  laneProblem,
  lanesOverlap,
  laneWithin,
} from "./write-lane.ts";

describe("lanePrefix: the literal leading segments", () => {
  const cases: [string, string][] = [
    ["src/api/**", "src/api"],
    ["src/api/", "src/api"],
    ["./src/**", "src"],
    ["src/*.ts", "src"],
    ["src/a.ts", "src/a.ts"],
    ["**/*.test.ts", ""],
    ["*.md", ""],
    ["src/{a,b}/**", "src"],
    ["src/[ab]/x", "src"],
    ["src/a?/x", "src"],
    ["src/a\\*b/x", "src"],
  ];
  for (const [glob, prefix] of cases) {
    test(`${glob} → '${prefix}'`, () => assert.equal(lanePrefix(glob), prefix));
  }
});

describe("laneGlobProblem: outside, empty or invalid globs", () => {
  for (const ok of ["src/**", "a.ts", "src/{a,b}/*.ts", "./docs/", "**"]) {
    test(`${ok} is a lane glob`, () => assert.equal(laneGlobProblem(ok), undefined));
  }
  const bad: [string, RegExp][] = [
    ["", /empty/],
    ["../x/**", /leaves the project/],
    ["src/../../x", /leaves the project/],
    ["/etc/**", /not relative to the project/],
    ["~/x", /not relative to the project/],
    ["C:\\x", /not relative to the project/],
    ["src//a", /empty or '\.' path segment/],
    ["src//", /empty or '\.' path segment/],
    ["src/./a", /empty or '\.' path segment/],
    ["src/[z-a]", /no valid glob/],
    ["src/{a,b", /unclosed/],
    ["src/{a,{b,c}}", /nested/],
    ["src/a}", /unbalanced/],
    ["a\nb", /control character/],
  ];
  for (const [glob, message] of bad) {
    test(`${JSON.stringify(glob)} is refused`, () => assert.match(laneGlobProblem(glob)!, message));
  }
  test("laneProblem names the field and needs a glob", () => {
    assert.match(laneProblem([], "--writes")!, /^--writes: a lane needs at least one glob/);
    assert.match(laneProblem(["src/**", "../x"], "--writes")!, /^--writes: '\.\.\/x' leaves/);
  });
});

describe("inLane: a path relative to the project root", () => {
  test("globs match the whole relative path", () => {
    assert.equal(inLane("src/a.ts", ["src/**"]), true);
    assert.equal(inLane("src/api/deep/a.ts", ["src/**"]), true);
    assert.equal(inLane("docs/a.md", ["src/**"]), false);
    assert.equal(inLane("srcx/a.ts", ["src/**"]), false);
    assert.equal(inLane("src/a.ts", ["src/"]), true);
    // Without a slash, a lane glob is still the whole path: top-level only.
    assert.equal(inLane("README.md", ["*.md"]), true);
    assert.equal(inLane("docs/a.md", ["*.md"]), false);
    assert.equal(inLane("a/b/c.test.ts", ["**/*.test.ts"]), true);
    assert.equal(inLane("a/b/c.ts", ["**/*.test.ts"]), false);
    assert.equal(inLane("docs/a.md", ["src/**", "docs/*.md"]), true);
  });
});

describe("lanesOverlap: the conservative rule", () => {
  test("disjoint folders do not overlap", () => {
    assert.equal(lanesOverlap(["src/api/**"], ["src/ui/**"]), false);
    assert.equal(lanesOverlap(["src/**"], ["docs/**"]), false);
    assert.equal(lanesOverlap(["src/**", "a.ts"], ["docs/**", "b.ts"]), false);
    // `src` and `src2` are different folders, though one name starts the other.
    assert.equal(lanesOverlap(["src/**"], ["src2/**"]), false);
  });
  test("a folder and what is below it overlap; so do unknown prefixes", () => {
    assert.equal(lanesOverlap(["src/**"], ["src/api/**"]), true);
    assert.equal(lanesOverlap(["src/api/x.ts"], ["src/**"]), true);
    assert.equal(lanesOverlap(["src/**"], ["src/**"]), true);
    assert.equal(lanesOverlap(["**/*.test.ts"], ["docs/**"]), true);
    // Conservative: these could in fact never share a path.
    assert.equal(lanesOverlap(["src/*.ts"], ["src/*.md"]), true);
    assert.equal(lanesOverlap(["docs/**", "src/a.ts"], ["src/**"]), true);
  });

  // Soundness: whenever the rule says "disjoint", no path lies in both.
  const seg = fc.constantFrom("a", "b", "ab", "*", "**", "?", "{a,b}", "[ab]");
  const glob = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
  const path = fc.array(fc.constantFrom("a", "b", "ab", "ba"), { minLength: 1, maxLength: 5 })
    .map((s) => s.join("/"));
  test("disjoint lanes share no path (property)", () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 2 }),
        fc.array(glob, { minLength: 1, maxLength: 2 }),
        fc.array(path, { minLength: 1, maxLength: 20 }),
        (a, b, paths) => {
          if (lanesOverlap(a, b)) return true;
          return paths.every((p) => !(inLane(p, a) && inLane(p, b)));
        },
      ),
      { seed: 7, numRuns: 400 },
    );
  });
  test("a path in a lane lies below its glob's prefix (property)", () => {
    fc.assert(
      fc.property(glob, path, (g, p) => {
        if (!inLane(p, [g])) return true;
        const prefix = lanePrefix(g);
        return prefix === "" || p === prefix || p.startsWith(prefix + "/");
      }),
      { seed: 11, numRuns: 1000 },
    );
  });
});

describe("laneWithin: a delegated lane inside its caller's", () => {
  test("the same globs, or below a caller's whole folder", () => {
    assert.equal(laneWithin(["src/**"], ["src/**"]), true);
    assert.equal(laneWithin(["src/api/**", "src/a.ts"], ["src/**"]), true);
    assert.equal(laneWithin(["src/*.ts"], ["src/**"]), true);
    assert.equal(laneWithin(["anything/**"], ["**"]), true);
  });
  test("anything else is not within", () => {
    assert.equal(laneWithin(["docs/**"], ["src/**"]), false);
    assert.equal(laneWithin(["**/*.ts"], ["src/**"]), false);
    assert.equal(laneWithin(["src/**"], ["src/*.ts"]), false);
    assert.equal(laneWithin(["src/a/**"], ["src/*/**"]), false);
    assert.equal(laneWithin(["src2/**"], ["src/**"]), false);
  });
});
