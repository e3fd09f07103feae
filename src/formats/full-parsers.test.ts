// Unit tests for on-demand parsers: a simple file never loads the full YAML
// parser, a complex one asks for it, and withParsers loads it and re-runs.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  forgetParsers,
  loadParsers,
  ParserNotLoaded,
  tomlParse,
  withParsers,
  yamlParse,
} from "./full-parsers.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { codexToFields } from "../discovery/codex.ts";
import { parseConfigText } from "../config/load.ts";

describe("parsers on demand", () => {
  after(loadParsers);

  test("before loading, asking for a parser throws ParserNotLoaded naming it", () => {
    forgetParsers();
    assert.throws(yamlParse, (e: unknown) => e instanceof ParserNotLoaded && e.which === "yaml");
    assert.throws(tomlParse, (e: unknown) => e instanceof ParserNotLoaded && e.which === "toml");
  });

  test("simple frontmatter is read without the YAML parser", () => {
    forgetParsers();
    const fm = parseFrontmatter("---\nname: a\ntools: [read, grep]\n---\nBody", {
      file: "a.md",
      level: "warn",
    });
    assert.deepEqual(fm.data, { name: "a", tools: ["read", "grep"] });
    assert.throws(yamlParse, ParserNotLoaded, "still not loaded");
  });

  test("frontmatter beyond the fast path asks for it; withParsers loads it and parses again", async () => {
    forgetParsers();
    const text = "---\nname: a\nbase: &b [x]\nalso: *b\n---\nBody";
    assert.throws(() => parseFrontmatter(text, { file: "a.md", level: "warn" }), ParserNotLoaded);
    const fm = await withParsers(() => parseFrontmatter(text, { file: "a.md", level: "warn" }));
    assert.deepEqual(fm.data, { name: "a", base: ["x"], also: ["x"] });
    assert.equal(fm.status, "ok");
  });

  test("a Codex file loads the TOML parser", async () => {
    forgetParsers();
    // A table: more than the simple reader of simple-toml.ts takes.
    const text = 'name = "c"\ndescription = "d"\ndeveloper_instructions = "Go."\n[notes]\nx = 1';
    assert.throws(() => codexToFields(text), ParserNotLoaded);
    const r = await withParsers(() => codexToFields(text));
    // Keys the mapping does not read pass through, for the field catalogue to name.
    assert.deepEqual(JSON.parse(JSON.stringify(r)), {
      ok: true,
      fields: { name: "c", description: "d", notes: { x: 1 } },
      body: "Go.",
    });
  });

  test("a simple Codex file is read without the TOML parser", () => {
    forgetParsers();
    const text = 'name = "c"\ndescription = "d"\ndeveloper_instructions = """\nGo."""\n';
    assert.deepEqual(codexToFields(text), {
      ok: true,
      fields: { name: "c", description: "d" },
      body: "Go.",
    });
  });

  test("invalid TOML is still a value, once the parser is there", async () => {
    forgetParsers();
    const r = await withParsers(() => codexToFields('name = "c'));
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^invalid TOML at line 1, column \d+: /);
  });

  test("a usual config file is read without the YAML parser (CRLF and a BOM too)", () => {
    forgetParsers();
    const text = "\ufeff# mine\r\nproviders:\r\n  local: { type: openai-compatible, " +
      'baseURL: "http://127.0.0.1:8080/v1" }\r\nmodels:\r\n  default: local/m   # fast\r\n' +
      "task:\r\n  maxConcurrency: 2\r\n  disabledAgents: [plan]\r\n";
    const r = parseConfigText(text, "c.yml");
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value, {
      providers: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" } },
      models: { default: "local/m" },
      task: { maxConcurrency: 2, disabledAgents: ["plan"] },
    });
    assert.throws(yamlParse, ParserNotLoaded, "yaml was not needed");
  });

  test("a config file's YAML error keeps its line and column", async () => {
    forgetParsers();
    const r = await withParsers(() => parseConfigText("task:\n  maxConcurrency: [1\n", "c.yml"));
    assert.equal(r.ok, false);
    assert.match(
      (r as { error: { message: string } }).error.message,
      /^not valid YAML \(line \d+, column \d+\): /,
    );
  });

  test("other errors pass through withParsers", async () => {
    await assert.rejects(
      withParsers(() => {
        throw new RangeError("boom");
      }),
      RangeError,
    );
  });
});
