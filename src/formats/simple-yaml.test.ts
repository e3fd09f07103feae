// The simple-YAML fast path on its own: nested block mappings, flow
// mappings, comments, and the shapes it leaves to \`yaml\`. The proof that its
// results equal \`yaml\`'s on generated blocks is tests/fuzz/simple-yaml.test.ts.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseSimpleYaml } from "./simple-yaml.ts";

describe("parseSimpleYaml: nested mappings, flow mappings, comments", () => {
  // [name, block, the data, or undefined when the block is left to yaml]
  const cases: [string, string, Record<string, unknown> | undefined][] = [
    [
      "nested block mappings",
      "a:\n  b:\n    c: 1\n  d: x\ne: true\n",
      { a: { b: { c: 1 }, d: "x" }, e: true },
    ],
    [
      "each level with its own indentation",
      "a:\n    b:\n     c: ~\n",
      { a: { b: { c: null } } },
    ],
    [
      "block lists nested, indented or at the key's column",
      "a:\n  b:\n  - x\n  - 'y'\n  c:\n    - [1, 2]\n    - { d: e }\n",
      { a: { b: ["x", "y"], c: [[1, 2], { d: "e" }] } },
    ],
    ["an empty nested value is null", "a:\n  b:\n  c: 1\n", { a: { b: null, c: 1 } }],
    [
      "a nested block scalar",
      "a:\n  b: |\n    x\n    # text\n  c: >-\n    y\n    z\n",
      { a: { b: "x\n# text\n", c: "y z" } },
    ],
    [
      "flow mappings, nested, with lists",
      'a: { b: 1, c: "d", e: [x, { f: [] }], g: {} }\n',
      { a: { b: 1, c: "d", e: ["x", { f: [] }], g: {} } },
    ],
    ["empty flow mappings", "a: {}\nb: { }\n", { a: {}, b: {} }],
    [
      "prototype-named keys are own properties at every level",
      "a:\n  __proto__: 1\n  b: { constructor: 2 }\n",
      { a: JSON.parse('{"__proto__": 1, "b": {"constructor": 2}}') },
    ],
    [
      "comment lines and trailing comments",
      "# head\na: x # c\n  # indented\nb: 'y #' #c\nc: # c\n  d: [1] # c\n# end\n",
      { a: "x", b: "y #", c: { d: [1] } },
    ],
    ["`#` without a space before it is text", "a: x#y\nb: C#\n", { a: "x#y", b: "C#" }],
    ["comment lines between list items", "a:\n- x\n# c\n- y # c\n", { a: ["x", "y"] }],
    ["blank lines between nested keys", "a:\n\n  b: 1\n\n  c: 2\n", { a: { b: 1, c: 2 } }],
    ["17 levels of nesting", "a:\n" + nest(16), undefined],
    ["a key indented too far", "a:\n  b: 1\n   c: 2\n", undefined],
    ["a key between two columns", "a:\n    b: 1\n  c: 2\n", undefined],
    ["a nested duplicate key", "a:\n  b: 1\n  b: 2\n", undefined],
    ["a nested null key", "a:\n  Null: 1\n", undefined],
    ["a nested `key: a: b`", "a:\n  b: c: d\n", undefined],
    ["a blank line before a list", "a:\n\n  - x\n", undefined],
    ["a blank line inside a list", "a:\n  - x\n\n  - y\n", undefined],
    ["a key after a list at a deeper column", "a:\n  - x\n  b: 1\n", undefined],
    ["`{a:1}`", "a: {b:1}\n", undefined],
    ["a key without a value in a flow mapping", "a: {b}\n", undefined],
    ["a trailing comma", "a: { b: 1, }\n", undefined],
    ["an empty entry", "a: [x,, y]\n", undefined],
    ["a duplicate flow key", "a: { b: 1, b: 2 }\n", undefined],
    ["a quoted flow key", 'a: { "b": 1 }\n', undefined],
    ["a multi-line flow mapping", "a: { b: 1,\n  c: 2 }\n", undefined],
    ["a comment right after a flow list", "a: [x]#c\n", undefined],
    ["a comment inside a one-line flow list", "a: [x #c]\n", undefined],
    ["a comment line indented into a block scalar", "a: |\n    x\n  # c\n", undefined],
    ["a tab before a nested key", "a:\n\tb: 1\n", undefined],
    ["a line of only spaces", "a:\n  b: 1\n   \n", undefined],
    ["only comments", "# nothing\n", undefined],
  ];
  for (const [name, block, data] of cases) {
    test(name, () => {
      const r = parseSimpleYaml(block);
      if (data === undefined) assert.equal(r, undefined);
      else assert.deepStrictEqual(r, { ok: true, data });
    });
  }

  test("`key: a: b` at the top: the error yaml gives, comment lines counted", () => {
    assert.deepStrictEqual(parseSimpleYaml("# c\nx:\n  y: 1\na: b: c\n"), {
      ok: false,
      error: "Nested mappings are not allowed in compact mappings at line 4, column 4",
    });
  });
});

/** `depth` more levels of nested block mappings, two spaces each, under a key at column 0. */
function nest(depth: number): string {
  return Array.from({ length: depth }, (_, k) => `${"  ".repeat(k + 1)}k${k}:`).join("\n") +
    `\n${"  ".repeat(depth + 1)}leaf: 1\n`;
}
