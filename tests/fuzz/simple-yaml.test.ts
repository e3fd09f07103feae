// Proves the frontmatter fast path (`parseSimpleYaml`) equal to `yaml`: on
// every block it accepts, it must return exactly what `yaml.parse` returns
// (same values, same key order, -0 and NaN included) or, for the one invalid
// form it recognises, the first line of the error `yaml` throws. Blocks it
// declines go to `yaml` unchanged, so they need no proof; the tests only check
// that the fast path accepts enough to matter.
//
// Seeded: a failure prints the seed and the shrunk counterexample; replay it
// with FUZZ_SEED=<seed>.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { parseFrontmatter, parseSimpleYaml } from "../../src/discovery/frontmatter.ts";
import { markdownAgent, rng } from "../../bench/generate.ts";
import {
  check as checkRuns,
  fastPathAgrees as agrees,
  SEED,
  yamlReference as reference,
} from "./support.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** Bun's default of 5 s per test is tight for thousands of cases on a busy machine. */
const SLOW = { timeout: 120_000 };

function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => void, numRuns = RUNS): void {
  checkRuns(arb, predicate, numRuns);
}

// ---- Generators ------------------------------------------------------------

const KEYS = [
  "name",
  "description",
  "tools",
  "model",
  "color",
  "maxTurns",
  "max-turns",
  "thinking_level",
  "spawns",
  "output",
  "recursive",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "True",
  "null",
  "yes",
  "on",
  "a",
  "_",
];
const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,10}$/) },
);

const CHARS = [
  ..."abcxyzABZ019 ",
  ..."   ",
  ..."-:#,[]{}'\"!&*|>%@`?./\\~+_();=<$^",
  "é",
  "€",
  "ß",
  "😀",
  "\u00a0",
  "\u2028",
  "\t",
  "\u0085",
  "\ufeff",
  "\u0007",
  "\ud800",
];
const chars = (max: number, except = "") =>
  fc.array(fc.constantFrom(...CHARS.filter((c) => !except.includes(c))), { maxLength: max })
    .map((a) => a.join(""));

const WORDS = [
  "use",
  "this",
  "agent",
  "when",
  "Review",
  "code",
  "the",
  "a-b",
  "C#",
  "it's",
  'say "hi"',
  "http://x.y/z",
  "e.g.",
  "x,y",
  "[x]",
  "{y}",
  "1",
  "2.5",
  "null",
  "true",
  "😀",
  "naïve",
];
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
  .map((w) => w.join(" "));

const SPECIAL = [
  "null",
  "Null",
  "NULL",
  "nULL",
  "~",
  "true",
  "True",
  "TRUE",
  "tRUE",
  "false",
  "FALSE",
  "yes",
  "no",
  "on",
  "off",
  "y",
  "0",
  "-0",
  "00",
  "1",
  "-1",
  "+1",
  "007",
  "1.5",
  "-1.50",
  "0.0",
  "-0.0",
  "1.",
  ".5",
  "1e3",
  "1E-3",
  "0x1F",
  "0o17",
  "0b1",
  ".inf",
  "-.Inf",
  ".nan",
  "NaN",
  "Infinity",
  "123456789012345",
  "1234567890123456",
  "123456789012345678901234567890",
  "0.1234567890123456789",
  "1_000",
  "2024-01-01",
  "12:30",
  "1 2",
  "- 1",
  "-x",
  ":x",
  "?x",
];
const special = fc.constantFrom(...SPECIAL);

const plain = fc.oneof(
  { weight: 4, arbitrary: words },
  { weight: 3, arbitrary: special },
  { weight: 3, arbitrary: chars(16) },
  { weight: 1, arbitrary: fc.tuple(words, special).map(([a, b]) => `${a} ${b}`) },
  { weight: 1, arbitrary: fc.tuple(special, words).map(([a, b]) => `${a} ${b}`) },
);

const ESCAPES = [
  "\\\\",
  '\\"',
  "\\/",
  "\\n",
  "\\t",
  "\\r",
  "\\x41",
  "\\u00e9",
  "\\ ",
  "\\0",
  "\\N",
];
const doubleQuoted = fc.tuple(
  fc.array(
    fc.oneof(
      { weight: 4, arbitrary: chars(3, '"\\') },
      { weight: 1, arbitrary: fc.constantFrom(...ESCAPES) },
    ),
    { maxLength: 8 },
  ),
  fc.constantFrom('"', '"', '"', "", '" x', '" #c', '"  '),
).map(([parts, end]) => `"${parts.join("")}${end}`);

const singleQuoted = fc.tuple(chars(12), fc.constantFrom("'", "'", "'", "", "' x", "'  "))
  .map(([s, end]) => `'${s.replace(/'/g, "''")}${end}`);

const scalar = fc.oneof(
  { weight: 5, arbitrary: plain },
  { weight: 2, arbitrary: doubleQuoted },
  { weight: 2, arbitrary: singleQuoted },
);

const flowList = fc.tuple(
  fc.array(scalar, { maxLength: 5 }),
  fc.constantFrom(", ", ",", " , ", ",  "),
  fc.constantFrom("[", "[", "[ "),
  fc.constantFrom("]", "]", " ]", ",]", "] x", "]  "),
).map(([items, sep, open, close]) => `${open}${items.join(sep)}${close}`);

const blockList = fc.tuple(
  fc.array(scalar, { minLength: 1, maxLength: 4 }),
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom(0, 0, 0, 1, -1),
).map(([items, indent, skew]) =>
  items.map((it, k) => " ".repeat(Math.max(0, indent + (k === 1 ? skew : 0))) + "- " + it)
);

const blockScalar = fc.tuple(
  fc.constantFrom(">", "|", ">-", "|-", ">+", "|2", "> ", ">- "),
  fc.array(fc.oneof(words, chars(10)), { minLength: 1, maxLength: 4 }),
  fc.integer({ min: 1, max: 4 }),
  fc.constantFrom(0, 0, 0, 1, -1),
).map(([header, lines, indent, skew]) => ({
  header,
  lines: lines.map((l, k) => " ".repeat(Math.max(0, indent + (k === 1 ? skew : 0))) + l),
}));

/** `key: a: b`: the unquoted description strict YAML rejects. */
const nestedMapping = fc.array(fc.oneof(words, plain), { minLength: 2, maxLength: 4 })
  .chain((parts) => fc.constantFrom(": ", ":  ").map((sep) => parts.join(sep)));

const NOISE = [
  "# a comment",
  "  indented: x",
  "key:x",
  "- stray",
  "---",
  "...",
  "\tname: tab",
  "name : spaced",
  "   ",
  "? complex",
  "anchor: &a x",
  "alias: *a",
  "tagged: !!str 1",
  "nested:\n  inner: 1",
  "%YAML 1.2",
];

/** Values the fast path should take: most real frontmatter looks like this. */
const cleanWords = fc.array(
  fc.constantFrom(...WORDS.filter((w) => !/[[\]{},]/.test(w))),
  { minLength: 1, maxLength: 6 },
).map((w) => w.join(" "));
const cleanSpecial = fc.constantFrom(
  ...["null", "~", "True", "false", "yes", "off", "0", "5", "-3", "1.5", "-0.25", "y", "NaN"],
);
const cleanScalar = fc.oneof(
  { weight: 5, arbitrary: cleanWords },
  { weight: 2, arbitrary: cleanSpecial },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom("a", " ", "'", ":", "#", "é", "\\n", '\\"', "\\\\"), {
      maxLength: 8,
    }).map((a) => `"${a.join("")}"`),
  },
  { weight: 1, arbitrary: words.map((w) => `'${w.replace(/'/g, "''")}'`) },
);

const cleanEntry = fc.tuple(
  fc.constantFrom(...KEYS.slice(0, 12)),
  fc.oneof(
    { weight: 6, arbitrary: cleanScalar.map((v) => [v]) },
    {
      weight: 2,
      arbitrary: fc.array(cleanScalar, { maxLength: 4 }).map((a) => [`[${a.join(", ")}]`]),
    },
    {
      weight: 2,
      arbitrary: fc.array(cleanScalar, { minLength: 1, maxLength: 4 }).map((
        a,
      ) => ["", ...a.map((v) => `  - ${v}`)]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(">", "|", ">-", "|-"),
        fc.array(words, { minLength: 1, maxLength: 4 }),
      )
        .map(([h, ls]) => [h, ...ls.map((l) => `  ${l}`)]),
    },
    { weight: 1, arbitrary: nestedMappingOf(cleanWords).map((v) => [v]) },
  ),
).map(([key, [first, ...rest]]) => [first === "" ? `${key}:` : `${key}: ${first}`, ...rest]);

function nestedMappingOf(part: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.array(part, { minLength: 2, maxLength: 4 }).map((parts) => parts.join(": "));
}

/** One key line (or a few lines, for lists and block scalars). */
const entry = fc.tuple(
  keyArb,
  fc.constantFrom(" ", " ", " ", "  "),
  fc.constantFrom("", "", "", " ", "  "),
  fc.oneof(
    { weight: 8, arbitrary: scalar.map((v) => ({ kind: "inline", v })) },
    { weight: 2, arbitrary: flowList.map((v) => ({ kind: "inline", v })) },
    { weight: 2, arbitrary: blockList.map((v) => ({ kind: "lines", v })) },
    { weight: 2, arbitrary: blockScalar.map((v) => ({ kind: "block", v })) },
    { weight: 2, arbitrary: nestedMapping.map((v) => ({ kind: "inline", v })) },
    { weight: 1, arbitrary: fc.constant({ kind: "empty" }) },
  ),
).map(([key, gap, trail, val]) => {
  // deno-lint-ignore no-explicit-any
  const v = val as any;
  if (v.kind === "inline") return [`${key}:${gap}${v.v}${trail}`];
  if (v.kind === "lines") return [`${key}:${trail}`, ...v.v];
  if (v.kind === "block") return [`${key}: ${v.v.header}`, ...v.v.lines];
  return [`${key}:${trail}`];
});

const block = fc.tuple(
  fc.array(
    fc.oneof(
      { weight: 12, arbitrary: entry },
      { weight: 48, arbitrary: cleanEntry },
      { weight: 1, arbitrary: fc.constantFrom(...NOISE).map((n) => [n]) },
      { weight: 1, arbitrary: fc.constant([""]) },
    ),
    { minLength: 1, maxLength: 7 },
  ),
  fc.constantFrom("\n", "\n", "\n", "", "\n\n"),
).map(([entries, end]) => entries.flat().join("\n") + end);

/** Blocks of clean entries with distinct keys, as a person would write them. */
const cleanBlock = fc.uniqueArray(cleanEntry, {
  selector: (lines) => lines[0].split(":")[0],
  minLength: 1,
  maxLength: 8,
}).map((entries) => entries.flat().join("\n") + "\n");

// ---- Properties ------------------------------------------------------------

describe("parseSimpleYaml equals yaml", () => {
  test(`generated simple frontmatter (${RUNS} cases, seed ${SEED})`, SLOW, () => {
    let accepted = 0;
    let errors = 0;
    check(block, (b) => {
      if (agrees(b)) {
        accepted++;
        if (parseSimpleYaml(b)?.ok === false) errors++;
      }
    });
    // Not a vacuous proof: a good share of the generated blocks take the fast
    // path, the predicted yaml error included.
    assert.ok(accepted > RUNS * 0.15, `only ${accepted} of ${RUNS} blocks took the fast path`);
    assert.ok(errors > RUNS * 0.02, `only ${errors} of ${RUNS} blocks had a predicted error`);
  });

  test("generated clean blocks, distinct keys (1000 cases)", SLOW, () => {
    let accepted = 0;
    check(cleanBlock, (b) => {
      if (agrees(b)) accepted++;
    }, 1000);
    assert.ok(accepted > 600, `only ${accepted} of 1000 clean blocks took the fast path`);
  });

  test("generated single entries, one per block (1000 cases)", SLOW, () => {
    let accepted = 0;
    check(entry, (lines) => {
      if (agrees(lines.join("\n") + "\n")) accepted++;
    }, 1000);
    assert.ok(accepted > 300, `only ${accepted} of 1000 entries took the fast path`);
  });

  test("realistic agent files from the bench generator (500 cases)", SLOW, () => {
    let accepted = 0;
    check(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const text = markdownAgent(rng(seed), `agent-${seed}`);
      const b = text.slice(4, text.indexOf("\n---\n") + 1);
      if (agrees(b)) accepted++;
    }, 500);
    // Only the block lists of unusual shape and the like should go to yaml.
    assert.ok(accepted > 450, `only ${accepted} of 500 realistic blocks took the fast path`);
  });
});

describe("parseSimpleYaml table", () => {
  // [block, takes the fast path?]
  const rows: [string, boolean][] = [
    ["name: x\ndescription: y\n", true],
    ["name: x\ndescription: y", true],
    ["name:   spaced   \n", true],
    ["name: 'it''s'\n", true],
    ['name: "a\\"b\\\\c\\/d\\n"\n', true],
    ['name: "\\u00e9"\n', false],
    ['name: "a\tb"\n', false],
    ["tools: Read, Grep, Glob\n", true],
    ["tools: [read, grep]\n", true],
    ["tools: []\n", true],
    ["tools: [ ]\n", true],
    ["tools: [a, b,]\n", false],
    ["tools: ['a, b', \"c\"]\n", true],
    ["tools:\n  - read\n  - grep\n", true],
    ["tools:\n- read\n- grep\nmodel: x\n", true],
    ["tools:\n  - read\n   - grep\n", false],
    ["tools:\n  - read\n\n  - grep\n", false],
    ["tools:\n", true],
    ["tools:\nmodel: x\n", true],
    ["maxTurns: 5\n", true],
    ["maxTurns: -5\n", true],
    ["maxTurns: 1.5\n", true],
    ["maxTurns: 007\n", false],
    ["maxTurns: 0x10\n", false],
    ["maxTurns: 1e3\n", false],
    ["maxTurns: .inf\n", false],
    ["maxTurns: 12345678901234567890\n", false],
    ["recursive: true\nother: False\nnone: ~\nalso: NULL\n", true],
    ["yes: yes\nno: no\n", true],
    ["True: 1\n", false],
    ["null: 1\n", false],
    ["constructor: 1\n__proto__: 2\ntoString: 3\n", true],
    ["name: x\nname: y\n", false],
    ["description: >\n  folded\n  text\n", true],
    ["description: |\n  literal\n  text\n", true],
    ["description: >-\n  folded\n  text\n", true],
    ["description: |-\n  literal\n  text\nname: x\n", true],
    ["description: >\n  folded\n\n  text\n", false],
    ["description: >\n  folded\n    more\n", false],
    ["description: >\n  no line break after", true],
    ["description: >+\n  keep\n", false],
    ["description: Use this agent when: the user asks\n", true],
    ["name: a\ndescription: one: two: three\ntools: [a]\n", true],
    ["description: a: b\ndescription: c\n", false],
    ["description: see [x]: y\n", false],
    ["description: a: 'b'\n", false],
    ["description: x # comment\n", false],
    ["# comment\nname: x\n", false],
    ["name: &a x\n", false],
    ["name: *a\n", false],
    ["name: !!str 1\n", false],
    ["name:\n  nested: 1\n", false],
    ["name: x\n  continued\n", false],
    ["\tname: x\n", false],
    ["name: C# and F#\n", true],
    ["url: http://example.com/a:b\n", true],
    ["emoji: 😀 ok\n", true],
    ["nbsp: a\u00a0b\n", true],
    ["", false],
    ["\n\n", false],
  ];
  for (const [b, fast] of rows) {
    test(`${JSON.stringify(b)}${fast ? "" : " (declined)"}`, () => {
      assert.equal(agrees(b), fast, fast ? "expected the fast path" : "expected yaml");
    });
  }
});

describe("parseFrontmatter with the fast path", () => {
  test("the classic unquoted description: same warning text as yaml gives", () => {
    const text = "---\nname: helper\ndescription: Use this agent when: the user asks\n---\nBody";
    const fm = parseFrontmatter(text, { file: "a.md", level: "warn" });
    assert.equal(fm.status, "fallback");
    assert.deepEqual(fm.data, {
      name: "helper",
      description: "Use this agent when: the user asks",
    });
    assert.equal(fm.warnings.length, 1);
    const yamlSays = reference("name: helper\ndescription: Use this agent when: the user asks\n");
    assert.ok(!yamlSays.ok);
    assert.equal(
      fm.warnings[0].message,
      `invalid YAML frontmatter (${yamlSays.error}); read as plain 'key: value' lines`,
    );
  });
});
