import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  fillPrompt,
  isPromptAt,
  lacksPrompt,
  packPrompt,
  type PromptParse,
  withPromptAt,
} from "./prompt-ref.ts";
import type { AgentDefinition } from "../types.ts";

function agent(systemPrompt: string): AgentDefinition {
  return {
    name: "a",
    description: "d",
    tools: ["read"],
    systemPrompt,
    source: "project",
    filePath: "/p/a.md",
    family: "claude",
  };
}

const text = "---\nname: a\ndescription: d\n---\n\nYou are a.\nRead first.\n\n";
const prompt = "You are a.\nRead first.";

function parse(systemPrompt: string): PromptParse {
  return { agent: agent(systemPrompt), warnings: [] };
}

describe("prompt references", () => {
  test("a Markdown body is found at the end of its file, left out, and put back in place", () => {
    const full = withPromptAt(parse(prompt), text);
    assert.deepEqual(full.promptAt, [text.indexOf(prompt), text.indexOf(prompt) + prompt.length]);
    const kept = packPrompt(full);
    assert.equal(kept.agent!.systemPrompt, "");
    assert.ok(lacksPrompt(kept));
    assert.equal(
      full.agent!.systemPrompt,
      prompt,
      "packing does not change the parse it was given",
    );
    const back = fillPrompt(kept, text)!;
    assert.deepEqual(back, full);
    assert.deepEqual(Object.keys(back.agent!), Object.keys(full.agent!), "same key order");
    assert.ok(!lacksPrompt(back));
  });

  test("packing is idempotent and survives JSON", () => {
    const kept = packPrompt(withPromptAt(parse(prompt), text));
    assert.equal(packPrompt(kept), kept);
    const stored = JSON.parse(JSON.stringify(kept));
    assert.ok(isPromptAt(stored.promptAt));
    assert.equal(fillPrompt(stored, text)!.agent!.systemPrompt, prompt);
  });

  test("a prompt that is not a slice of its file is kept whole", () => {
    // A TOML string with escapes: the parsed prompt is not in the text as is.
    const toml = 'name = "a"\ndeveloper_instructions = "Say \\"hi\\".\\nThen stop."\n';
    const r = withPromptAt(parse('Say "hi".\nThen stop.'), toml);
    assert.equal(r.promptAt, undefined);
    assert.equal(packPrompt(r), r);
    assert.equal(fillPrompt(r, toml), r);
  });

  test("an empty prompt and a file without an agent need no reference", () => {
    const empty = { agent: agent(""), warnings: [] };
    assert.equal(withPromptAt(empty, text), empty);
    const none = { warnings: [{ level: "warning" as const, message: "skipped: x" }] };
    assert.equal(withPromptAt(none, text), none);
    assert.ok(!lacksPrompt(empty));
  });

  test("the same prompt earlier in the file: the body's place is the one kept", () => {
    const twice = `---\nname: a\ndescription: "${prompt}"\n---\n${prompt}\n`;
    const r = withPromptAt(parse(prompt), twice);
    assert.equal(r.promptAt![0], twice.lastIndexOf(prompt));
  });

  test("text too short for the place kept gives no parse", () => {
    const kept = packPrompt(withPromptAt(parse(prompt), text));
    assert.equal(fillPrompt(kept, text.slice(0, 20)), undefined);
  });

  test("only a pair of ascending non-negative integers is a place", () => {
    assert.ok(isPromptAt(undefined));
    assert.ok(isPromptAt([0, 4]));
    for (const bad of [[], [1], [3, 3], [4, 2], [-1, 2], [0.5, 2], ["0", 2], [0, 2, 3], "0,2"]) {
      assert.ok(!isPromptAt(bad), JSON.stringify(bad));
    }
  });
});

describe("withPromptAt at the end of a file", () => {
  test("the prompt is found before any trailing character (all of the BMP)", () => {
    for (let c = 0; c < 0x10000; c++) {
      const body = `P${c}`;
      const t = `---\nname: a\n---\n${body}${String.fromCharCode(c)}`;
      const r = withPromptAt(parse(body), t);
      assert.deepEqual(
        r.promptAt,
        [t.length - 1 - body.length, t.length - 1],
        `U+${c.toString(16)}`,
      );
    }
  });
});
