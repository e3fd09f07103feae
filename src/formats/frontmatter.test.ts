// Unit tests for parseFrontmatter: block detection, line endings, the three
// levels, the `key: value` fallback and the bounds on hostile input.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  type Frontmatter,
  FrontmatterError,
  type FrontmatterStatus,
  MAX_FRONTMATTER_BYTES,
  normalizeText,
  parseFrontmatter as frontmatterOnDemand,
  parseKeyValueLines,
} from "./frontmatter.ts";
import { loadParsers, parsedNow } from "./full-parsers.ts";

// These tests call the parsers synchronously; discovery loads them on demand.
await loadParsers();

/** parseFrontmatter with the parsers loaded above. */
const parseFrontmatter = (...a: Parameters<typeof frontmatterOnDemand>) =>
  parsedNow(frontmatterOnDemand(...a));

const FILE = "/agents/sample.md";
const MiB = 1024 * 1024;

/** A "billion laughs" block: ten levels of nine aliases each (9^9 leaves if expanded). */
function aliasBomb(): string {
  const lines = ["name: bomb", "description: d", 'a: &a ["lol","lol","lol","lol","lol"]'];
  let prev = "a";
  for (let i = 1; i <= 9; i++) {
    const n = `l${i}`;
    lines.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(",")}]`);
    prev = n;
  }
  return lines.join("\n");
}

interface Row {
  name: string;
  input: string;
  status: FrontmatterStatus;
  data?: Record<string, unknown>;
  body?: string;
  /** Regexes the warnings must match, one per warning, in order. */
  warnings?: RegExp[];
  /** What the error says at level fatal, when it differs from the first warning (or there is none). */
  fatal?: RegExp;
}

const rows: Row[] = [
  {
    name: "plain block and body",
    input: "---\nname: x\ndescription: y\n---\nBody\n",
    status: "ok",
    data: { name: "x", description: "y" },
    body: "Body\n",
  },
  {
    name: "CRLF line endings are normalised",
    input: "---\r\nname: x\r\ndescription: y\r\n---\r\nBody\r\nline 2\r\n",
    status: "ok",
    data: { name: "x", description: "y" },
    body: "Body\nline 2\n",
  },
  {
    name: "UTF-8 BOM is dropped",
    input: "\uFEFF---\nname: x\ndescription: y\n---\nBody",
    status: "ok",
    data: { name: "x", description: "y" },
    body: "Body",
  },
  {
    name: "BOM and CRLF together",
    input: "\uFEFF---\r\nname: x\r\n---\r\nBody",
    status: "ok",
    data: { name: "x" },
    body: "Body",
  },
  {
    name: "old Mac CR line endings",
    input: "---\rname: x\r---\rBody",
    status: "ok",
    data: { name: "x" },
    body: "Body",
  },
  {
    name: "no frontmatter: whole text is the body, no warning",
    input: "# Title\n\nname: not frontmatter\n",
    status: "none",
    data: {},
    body: "# Title\n\nname: not frontmatter\n",
  },
  { name: "empty file", input: "", status: "none", data: {}, body: "" },
  {
    name: "first line '----' is not an opening",
    input: "----\nname: x\n----\nBody",
    status: "none",
    data: {},
  },
  {
    name: "indented opening is not an opening",
    input: " ---\nname: x\n---\nBody",
    status: "none",
    data: {},
  },
  {
    name: "unterminated block",
    input: "---\nname: x\ndescription: y\nBody without a closing line\n",
    status: "unterminated",
    data: {},
    body: "---\nname: x\ndescription: y\nBody without a closing line\n",
    warnings: [/not closed/],
  },
  {
    name: "a lone '---'",
    input: "---",
    status: "unterminated",
    data: {},
    warnings: [/not closed/],
  },
  {
    name: "empty block",
    input: "---\n---\nBody",
    status: "ok",
    data: {},
    body: "Body",
  },
  {
    name: "closing line at end of file without newline",
    input: "---\nname: x\n---",
    status: "ok",
    data: { name: "x" },
    body: "",
  },
  {
    name: "block ends at the first '---' line; later ones belong to the body",
    input: "---\nname: x\n---\nintro\n---\nmore\n",
    status: "ok",
    data: { name: "x" },
    body: "intro\n---\nmore\n",
  },
  {
    name: "typed YAML values are kept",
    input: "---\nname: x\ntools: [read, grep]\nmaxTurns: 5\nrecursive: true\n---\n",
    status: "ok",
    data: { name: "x", tools: ["read", "grep"], maxTurns: 5, recursive: true },
  },
  {
    name: "unquoted description containing ': ' falls back to key: value lines",
    input: "---\nname: helper\ndescription: Use this agent when: the user asks\n---\nBody",
    status: "fallback",
    data: { name: "helper", description: "Use this agent when: the user asks" },
    body: "Body",
    // Every line reads one way: no warning.
    warnings: [],
    fatal: /invalid YAML/,
  },
  {
    name: "Claude's one-line description with examples reads silently",
    input: [
      "---",
      "name: code-reviewer",
      "description: Use this agent after writing code. Examples:\\n\\n<example>\\nContext: " +
      'a new endpoint.\\nuser: "Review my handler"\\nassistant: "I\'ll use the code-reviewer agent."' +
      "\\n<commentary>New code: review it.</commentary>\\n</example>",
      "tools: Read, Grep, Glob, WebFetch",
      "model: sonnet",
      "color: blue",
      "---",
      "You review code.",
    ].join("\n"),
    status: "fallback",
    data: {
      name: "code-reviewer",
      description: "Use this agent after writing code. Examples:\\n\\n<example>\\nContext: " +
        'a new endpoint.\\nuser: "Review my handler"\\nassistant: "I\'ll use the code-reviewer agent."' +
        "\\n<commentary>New code: review it.</commentary>\\n</example>",
      tools: "Read, Grep, Glob, WebFetch",
      model: "sonnet",
      color: "blue",
    },
    warnings: [],
    fatal: /invalid YAML/,
  },
  {
    name: "a YAML list of tools in a lenient reading is read as a list, silently",
    input:
      "---\nname: x\ndescription: Use when: y\ntools:\n  - Read\n  - 'Grep'\nmodel: sonnet\n---\n",
    status: "fallback",
    data: { name: "x", description: "Use when: y", tools: ["Read", "Grep"], model: "sonnet" },
    warnings: [],
    fatal: /invalid YAML/,
  },
  {
    name: "nested YAML under a key is lost by the lenient reading: said, with the fix",
    input:
      "---\nname: x\ndescription: Use when: y\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\n",
    status: "fallback",
    data: { name: "x", description: "Use when: y", hooks: "" },
    warnings: [
      /^frontmatter is not valid YAML, so it was read line by line: line 4 is not a 'key: value' line and was skipped; line 5 is not a 'key: value' line and was skipped\. To fix: put the value of 'description' \(line 2\) in quotes, or write 'description: \|' with the text indented on the lines below$/,
    ],
  },
  {
    name: "a repeated key and a flow list in a lenient reading are said",
    input: "---\nname: x\ndescription: Use when: y\nname: z\ntools: [Read, Grep]\n---\n",
    status: "fallback",
    data: { name: "x", description: "Use when: y", tools: "[Read, Grep]" },
    warnings: [
      /'name' is given twice \(lines 1 and 3\); the first is used; 'tools' \(line 4\) was read as the plain text "\[Read, Grep\]"\. To fix/,
    ],
  },
  {
    name: "fallback keeps hyphenated keys, strips matching quotes, skips comments and indents",
    input: [
      "---",
      "name: 'helper'",
      "description: Use when: always",
      'thinking-level: "HIGH"',
      "# a comment: here",
      "  indented: ignored",
      "odd: 'half",
      "empty:",
      "---",
      "",
    ].join("\n"),
    status: "fallback",
    data: {
      name: "helper",
      description: "Use when: always",
      "thinking-level": "HIGH",
      odd: "'half",
      empty: "",
    },
    warnings: [
      /^frontmatter is not valid YAML, so it was read line by line: line 5 is not a 'key: value' line and was skipped; the quotes of 'odd' \(line 6\) were kept as written\. To fix: put the value of 'description' \(line 2\) in quotes/,
    ],
  },
  {
    name: "a YAML list is not a mapping",
    input: "---\n- a\n- b\n---\nBody",
    status: "fallback",
    data: {},
    body: "Body",
    warnings: [/not a mapping/],
  },
  {
    name: "a YAML scalar is not a mapping",
    input: "---\njust some words\n---\n",
    status: "fallback",
    data: {},
    warnings: [/not a mapping/],
  },
  {
    name: "a few aliases are expanded normally",
    input: "---\nname: x\nlist: &l [1, 2]\ncopy: *l\n---\n",
    status: "ok",
    data: { name: "x", list: [1, 2], copy: [1, 2] },
  },
  {
    name: "alias bomb is refused, not expanded: values stay the raw alias text",
    input: `---\n${aliasBomb()}\n---\nBody`,
    status: "fallback",
    data: {
      name: "bomb",
      description: "d",
      a: '&a ["lol","lol","lol","lol","lol"]',
      ...Object.fromEntries(
        Array.from({ length: 9 }, (_, i) => [
          `l${i + 1}`,
          `&l${i + 1} [${Array(9).fill(`*${i === 0 ? "a" : `l${i}`}`).join(",")}]`,
        ]),
      ),
    },
    body: "Body",
    warnings: [/alias/i],
  },
];

describe("parseFrontmatter (level warn)", () => {
  for (const row of rows) {
    test(row.name, () => {
      const fm = parseFrontmatter(row.input, { file: FILE, level: "warn" });
      assert.equal(fm.status, row.status);
      if (row.data) assert.deepEqual(fm.data, row.data);
      if (row.body !== undefined) assert.equal(fm.body, row.body);
      const expected = row.warnings ?? [];
      assert.equal(fm.warnings.length, expected.length, JSON.stringify(fm.warnings));
      fm.warnings.forEach((w, i) => {
        assert.equal(w.level, "warning");
        assert.equal(w.file, FILE);
        assert.match(w.message, expected[i]);
      });
    });
  }
});

describe("parseFrontmatter (level off)", () => {
  for (const row of rows.filter((r) => r.warnings?.length)) {
    test(`${row.name}: same result, no warnings`, () => {
      const fm = parseFrontmatter(row.input, { file: FILE, level: "off" });
      assert.equal(fm.status, row.status);
      if (row.data) assert.deepEqual(fm.data, row.data);
      assert.deepEqual(fm.warnings, []);
    });
  }
});

describe("parseFrontmatter (level fatal)", () => {
  for (const row of rows) {
    if (row.warnings?.length || row.fatal) {
      test(`${row.name}: throws FrontmatterError naming the file`, () => {
        assert.throws(
          () => parseFrontmatter(row.input, { file: FILE, level: "fatal" }),
          (err: unknown) => {
            assert.ok(err instanceof FrontmatterError, String(err));
            assert.equal(err.file, FILE);
            assert.ok(err.message.startsWith(`${FILE}: `), err.message);
            // At level fatal a lenient reading is refused with the YAML problem itself.
            const fallback = row.status === "fallback" ? /^invalid YAML: / : undefined;
            assert.match(err.reason, row.fatal ?? fallback ?? row.warnings![0]);
            return true;
          },
        );
      });
    } else {
      test(`${row.name}: does not throw`, () => {
        const fm = parseFrontmatter(row.input, { file: FILE, level: "fatal" });
        assert.equal(fm.status, row.status);
      });
    }
  }
});

describe("parseFrontmatter size bounds", () => {
  test("a 5 MiB body after a small block is kept whole", () => {
    const body = "x".repeat(5 * MiB);
    const fm = parseFrontmatter(`---\nname: big\n---\n${body}`, { file: FILE, level: "warn" });
    assert.equal(fm.status, "ok");
    assert.deepEqual(fm.data, { name: "big" });
    assert.equal(fm.body.length, body.length);
    assert.deepEqual(fm.warnings, []);
  });

  test("a 5 MiB frontmatter block is refused with a warning, body kept", () => {
    const block = `name: big\ndescription: ${"y".repeat(5 * MiB)}`;
    const fm = parseFrontmatter(`---\n${block}\n---\nBody`, { file: FILE, level: "warn" });
    assert.equal(fm.status, "invalid");
    assert.deepEqual(fm.data, {});
    assert.equal(fm.body, "Body");
    assert.equal(fm.warnings.length, 1);
    assert.match(fm.warnings[0].message, new RegExp(`${MAX_FRONTMATTER_BYTES}-byte limit`));
  });

  test("a 5 MiB file whose block never closes is unterminated, not a crash", () => {
    const text = `---\nname: big\n${"z: 1\n".repeat(MiB)}`;
    const fm = parseFrontmatter(text, { file: FILE, level: "warn" });
    assert.equal(fm.status, "unterminated");
    assert.equal(fm.body.length, text.length);
  });

  test("a 5 MiB block is refused at level fatal with FrontmatterError", () => {
    const text = `---\nname: big\ndescription: ${"y".repeat(5 * MiB)}\n---\n`;
    assert.throws(() => parseFrontmatter(text, { file: FILE, level: "fatal" }), FrontmatterError);
  });

  const sized: { name: string; block: string; status: FrontmatterStatus }[] = [
    {
      // The block is everything between the two '---' lines, final newline included.
      name: "a block of exactly the limit is parsed",
      block: `a: ${"x".repeat(MAX_FRONTMATTER_BYTES - 4)}`,
      status: "ok",
    },
    {
      name: "one byte over the limit is refused",
      block: `a: ${"x".repeat(MAX_FRONTMATTER_BYTES - 3)}`,
      status: "invalid",
    },
    {
      // 30 000 three-byte characters: 90 000 bytes, under the limit in UTF-16 units.
      name: "the limit counts UTF-8 bytes, not characters",
      block: `a: ${"€".repeat(30_000)}`,
      status: "invalid",
    },
    {
      name: "multi-byte text under the byte limit is parsed",
      block: `a: ${"é".repeat(30_000)}`,
      status: "ok",
    },
  ];
  for (const row of sized) {
    test(row.name, () => {
      const fm = parseFrontmatter(`---\n${row.block}\n---\n`, { file: FILE, level: "warn" });
      assert.equal(fm.status, row.status);
    });
  }
});

describe("parseKeyValueLines", () => {
  const cases: { name: string; input: string; expect: Record<string, string> }[] = [
    { name: "simple pairs", input: "a: 1\nb: two", expect: { a: "1", b: "two" } },
    { name: "first occurrence wins", input: "a: 1\na: 2", expect: { a: "1" } },
    {
      name: "value with colons and trailing spaces",
      input: "d: x: y: z   ",
      expect: { d: "x: y: z" },
    },
    { name: "double quotes stripped once", input: 'q: ""x""', expect: { q: '"x"' } },
    { name: "mismatched quotes kept", input: "q: 'x\"", expect: { q: "'x\"" } },
    { name: "empty value", input: "tools:", expect: { tools: "" } },
    {
      name: "hyphen and underscore keys",
      input: "max-turns: 3\nmax_turns: 4",
      expect: {
        "max-turns": "3",
        max_turns: "4",
      },
    },
    { name: "non-key lines ignored", input: "- item\n  k: v\n# c: d\n\n", expect: {} },
  ];
  for (const c of cases) {
    test(c.name, () => assert.deepEqual(parseKeyValueLines(c.input), c.expect));
  }
});

describe("normalizeText", () => {
  const cases = [
    { name: "BOM", input: "\uFEFFabc", expect: "abc" },
    { name: "CRLF", input: "a\r\nb\r\n", expect: "a\nb\n" },
    { name: "lone CR", input: "a\rb", expect: "a\nb" },
    { name: "BOM only at the start is removed", input: "a\uFEFFb", expect: "a\uFEFFb" },
  ];
  for (const c of cases) test(c.name, () => assert.equal(normalizeText(c.input), c.expect));
});

test("Frontmatter result shape is stable", () => {
  const fm: Frontmatter = parseFrontmatter("---\nname: x\n---\nb", { file: FILE, level: "warn" });
  assert.deepEqual(Object.keys(fm).sort(), ["body", "data", "status", "warnings"]);
});

describe("bounds before the full YAML parser", () => {
  const fence = (block: string) => `---\n${block}\n---\nbody\n`;
  test("too many lines: refused, named, with the body kept", () => {
    // An anchor keeps the block off the fast path, as a hostile file would.
    const block = "a: &x 1\n" + Array.from({ length: 2500 }, (_, i) => `k${i}: v`).join("\n");
    const fm = parseFrontmatter(fence(block), { file: "many.md", level: "warn" });
    assert.equal(fm.status, "invalid");
    assert.match(fm.warnings[0].message, /frontmatter has 2501 lines, over the 2000-line limit/);
    assert.equal(fm.warnings[0].file, "many.md");
    assert.equal(fm.body, "body\n");
  });
  test("deep nesting: refused with a message that does not depend on the runtime", () => {
    const block = "a: " + "[".repeat(5000) + "]".repeat(5000);
    const fm = parseFrontmatter(fence(block), { file: "deep.md", level: "warn" });
    assert.equal(fm.status, "invalid");
    assert.match(fm.warnings[0].message, /nests more than 64 levels of brackets/);
    assert.throws(
      () => parseFrontmatter(fence(block), { file: "deep.md", level: "fatal" }),
      /deep\.md: frontmatter nests more than 64 levels/,
    );
  });
  test("moderate nesting still parses", () => {
    const fm = parseFrontmatter(fence("a: [[[1]]]\nb: {c: {d: 2}}"), {
      file: "ok.md",
      level: "warn",
    });
    assert.equal(fm.status, "ok");
    assert.deepEqual(fm.data, { a: [[[1]]], b: { c: { d: 2 } } });
  });
});

describe("a list of mappings (Gemini CLI's several remote agents)", () => {
  test("is read as the list, with empty data", () => {
    const fm = parseFrontmatter(
      "---\n- kind: remote\n  name: a\n- kind: remote\n  name: b\n---\n",
      {
        file: FILE,
        level: "warn",
      },
    );
    assert.equal(fm.status, "ok");
    assert.deepEqual(fm.data, {});
    assert.deepEqual(fm.list, [{ kind: "remote", name: "a" }, { kind: "remote", name: "b" }]);
  });

  test("a list holding anything but mappings is no list", () => {
    const fm = parseFrontmatter("---\n- a\n- b\n---\n", { file: FILE, level: "warn" });
    assert.equal(fm.list, undefined);
    assert.equal(fm.status, "fallback");
  });
});
