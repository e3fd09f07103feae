// Unit tests for on-demand parsers: a simple file never loads the full YAML
// parser, a complex one asks for it with a value, and parseOnDemand loads it
// and parses again.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  forgetParsers,
  isNeedsParser,
  loadParsers,
  type NeedsParser,
  parsedNow,
  parseOnDemand,
  tomlParser,
  yamlParser,
} from "./full-parsers.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { codexToFields } from "../discovery/codex.ts";
import { parseConfigText } from "../config/load.ts";

describe("parsers on demand", () => {
  after(loadParsers);

  /** Whether `v` asks for the parser `which`. */
  const asksFor = (v: unknown, which: NeedsParser["needsParser"]) =>
    isNeedsParser(v) && v.needsParser === which;

  test("before loading, asking for a parser gives a NeedsParser naming it", () => {
    forgetParsers();
    assert.ok(asksFor(yamlParser(), "yaml"));
    assert.ok(asksFor(tomlParser(), "toml"));
  });

  test("parsed data with a needsParser key is data, not a request", async () => {
    await loadParsers();
    const doc = parsedNow(yamlParser())("needsParser: yaml\n");
    assert.ok(!isNeedsParser(doc));
    assert.deepEqual(await parseOnDemand(() => doc), { needsParser: "yaml" });
  });

  test("simple frontmatter is read without the YAML parser", () => {
    forgetParsers();
    const fm = parseFrontmatter("---\nname: a\ntools: [read, grep]\n---\nBody", {
      file: "a.md",
      level: "warn",
    });
    assert.deepEqual(parsedNow(fm).data, { name: "a", tools: ["read", "grep"] });
    assert.ok(asksFor(yamlParser(), "yaml"), "still not loaded");
  });

  test("frontmatter beyond the fast path asks for it; parseOnDemand loads it and parses again", async () => {
    forgetParsers();
    const text = "---\nname: a\nbase: &b [x]\nalso: *b\n---\nBody";
    assert.ok(asksFor(parseFrontmatter(text, { file: "a.md", level: "warn" }), "yaml"));
    const fm = await parseOnDemand(() => parseFrontmatter(text, { file: "a.md", level: "warn" }));
    assert.deepEqual(fm.data, { name: "a", base: ["x"], also: ["x"] });
    assert.equal(fm.status, "ok");
  });

  test("a Codex file loads the TOML parser", async () => {
    forgetParsers();
    // A table: more than the simple reader of simple-toml.ts takes.
    const text = 'name = "c"\ndescription = "d"\ndeveloper_instructions = "Go."\n[notes]\nx = 1';
    assert.ok(asksFor(codexToFields(text), "toml"));
    const r = await parseOnDemand(() => codexToFields(text));
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
    const r = await parseOnDemand(() => codexToFields('name = "c'));
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^invalid TOML at line 1, column \d+: /);
  });

  test("a usual config file is read without the YAML parser (CRLF and a BOM too)", () => {
    forgetParsers();
    const text = "\ufeff# mine\r\nproviders:\r\n  local: { type: openai-compatible, " +
      'baseURL: "http://127.0.0.1:8080/v1" }\r\nmodels:\r\n  default: local/m   # fast\r\n' +
      "task:\r\n  maxConcurrency: 2\r\n  disabledAgents: [plan]\r\n";
    const r = parsedNow(parseConfigText(text, "c.yml"));
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value, {
      providers: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" } },
      models: { default: "local/m" },
      task: { maxConcurrency: 2, disabledAgents: ["plan"] },
    });
    assert.ok(asksFor(yamlParser(), "yaml"), "yaml was not needed");
  });

  test("a config file's YAML error keeps its line and column", async () => {
    forgetParsers();
    const r = await parseOnDemand(() => parseConfigText("task:\n  maxConcurrency: [1\n", "c.yml"));
    assert.equal(r.ok, false);
    assert.match(
      (r as { error: { message: string } }).error.message,
      /^not valid YAML \(line \d+, column \d+\): /,
    );
  });

  test("errors of the parse pass through parseOnDemand", async () => {
    await assert.rejects(
      parseOnDemand(() => {
        throw new RangeError("boom");
      }),
      RangeError,
    );
  });

  test("a parse that asks again for a parser it was given is a bug, said once", async () => {
    forgetParsers();
    let calls = 0;
    const needsYaml = yamlParser();
    assert.ok(isNeedsParser(needsYaml));
    await assert.rejects(
      parseOnDemand(() => (calls++, needsYaml)),
      /asked for the yaml parser after it was loaded/,
    );
    assert.equal(calls, 2);
  });
});
