import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { factsFromShow, ollamaRoot, windowFromShow } from "./ollama-show.ts";

describe("factsFromShow", () => {
  test("a model that can think and call tools", () => {
    assert.deepEqual(factsFromShow({ capabilities: ["completion", "tools", "thinking"] }), {
      thinking: true,
      tools: true,
    });
  });
  test("a model that cannot think", () => {
    assert.deepEqual(factsFromShow({ capabilities: ["completion", "tools"] }), {
      thinking: false,
      tools: true,
    });
  });
  test("an answer without capabilities tells nothing", () => {
    assert.equal(factsFromShow({ modelfile: "x" }), undefined);
    assert.equal(factsFromShow(null), undefined);
    assert.equal(factsFromShow({ capabilities: [1] }), undefined);
  });
});

describe("ollamaRoot", () => {
  test("drops the /v1 of the OpenAI-compatible base URL", () => {
    assert.equal(ollamaRoot("http://127.0.0.1:11434/v1"), "http://127.0.0.1:11434");
    assert.equal(ollamaRoot("http://127.0.0.1:11434/v1/"), "http://127.0.0.1:11434");
    assert.equal(ollamaRoot("http://h:1/ollama"), "http://h:1/ollama");
  });
});

describe("windowFromShow", () => {
  test("reads model_info.<family>.context_length, with the capabilities", () => {
    const body = {
      capabilities: ["completion", "tools"],
      model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40960 },
    };
    assert.equal(windowFromShow(body), 40960);
    assert.deepEqual(factsFromShow(body), { thinking: false, tools: true, contextWindow: 40960 });
    assert.equal(windowFromShow({ model_info: { "qwen3.context_length": "big" } }), undefined);
    assert.equal(windowFromShow({}), undefined);
  });
});
