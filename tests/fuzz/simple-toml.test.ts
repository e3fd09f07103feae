// Proves the TOML fast path (`parseSimpleToml`, for Codex agent files) equal
// to `smol-toml`: on every document it accepts, it must return exactly what
// `smol-toml` returns (same values, same key order, a null-prototype object).
// Documents it declines go to `smol-toml` unchanged, so they need no proof;
// the tests also check that it declines what `smol-toml` refuses and that it
// accepts the usual agent file.
//
// Seeded: a failure prints the seed and the shrunk counterexample; replay it
// with FUZZ_SEED=<seed>.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { parseSimpleToml } from "../../src/formats/simple-toml.ts";
import { rng, tomlAgent } from "../../bench/generate.ts";
import { check } from "./support.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SLOW = { timeout: 120_000 };

/** What smol-toml makes of `text`, or "error". */
function reference(text: string): unknown {
  try {
    return parseToml(text);
  } catch {
    return "error";
  }
}

/** The fast path declines, or agrees with smol-toml (which must then accept). */
function agrees(text: string): void {
  const fast = parseSimpleToml(text);
  if (fast === undefined) return;
  const ref = reference(text);
  assert.notEqual(ref, "error", `accepted what smol-toml refuses: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(fast, ref, JSON.stringify(text));
  assert.deepEqual(Object.keys(fast), Object.keys(ref as object), "key order");
  assert.equal(Object.getPrototypeOf(fast), Object.getPrototypeOf(ref));
}

// ---- Generators ------------------------------------------------------------

/** Characters that matter to TOML strings and comments, and plain ones. */
const charArb = fc.constantFrom(
  "a",
  "Z",
  "0",
  " ",
  "\t",
  "\n",
  "\r",
  '"',
  "'",
  "\\",
  "#",
  "=",
  "[",
  "]",
  ",",
  ".",
  "é",
  "😀",
  "\u0000",
  "\u0001",
  "\u007f",
  "\u00a0",
  "\ufeff",
);
/** Mostly plain characters, now and then one that matters: documents that mostly parse. */
const mostlyPlainArb = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("a", "b", " ", "é", "-", "x") },
  { weight: 1, arbitrary: charArb },
);
const textArb = fc.oneof(
  fc.array(charArb, { maxLength: 14 }).map((cs) => cs.join("")),
  fc.array(mostlyPlainArb, { maxLength: 14 }).map((cs) => cs.join("")),
);
const escapeArb = fc.constantFrom(
  '\\"',
  "\\\\",
  "\\n",
  "\\t",
  "\\r",
  "\\b",
  "\\f",
  "\\e",
  "\\u00e9",
  "\\x41",
  "\\q",
  "\\",
);
const basicBody = fc.array(fc.oneof(textArb, escapeArb), { maxLength: 4 }).map((p) => p.join(""));

const keyArb = fc.oneof(
  fc.constantFrom(
    "name",
    "description",
    "model",
    "developer_instructions",
    "sandbox_mode",
    "__proto__",
    "constructor",
    "true",
    "1",
    "-",
    "a.b",
    '"q"',
    "",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
);

const valueArb = fc.oneof(
  basicBody.map((b) => `"${b}"`),
  textArb.map((t) => `'${t}'`),
  fc.tuple(fc.boolean(), textArb, fc.boolean()).map(([nl, t, q]) =>
    `"""${nl ? "\n" : ""}${t}${q ? '"' : ""}"""`
  ),
  fc.tuple(fc.boolean(), textArb).map(([nl, t]) => `'''${nl ? "\n" : ""}${t}'''`),
  fc.constantFrom("true", "false", "True", "0", "-0", "+1", "1_000", "007", "1.5", "0x10"),
  fc.integer({ min: -1e15, max: 1e15 }).map(String),
  fc.constantFrom("9007199254740993", "123456789012345", "-999999999999999", "1979-05-27"),
  fc.array(fc.oneof(basicBody.map((b) => `"${b}"`), textArb.map((t) => `'${t}'`)), {
    maxLength: 3,
  }).chain((items) =>
    fc.constantFrom(
      `[${items.join(", ")}]`,
      `[ ${items.join(",")} ]`,
      `[${items.join(", ")},]`,
      `[\n${items.join(",\n")}\n]`,
    )
  ),
  textArb,
);

const spaceArb = fc.constantFrom("", " ", "  ", "\t");
const lineArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(keyArb, spaceArb, spaceArb, valueArb, spaceArb, fc.option(textArb)).map(
      ([k, s1, s2, v, s3, c]) => `${k}${s1}=${s2}${v}${s3}${c === null ? "" : `#${c}`}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "# comment", "  # x", "[table]", "[mcp_servers.x]", "\r"),
  },
  { weight: 1, arbitrary: textArb.map((t) => `#${t}`) },
);
const plainTextArb = fc.array(mostlyPlainArb, { maxLength: 14 }).map((cs) => cs.join(""));
/** Values of every kind the fast path reads, now and then with a character that matters. */
const usualValueArb = fc.oneof(
  plainTextArb.map((t) => `"${t.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`),
  plainTextArb.map((t) => `'${t}'`),
  fc.tuple(fc.boolean(), plainTextArb).map(([nl, t]) => `"""${nl ? "\n" : ""}${t}"""`),
  fc.tuple(fc.boolean(), plainTextArb).map(([nl, t]) => `'''${nl ? "\n" : ""}${t}'''`),
  fc.integer({ min: -1e15, max: 1e15 }).map(String),
  fc.boolean().map(String),
  fc.array(plainTextArb.map((t) => `'${t}'`), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
);

/** Distinct plain keys with values that mostly parse: long documents that get accepted. */
const plainLinesArb = fc.uniqueArray(fc.stringMatching(/^[a-z_][a-z0-9_-]{0,6}$/), {
  minLength: 2,
  maxLength: 8,
}).chain((keys) =>
  fc.tuple(
    ...keys.map((k) =>
      fc.tuple(spaceArb, usualValueArb, fc.option(textArb, { freq: 4 })).map(([s, v, c]) =>
        `${k} =${s}${v}${c === null ? "" : ` #${c}`}`
      )
    ),
  )
);
const docArb = fc.tuple(
  fc.oneof(fc.array(lineArb, { maxLength: 8 }), plainLinesArb),
  fc.constantFrom("\n", "\r\n", ""),
).map(([lines, last]) => lines.join("\n") + last);

// ---- Properties ------------------------------------------------------------

describe("the simple TOML reader", () => {
  test("agrees with smol-toml on every generated document it accepts", SLOW, () => {
    check(docArb, agrees, RUNS);
    // Not a vacuous proof: many generated documents of several keys are accepted.
    const sample = fc.sample(docArb, { seed: 1, numRuns: 2000 });
    const long = sample.filter((d) => Object.keys(parseSimpleToml(d) ?? {}).length >= 3);
    assert.ok(long.length >= 50, `${long.length} accepted documents of 3+ keys`);
  });

  test("agrees on single values of every kind", SLOW, () => {
    check(valueArb, (v) => agrees(`k = ${v}\n`), RUNS);
  });

  test("accepts enough to matter: the agent files the bench generates, every one", () => {
    const r = rng(7);
    for (let i = 0; i < 300; i++) {
      const text = tomlAgent(r, `agent-${i}`);
      assert.ok(parseSimpleToml(text) !== undefined, text.slice(0, 200));
      agrees(text);
    }
  });

  test("declines tables, dotted keys, escapes it does not know, and duplicate keys", () => {
    for (
      const text of [
        '[mcp_servers.x]\ncommand = "y"',
        'a.b = "x"',
        'a = "\\u00e9"',
        'a = """x\\\n y"""',
        "a = 1\na = 2",
        "a = 1.5",
        'a = "x"\r\n',
        'a = """x""""',
      ]
    ) {
      assert.equal(parseSimpleToml(text), undefined, text);
    }
  });
});
