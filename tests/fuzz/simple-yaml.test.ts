// Proves the YAML fast path (`parseSimpleYaml`, for frontmatter and small
// config files) equal to `yaml`: on every block it accepts, it must return
// exactly what `yaml.parse` returns (same values, same key order, -0 and NaN
// included) or, for the one invalid form it recognises, the first line of the
// error `yaml` throws. Blocks it declines go to `yaml` unchanged, so they need
// no proof; the tests only check that the fast path accepts enough to matter.
//
// Seeded: a failure prints the seed and the shrunk counterexample; replay it
// with FUZZ_SEED=<seed>.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadParsers, parsedNow } from "../../src/formats/full-parsers.ts";
import process from "node:process";
import fc from "fast-check";
import { parseFrontmatter } from "../../src/formats/frontmatter.ts";
import { parseSimpleYaml } from "../../src/formats/simple-yaml.ts";
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

/**
 * What may follow the first `: ` of such a value: anything on the line —
 * quotes, brackets, comments, `\n` escapes and tags as in Claude's
 * `Examples:\n\n<example>\nuser: "…"` descriptions.
 */
const afterColon = fc.oneof(
  words,
  plain,
  scalar,
  flowList,
  chars(16),
  fc.tuple(words, words).map(([a, b]) =>
    `${a}.\\n\\n<example>\\nContext: ${b}\\nuser: "${a}?"\\n</example>`
  ),
);

/** `key: a: b`: the unquoted description strict YAML rejects. */
const nestedMapping = fc.tuple(
  fc.oneof(words, plain),
  fc.array(afterColon, { minLength: 1, maxLength: 3 }),
).chain(([first, rest]) => fc.constantFrom(": ", ":  ").map((sep) => [first, ...rest].join(sep)));

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
    ["description: a: 'b'\n", true],
    [
      'description: Use it. Examples:\\n\\n<example>\\nContext: x\\nuser: "Check it?"\\n</example>\nmodel: sonnet\n',
      true,
    ],
    ["description: a: [b\n", true],
    ["description: 'a': b\n", false],
    ["description: [a]: b\n", false],
    ["description: x # comment\n", true],
    ["# comment\nname: x\n", true],
    ["name: &a x\n", false],
    ["name: *a\n", false],
    ["name: !!str 1\n", false],
    ["name:\n  nested: 1\n", true],
    ["name: x\n  continued\n", false],
    ["\tname: x\n", false],
    ["name: C# and F#\n", true],
    ["url: http://example.com/a:b\n", true],
    ["emoji: 😀 ok\n", true],
    ["nbsp: a\u00a0b\n", true],
    ["", false],
    ["\n\n", false],
    // Nested block mappings.
    ["a:\n  b:\n    c: 1\n  d: [x, { e: f }]\ng: 2\n", true],
    ["a:\n    b: 1\n    c:\n     d: 2\n", true],
    ["a:\n  b:\n  - x\n  - y\n  c: 1\n", true],
    ["a:\n  b:\n    - x\n  c: 1\n", true],
    ["a:\n  b: |\n    x\n    # text\n  c: >-\n    y\n", true],
    ["a:\n  __proto__: 1\n  constructor: { toString: 2 }\n", true],
    ["a:\n\n  b: 1\n\n  c: 2\n", true],
    ["a:\n  b: 1\n   c: 2\n", false],
    ["a:\n    b: 1\n  c: 2\n", false],
    ["a:\n  b: 1\n c: 2\n", false],
    ["a:\n  b:1\n", false],
    ["a:\n  b: 1\n  b: 2\n", false],
    ["a:\n  null: 1\n", false],
    ["a:\n  b: c: d\n", false],
    ["a:\n  b\n", false],
    ["a:\n  - x\n  b: 1\n", false],
    ["a:\n\n  - x\n", false],
    ["a:\n  b: |\n    x\n\n    y\n", false],
    ["a:\n  b: x\n    more\n", false],
    // Flow mappings.
    ["a: {}\n", true],
    ["a: { }\n", true],
    ['a: { b: 1, c: "d", e: [x, y], f: { g: h }, i: {} }\n', true],
    ["a: [{ b: 1 }, c, [d, { e: [] }]]\n", true],
    ["a: {b: 'it''s', c: -1.5, d: ~}\n", true],
    ["a: { __proto__: 1, constructor: 2 }\n", true],
    ["a: {b:1}\n", false],
    ["a: {b}\n", false],
    ["a: { b: 1, }\n", false],
    ["a: { b: 1,, c: 2 }\n", false],
    ["a: { b: }\n", false],
    ["a: { b: 1, b: 2 }\n", false],
    ['a: { "b": 1 }\n', false],
    ["a: { true: 1 }\n", false],
    ["a: { b : 1 }\n", false],
    ["a: { b: c: d }\n", false],
    ["a: { b: http://x }\n", false],
    ["a: { b: 1\n  }\n", false],
    ["a: { b: 1 } x\n", false],
    ["a: [b: 1]\n", false],
    // Comments.
    ["a: x#y\n", true],
    ['a: "x # y" # c\n', true],
    ["a: 'x' #c\n", true],
    ["a: [x, 'y #z'] # c\n", true],
    ["a: { b: 1 }   # c\n", true],
    ["a: 1 # c\nb: true # c\n", true],
    ["a: # c\n  b: 1\n", true],
    ["a: # c\n- x\n", true],
    ["a:   # c\nb: 1\n", true],
    ["  # indented\na: 1\n#\n", true],
    ["a:\n  b: 1\n# c\n  c: 2\n", true],
    ["a: x\n    # c\nb: 1\n", true],
    ["a:\n  - x # c\n  # c\n  - { b: 1 }\n", true],
    ["a: | # c\n  x\n# c\n", true],
    ["a: [x]#c\n", false],
    ['a: "x"#c\n', false],
    ["a: [x #c]\n", false],
    ["a:#c\n", false],
    ["a: - # c\n", false],
    ["a:\n  - # c\n", false],
    ["a: |\n    x\n  # c\n", false],
    ["a: |\n  x\n\n  # c\n", false],
    ["a: b: c # d\n", true],
    ["a: b # c: d\n", true],
    ["   \na: 1\n", false],
    ["# only a comment\n", false],
  ];
  for (const [b, fast] of rows) {
    test(`${JSON.stringify(b)}${fast ? "" : " (declined)"}`, () => {
      assert.equal(agrees(b), fast, fast ? "expected the fast path" : "expected yaml");
    });
  }
});

describe("parseFrontmatter with the fast path", () => {
  test("the classic unquoted description: read silently, whichever parser refused it", () => {
    const text = "---\nname: helper\ndescription: Use this agent when: the user asks\n---\nBody";
    const fm = parsedNow(parseFrontmatter(text, { file: "a.md", level: "warn" }));
    assert.equal(fm.status, "fallback");
    assert.deepEqual(fm.data, {
      name: "helper",
      description: "Use this agent when: the user asks",
    });
    assert.deepEqual(fm.warnings, []);
    const yamlSays = reference("name: helper\ndescription: Use this agent when: the user asks\n");
    assert.ok(!yamlSays.ok, "yaml refuses it too");
  });

  test("a doubtful lenient reading says what to fix, never the parser's own words", async () => {
    await loadParsers(); // this block needs the full parser
    const block = "name: helper\ndescription: Use this agent when: the user asks\n  more\n";
    const fm = parsedNow(
      parseFrontmatter(`---\n${block}---\nBody`, { file: "a.md", level: "warn" }),
    );
    assert.equal(fm.status, "fallback");
    assert.equal(
      fm.warnings[0]?.message,
      "frontmatter is not valid YAML, so it was read line by line: line 3 is not a 'key: value' " +
        "line and was skipped. To fix: put the value of 'description' (line 2) in quotes, or " +
        "write 'description: |' with the text indented on the lines below",
    );
    const yamlSays = reference(block);
    assert.ok(!yamlSays.ok);
    assert.ok(!fm.warnings[0].message.includes(yamlSays.error));
  });
});

// ---- Nested mappings, flow mappings, comments --------------------------------

/** A trailing comment or none; `#x` right after a value is text (or an error) in YAML. */
const trailing = fc.oneof(
  { weight: 8, arbitrary: fc.constant("") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      " # note",
      "  #x",
      " #",
      " # a: b, [c] {d}",
      " # 'q\" #",
      "   # é😀",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("#x", "# x", " #\t", "  ") },
);

/** Scalars the fast path should take, `#` inside quotes and in `a#b` included. */
const configScalar = fc.oneof(
  { weight: 4, arbitrary: cleanScalar },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "openai-compatible",
      "local/qwen3-8b",
      "ollama/qwen3:1.7b",
      "http://127.0.0.1:8080/v1",
      '"http://127.0.0.1:8080/v1"',
      '"a # b"',
      "'x #y'",
      "a#b",
      "C#",
      "x#",
      "600",
      "-1",
      "2.5",
      "true",
      "~",
    ),
  },
);
/** Scalars the fast path should take inside flow collections too (no `:`, `#`, `,`). */
const flowSafeScalar = configScalar.filter((s) => /^["']/.test(s) || !/[:#,]/.test(s));

const CONFIG_KEYS = [
  "providers",
  "local",
  "type",
  "baseURL",
  "apiKeyEnv",
  "models",
  "default",
  "roles",
  "smol",
  "task",
  "timeout",
  "disabledAgents",
  "a",
  "b-c",
  "_x",
  "__proto__",
  "constructor",
  "toString",
];
const configKey = fc.constantFrom(...CONFIG_KEYS);
const anyKey = fc.oneof(
  { weight: 4, arbitrary: configKey },
  { weight: 1, arbitrary: keyArb },
  { weight: 1, arbitrary: fc.constantFrom("a b", '"q"', "'q'", "-a", "1", "? a", "a\t") },
);

/** One-line flow values: scalars, lists and mappings of them, nested. */
function flowValues(item: fc.Arbitrary<string>, key: fc.Arbitrary<string>, noisy: boolean) {
  const pick = (clean: string[], odd: string[]) =>
    noisy
      ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...clean) }, {
        weight: 1,
        arbitrary: fc.constantFrom(...odd),
      })
      : fc.constantFrom(...clean);
  const sep = pick([", ", ", ", ",", " , "], [",,", ", ,", ""]);
  const colon = pick([": ", ": ", ":  "], [":", " : ", ""]);
  const open = (c: string) => pick([c, c, `${c} `], [`${c},`, `${c}\n`]);
  const close = (c: string) => pick([c, c, ` ${c}`], [`,${c}`, `${c}x`, ""]);
  return fc.letrec<{ flow: string; list: string; map: string }>((tie) => ({
    flow: fc.oneof(
      { maxDepth: 3, depthSize: "small" },
      { weight: 4, arbitrary: item },
      { weight: 1, arbitrary: tie("list") },
      { weight: 1, arbitrary: tie("map") },
    ),
    list: fc.tuple(fc.array(tie("flow"), { maxLength: 4 }), sep, open("["), close("]"))
      .map(([items, s, o, c]) => `${o}${items.join(s)}${c}`),
    map: fc.tuple(
      noisy
        ? fc.array(fc.tuple(key, colon, tie("flow")), { maxLength: 4 })
        : fc.uniqueArray(fc.tuple(key, colon, tie("flow")), {
          maxLength: 4,
          selector: (e) => e[0],
        }),
      sep,
      open("{"),
      close("}"),
    ).map(([entries, s, o, c]) => `${o}${entries.map(([k, d, v]) => k + d + v).join(s)}${c}`),
  }));
}
const cleanFlow = flowValues(flowSafeScalar, configKey, false);
const noisyFlow = flowValues(
  fc.oneof(flowSafeScalar, scalar, cleanScalar),
  anyKey,
  true,
);

type Tree = Node[];
interface Node {
  /** Lines before the key: blank ("") or a comment, at an offset from the key's column. */
  pre: [number, string][];
  key: string;
  comment: string;
  value:
    | { kind: "inline"; text: string }
    | { kind: "empty" }
    | { kind: "map"; step: number; entries: Tree }
    | { kind: "list"; offset: number; items: { pre: string; text: string; comment: string }[] }
    | { kind: "block"; header: string; step: number; lines: string[] };
}

/** Block mapping trees, rendered as lines; `noisy` mixes in what the fast path declines. */
function trees(noisy: boolean): fc.Arbitrary<Tree> {
  const flow = noisy ? noisyFlow : cleanFlow;
  const inline = fc.oneof(
    { weight: 5, arbitrary: noisy ? fc.oneof(configScalar, scalar) : configScalar },
    { weight: 2, arbitrary: flow.list },
    { weight: 2, arbitrary: flow.map },
    ...(noisy ? [{ weight: 1, arbitrary: nestedMapping }] : []),
  );
  const comment = noisy
    ? trailing
    : trailing.filter((c) => c === "" || (c.startsWith(" #") && !c.includes("\t")));
  const preLine = fc.oneof(
    { weight: 1, arbitrary: fc.constant<[number, string]>([0, ""]) },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.integer({ min: -2, max: 4 }),
        fc.constantFrom("# c", "#", "# a: b", "## - x", "#\u00a0x"),
      ),
    },
  );
  const pre = fc.oneof(
    { weight: 4, arbitrary: fc.constant<[number, string][]>([]) },
    { weight: 1, arbitrary: fc.array(preLine, { minLength: 1, maxLength: 2 }) },
  );
  const step = noisy
    ? fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }) }, {
      weight: 1,
      arbitrary: fc.constant(0),
    })
    : fc.integer({ min: 1, max: 4 });
  const item = fc.record({
    pre: noisy
      ? fc.constantFrom("", "", "", "# c", "  # c", "\n")
      : fc.constantFrom("", "", "", "# c", "  # c"),
    text: inline,
    comment,
  });
  const list = fc.record({
    kind: fc.constant("list" as const),
    offset: fc.integer({ min: 0, max: 3 }),
    items: fc.array(item, { minLength: 1, maxLength: 3 }),
  });
  const blockScalarValue = fc.record({
    kind: fc.constant("block" as const),
    header: noisy
      ? fc.constantFrom(">", "|", ">-", "|-", "| # c", ">+", "|2", "|x")
      : fc.constantFrom(">", "|", ">-", "|-", "| # c"),
    step,
    lines: fc.array(noisy ? fc.oneof(words, chars(8)) : cleanWords, { minLength: 1, maxLength: 3 }),
  });
  return fc.letrec<{ tree: Tree; node: Node }>((tie) => ({
    tree: noisy
      ? fc.array(tie("node"), { minLength: 1, maxLength: 4 })
      : fc.uniqueArray(tie("node"), { minLength: 1, maxLength: 4, selector: (n) => n.key }),
    node: fc.record({
      pre,
      key: noisy ? anyKey : configKey,
      comment,
      value: fc.oneof(
        { maxDepth: 4, depthSize: "small" },
        { weight: 5, arbitrary: inline.map((text) => ({ kind: "inline" as const, text })) },
        { weight: 1, arbitrary: fc.constant({ kind: "empty" as const }) },
        { weight: 2, arbitrary: list },
        { weight: 1, arbitrary: blockScalarValue },
        {
          weight: 4,
          arbitrary: fc.record({ kind: fc.constant("map" as const), step, entries: tie("tree") }),
        },
      ),
    }),
  })).tree;
}

function render(tree: Tree, indent = 0, out: string[] = []): string[] {
  const pad = " ".repeat(indent);
  for (const n of tree) {
    for (const [off, text] of n.pre) {
      out.push(text === "" ? "" : " ".repeat(Math.max(0, indent + off)) + text);
    }
    const v = n.value;
    if (v.kind === "inline") out.push(`${pad}${n.key}: ${v.text}${n.comment}`);
    else if (v.kind === "block") {
      out.push(`${pad}${n.key}: ${v.header}`);
      for (const l of v.lines) out.push(" ".repeat(indent + v.step) + l);
    } else {
      out.push(`${pad}${n.key}:${n.comment}`);
      if (v.kind === "map") render(v.entries, indent + v.step, out);
      if (v.kind === "list") {
        for (const it of v.items) {
          if (it.pre === "\n") out.push("");
          else if (it.pre !== "") out.push(it.pre);
          out.push(`${" ".repeat(indent + v.offset)}- ${it.text}${it.comment}`);
        }
      }
    }
  }
  return out;
}

/** Small edits that usually make a valid block odd or invalid. */
const mutation = fc.tuple(
  fc.nat(),
  fc.constantFrom(
    "indent+1",
    "indent-1",
    "tab",
    "no-space",
    "comma",
    "drop",
    "repeat",
    "hash",
    "blank",
  ),
).map(([at, kind]) => (lines: string[]): string[] => {
  const out = lines.slice();
  if (out.length === 0) return out;
  const k = at % out.length;
  const l = out[k];
  switch (kind) {
    case "indent+1":
      out[k] = ` ${l}`;
      break;
    case "indent-1":
      out[k] = l.replace(/^ /, "");
      break;
    case "tab":
      out[k] = l.replace(/ /, "\t");
      break;
    case "no-space":
      out[k] = l.replace(/: /, ":");
      break;
    case "comma":
      out[k] = l.replace(/([\]}])/, ",$1");
      break;
    case "drop":
      out.splice(k, 1);
      break;
    case "repeat":
      out.splice(k, 0, l);
      break;
    case "hash":
      out[k] = l.replace(/ /, " #");
      break;
    case "blank":
      out.splice(k, 0, "");
      break;
  }
  return out;
});

const cleanTreeBlock = trees(false).map((t) => render(t).join("\n") + "\n");
const noisyTreeBlock = fc.tuple(trees(true), fc.array(mutation, { maxLength: 2 }))
  .map(([t, ms]) => ms.reduce((lines, m) => m(lines), render(t)).join("\n") + "\n");
const mutatedTreeBlock = fc.tuple(trees(false), fc.array(mutation, { minLength: 1, maxLength: 2 }))
  .map(([t, ms]) => ms.reduce((lines, m) => m(lines), render(t)).join("\n") + "\n");

/** The example config from the design notes, and variations a person would write. */
const CONFIG_EXAMPLE = `# xcsh configuration
providers:
  local: { type: openai-compatible, baseURL: "http://127.0.0.1:8080/v1" }
  anthropic:
    apiKeyEnv: MY_KEY   # the variable holding the key
models:
  default: local/qwen3-8b
  roles: { smol: local/qwen3-1.7b, slow: anthropic/claude-opus-4-1 }
task:
  maxRecursionDepth: 2
  timeout: 600
  disabledAgents: [plan]
  agentModelOverrides:
    explore: local/qwen3-1.7b
`;
const CONFIGS: [string, string][] = [
  ["the example", CONFIG_EXAMPLE],
  ["four-space indentation", CONFIG_EXAMPLE.replace(/^ +/gm, (s) => s + s)],
  [
    "no comments, no final line break",
    CONFIG_EXAMPLE.split("\n").map((l) => l.replace(/ *#.*$/, "")).filter((l) => l !== "")
      .join("\n"),
  ],
  [
    "blank lines and comment lines between sections",
    CONFIG_EXAMPLE.replace(/\n(?=[a-z])/g, "\n\n# ----\n").replace(
      "  timeout",
      "    # seconds\n  timeout",
    ),
  ],
  [
    "block lists, indented and at the key's column",
    CONFIG_EXAMPLE.replace(
      "  disabledAgents: [plan]",
      "  disabledAgents:\n    - plan   # slow\n    # - designer\n    - 'reviewer'\n  tags:\n  - x",
    ),
  ],
  [
    "nested flow mappings and lists",
    CONFIG_EXAMPLE.replace(
      "  roles: {",
      '  extra: { a: { b: [1, { c: "d" }] }, e: [], f: {} }\n  roles: {',
    ),
  ],
  [
    "the README's example",
    `models:
  default: anthropic/claude-sonnet-4-5     # the parent's model; \`inherit\` means this
  roles:                                   # used by xcsh/<role>, pi/<role>
    smol: ollama/qwen3:1.7b
    slow: anthropic/claude-opus-4-5
    plan: openai/gpt-5
  aliases:                                 # optional: remap Claude's names
    haiku: local/qwen3-8b
providers:
  local:                                   # use as local/<model>
    type: openai-compatible                # openai-compatible | anthropic | openai | google
    baseURL: http://127.0.0.1:8080/v1
  corp:
    type: anthropic
    baseURL: https://llm-gateway.example.com/v1
    apiKeyEnv: CORP_LLM_KEY                # variable holding the key (omit for local servers)
  ollama:
    baseURL: http://gpu-box:11434/v1       # adjusts a built-in provider
task:
  maxRecursionDepth: 2                     # -1: unlimited
  maxConcurrency: 8
  timeout: 600                             # seconds per task
  disabledAgents: []
  agentModelOverrides:
    explore: ollama/qwen3:1.7b
`,
  ],
  [
    "a nested block scalar",
    CONFIG_EXAMPLE.replace(
      "  anthropic:\n",
      "  anthropic:\n    note: |\n      first\n      # kept\n",
    ),
  ],
];

describe("parseSimpleYaml equals yaml: nested mappings, flow mappings, comments", () => {
  test("the example config and variations are read, equal to yaml", () => {
    for (const [name, text] of CONFIGS) {
      assert.ok(agrees(text), `${name}: expected the fast path`);
    }
    const r = parseSimpleYaml(CONFIG_EXAMPLE);
    assert.ok(r?.ok);
    assert.deepStrictEqual(r.data, {
      providers: {
        local: { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" },
        anthropic: { apiKeyEnv: "MY_KEY" },
      },
      models: {
        default: "local/qwen3-8b",
        roles: { smol: "local/qwen3-1.7b", slow: "anthropic/claude-opus-4-1" },
      },
      task: {
        maxRecursionDepth: 2,
        timeout: 600,
        disabledAgents: ["plan"],
        agentModelOverrides: { explore: "local/qwen3-1.7b" },
      },
    });
  });

  test(`generated valid trees (${RUNS} cases, seed ${SEED})`, SLOW, () => {
    let accepted = 0;
    let nested = 0;
    check(cleanTreeBlock, (b) => {
      if (agrees(b)) {
        accepted++;
        if (/:\n +[a-z_]/i.test(b)) nested++;
      }
    });
    // Not vacuous: valid nested, flow and commented blocks mostly take the fast path.
    assert.ok(accepted > RUNS * 0.6, `only ${accepted} of ${RUNS} valid trees took the fast path`);
    assert.ok(nested > RUNS * 0.2, `only ${nested} of ${RUNS} accepted trees were nested`);
  });

  test(`generated noisy trees (${RUNS} cases)`, SLOW, () => {
    let accepted = 0;
    check(noisyTreeBlock, (b) => {
      if (agrees(b)) accepted++;
    });
    assert.ok(accepted > RUNS * 0.05, `only ${accepted} of ${RUNS} noisy trees took the fast path`);
  });

  test(`mutated valid trees (${RUNS} cases)`, SLOW, () => {
    let accepted = 0;
    check(mutatedTreeBlock, (b) => {
      if (agrees(b)) accepted++;
    });
    // Many edits keep the block valid (an indented comment, a blank line): some are taken.
    assert.ok(
      accepted > RUNS * 0.1,
      `only ${accepted} of ${RUNS} mutated trees took the fast path`,
    );
  });

  test(`generated flow values at the top (${RUNS} cases)`, SLOW, () => {
    let accepted = 0;
    check(
      fc.tuple(
        fc.oneof(cleanFlow.list, cleanFlow.map, noisyFlow.list, noisyFlow.map),
        trailing,
      ),
      ([v, c]) => {
        if (agrees(`k: ${v}${c}\n`)) accepted++;
      },
    );
    assert.ok(accepted > RUNS * 0.3, `only ${accepted} of ${RUNS} flow values took the fast path`);
  });

  test("deep nesting: accepted up to the cap, declined beyond it (equal to yaml)", () => {
    const deepMap = (n: number) =>
      Array.from({ length: n }, (_, k) => `${" ".repeat(k)}k${k}:`).join("\n") +
      `\n${" ".repeat(n)}leaf: 1\n`;
    const deepFlow = (n: number) => `k: ${"{ a: ".repeat(n)}1${" }".repeat(n)}\n`;
    const deepList = (n: number) => `k: ${"[".repeat(n)}1${"]".repeat(n)}\n`;
    assert.ok(agrees(deepMap(16)));
    assert.equal(agrees(deepMap(17)), false);
    assert.ok(agrees(deepFlow(16)));
    assert.equal(agrees(deepFlow(17)), false);
    assert.ok(agrees(deepList(16)));
    assert.equal(agrees(deepList(17)), false);
  });
});
