// Each strict rule refuses what it names and lets the valid request pass.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { type StrictOptions, strictRefusal, StrictState, type WireFormat } from "./strict-rules.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const OLLAMA: StrictOptions = {
  ollama: {
    qwen3: { capabilities: ["completion", "tools", "thinking"] },
    "llama3.2": { capabilities: ["completion", "tools"] },
    gemma: { capabilities: ["completion"] },
  },
};

function refusal(
  format: WireFormat,
  body: Json,
  model = "",
  state = new StrictState(),
  opts = OLLAMA,
) {
  return strictRefusal(format, body, model, state, opts)?.message;
}

const claude = (extra: Json = {}) => ({
  model: "claude-opus-4-1",
  max_tokens: 20000,
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

describe("Anthropic", () => {
  test("a valid request passes", () => assert.equal(refusal("anthropic", claude()), undefined));
  test("unknown fields", () => {
    assert.equal(
      refusal("anthropic", claude({ reasoning: {} })),
      "reasoning: Extra inputs are not permitted",
    );
  });
  test("max_tokens within the model's limit", () => {
    assert.match(
      refusal("anthropic", claude({ max_tokens: 48000 }))!,
      /48000 > 32000, which is the maximum/,
    );
  });
  test("budget_tokens below max_tokens, and at least 1024", () => {
    const at = (budget: number) =>
      refusal("anthropic", claude({ thinking: { type: "enabled", budget_tokens: budget } }));
    assert.match(at(20000)!, /`max_tokens` must be greater than `thinking.budget_tokens`/);
    assert.match(at(512)!, /greater than or equal to 1024/);
    assert.equal(at(16000), undefined);
  });
  test("no forced tool_choice while thinking", () => {
    const body = (thinking: Json) =>
      claude({
        model: "claude-haiku-5-5",
        thinking,
        tool_choice: { type: "tool", name: "submit_result" },
      });
    assert.equal(
      refusal("anthropic", body({ type: "adaptive" })),
      "Thinking may not be enabled when tool_choice forces tool use.",
    );
    assert.equal(refusal("anthropic", body({ type: "disabled" })), undefined);
  });
  test("effort values and models", () => {
    assert.match(
      refusal("anthropic", claude({ output_config: { effort: "low" } }))!,
      /does not support the effort/,
    );
    assert.match(
      refusal(
        "anthropic",
        claude({ model: "claude-sonnet-4-6", output_config: { effort: "xhigh" } }),
      )!,
      /output_config.effort: Input should be/,
    );
    assert.equal(
      refusal(
        "anthropic",
        claude({ model: "claude-opus-4-7", output_config: { effort: "xhigh" } }),
      ),
      undefined,
    );
    assert.match(
      refusal("anthropic", claude({ thinking: { type: "adaptive" } }))!,
      /adaptive thinking is not supported/,
    );
  });
  test("at most four cache breakpoints", () => {
    const mark = { cache_control: { type: "ephemeral" } };
    const content = [1, 2, 3, 4, 5].map((n) => ({ type: "text", text: String(n), ...mark }));
    assert.match(
      refusal("anthropic", claude({ messages: [{ role: "user", content }] }))!,
      /A maximum of 4 blocks with cache_control may be provided. Found 5./,
    );
    assert.equal(
      refusal("anthropic", claude({ messages: [{ role: "user", content: content.slice(1) }] })),
      undefined,
    );
  });
  test("thinking blocks come back with the signature they were issued", () => {
    const state = new StrictState();
    const sig = state.token("s");
    state.thinking.set(sig, "deep thought");
    const back = (thinking: string, signature: string) =>
      claude({
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: [{ type: "thinking", thinking, signature }] },
          { role: "user", content: "more" },
        ],
      });
    assert.equal(refusal("anthropic", back("deep thought", sig), "", state), undefined);
    assert.equal(
      refusal("anthropic", back("deep thought!", sig), "", state),
      "messages.1.content.0: Invalid `signature` in `thinking` block",
    );
    assert.match(
      refusal("anthropic", back("deep thought", "mock-signature"), "", state)!,
      /Invalid `signature`/,
    );
  });
});

const responses = (extra: Json = {}) => ({
  model: "gpt-5.4-mini",
  input: [],
  store: false,
  ...extra,
});

describe("OpenAI Responses", () => {
  test("a valid request passes", () =>
    assert.equal(refusal("responses", responses({ reasoning: { effort: "low" } })), undefined));
  test("unknown fields", () =>
    assert.equal(
      refusal("responses", responses({ thinking: 1 })),
      "Unknown parameter: 'thinking'.",
    ));
  test("efforts per model", () => {
    assert.equal(
      refusal("responses", responses({ reasoning: { effort: "minimal" } })),
      "Unsupported value: 'minimal' is not supported with the 'gpt-5.4-mini' model. " +
        "Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'.",
    );
    assert.equal(
      refusal("responses", responses({ model: "gpt-5", reasoning: { effort: "minimal" } })),
      undefined,
    );
    assert.match(
      refusal("responses", responses({ model: "gpt-4o", reasoning: { effort: "low" } }))!,
      /not supported with this model/,
    );
    assert.match(
      refusal("responses", responses({ model: "gpt-5-test", reasoning: { effort: "extreme" } }))!,
      /Invalid value/,
    );
  });
  test("text.verbosity: low, medium or high; only medium outside the GPT-5 models", () => {
    const text = (model: string, verbosity: unknown) =>
      refusal("responses", responses({ model, text: { verbosity } }));
    for (
      const model of ["gpt-5", "gpt-5-mini", "gpt-5-pro", "gpt-5.1-chat-latest", "gpt-5.3-codex"]
    ) {
      for (const v of ["low", "medium", "high"]) assert.equal(text(model, v), undefined, model);
    }
    assert.equal(
      text("gpt-4.1", "low"),
      "Unsupported value: 'low' is not supported with the 'gpt-4.1' model. " +
        "Supported values are: 'medium'.",
    );
    for (const model of ["gpt-5-chat-latest", "gpt-5.1-codex-mini", "o3", "gpt-4o"]) {
      assert.match(text(model, "high")!, /Supported values are: 'medium'\.$/, model);
      assert.equal(text(model, "medium"), undefined, model);
    }
    assert.equal(
      text("gpt-5", "loud"),
      "Invalid value: 'loud'. Supported values are: 'low', 'medium', and 'high'.",
    );
    const full = strictRefusal(
      "responses",
      responses({ model: "gpt-4.1", text: { verbosity: "low" } }),
      "",
      new StrictState(),
      {},
    );
    assert.equal(full?.status, 400);
    assert.equal(full?.param, "text.verbosity");
  });
  test("summaries need a verified organisation", () => {
    const body = responses({ reasoning: { effort: "low", summary: "detailed" } });
    assert.match(refusal("responses", body)!, /must be verified to generate reasoning summaries/);
    assert.equal(
      refusal("responses", body, "", new StrictState(), { verifiedOrganization: true }),
      undefined,
    );
  });
  test("prompt_cache_key at most 64 characters", () => {
    assert.match(
      refusal("responses", responses({ prompt_cache_key: "k".repeat(65) }))!,
      /length 65 instead/,
    );
    assert.equal(refusal("responses", responses({ prompt_cache_key: "k".repeat(64) })), undefined);
  });
  test("strict function schemas", () => {
    const tool = (parameters: Json) => ({ type: "function", name: "f", strict: true, parameters });
    const loose = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    assert.match(
      refusal("responses", responses({ tools: [tool(loose)] }))!,
      /'additionalProperties' is required/,
    );
    assert.match(
      refusal(
        "responses",
        responses({ tools: [tool({ ...loose, required: [], additionalProperties: false })] }),
      )!,
      /Missing 'a'/,
    );
    assert.equal(
      refusal("responses", responses({ tools: [tool({ ...loose, additionalProperties: false })] })),
      undefined,
    );
  });
  test("encrypted reasoning comes back unchanged", () => {
    const state = new StrictState();
    state.encrypted.set("rs_1", "ENC");
    const item = (extra: Json) =>
      responses({
        input: [
          { type: "reasoning", id: "rs_1", summary: [], ...extra },
          // A reasoning item is followed by the item it led to.
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
        ],
      });
    assert.equal(refusal("responses", item({ encrypted_content: "ENC" }), "", state), undefined);
    assert.match(
      refusal("responses", item({ encrypted_content: "ENX" }), "", state)!,
      /could not be verified/,
    );
    assert.match(
      refusal("responses", item({}), "", state)!,
      /Items are not persisted when `store` is set to false/,
    );
  });
});

describe("Chat Completions and Ollama", () => {
  const chat = (extra: Json = {}) => ({
    model: "mock",
    messages: [{ role: "user", content: "hi" }],
    ...extra,
  });
  test("unknown fields", () => {
    assert.equal(
      refusal("openai", chat({ reasoning: {} })),
      "Unrecognized request argument supplied: reasoning",
    );
  });
  test("reasoning_effort values", () => {
    assert.match(refusal("openai", chat({ reasoning_effort: "max" }))!, /Invalid value: 'max'/);
    assert.equal(refusal("openai", chat({ reasoning_effort: "minimal" })), undefined);
  });
  test("Ollama's values and models that cannot think", () => {
    assert.equal(
      refusal("openai", chat({ model: "qwen3", reasoning_effort: "minimal" })),
      `invalid reasoning value: 'minimal' (must be "high", "medium", "low", or "none")`,
    );
    assert.equal(refusal("openai", chat({ model: "qwen3", reasoning_effort: "low" })), undefined);
    assert.equal(
      refusal("openai", chat({ model: "llama3.2", reasoning_effort: "high" })),
      `"llama3.2" does not support thinking`,
    );
    assert.equal(refusal("openai", chat({ model: "llama3.2" })), undefined);
    assert.match(
      refusal("openai", chat({ model: "gemma", tools: [{ type: "function" }] }))!,
      /does not support tools/,
    );
  });
});

describe("Gemini", () => {
  const gem = (extra: Json = {}) => ({
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    ...extra,
  });
  const level = (l: string) => gem({ generationConfig: { thinkingConfig: { thinkingLevel: l } } });
  test("unknown fields, at the top and in generationConfig", () => {
    assert.match(
      refusal("google", gem({ stream: true }))!,
      /Unknown name "stream": Cannot find field/,
    );
    assert.match(
      refusal("google", gem({ generationConfig: { reasoning: 1 } }))!,
      /at 'generation_config'/,
    );
  });
  test("thinking levels per model", () => {
    assert.equal(
      refusal("google", level("medium"), "gemini-3-pro-preview"),
      "Thinking level MEDIUM is not supported for this model.",
    );
    assert.equal(refusal("google", level("medium"), "gemini-3.1-pro-preview"), undefined);
    assert.equal(refusal("google", level("minimal"), "gemini-3-flash-preview"), undefined);
    assert.match(
      refusal("google", level("low"), "gemini-2.5-flash")!,
      /not supported for this model/,
    );
  });
  test("budgets: one of budget and level; 2.5 Pro cannot turn thinking off", () => {
    const both = gem({
      generationConfig: { thinkingConfig: { thinkingLevel: "low", thinkingBudget: 10 } },
    });
    assert.match(
      refusal("google", both, "gemini-3-pro-preview")!,
      /only one of thinking budget and thinking level/,
    );
    const off = gem({ generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
    assert.match(refusal("google", off, "gemini-2.5-pro")!, /Budget 0 is invalid/);
    assert.equal(refusal("google", off, "gemini-2.5-flash"), undefined);
  });
  test("the schema subset of parameters", () => {
    const decl = (parameters: Json) =>
      gem({ tools: [{ functionDeclarations: [{ name: "f", parameters }] }] });
    assert.match(
      refusal(
        "google",
        decl({ type: "object", properties: { a: { type: "string", const: "x" } } }),
        "gemini-3-pro-preview",
      )!,
      /Unknown name "const"/,
    );
    assert.equal(
      refusal(
        "google",
        decl({ type: "object", properties: { a: { type: "string" } } }),
        "gemini-3-pro-preview",
      ),
      undefined,
    );
  });
  test("thought signatures come back unchanged on Gemini 3 function calls", () => {
    const state = new StrictState();
    state.thoughts.add("SIG");
    const back = (part: Json) =>
      gem({
        contents: [
          { role: "user", parts: [{ text: "hi" }] },
          { role: "model", parts: [part, { functionCall: { name: "ls", args: {} } }] },
          { role: "user", parts: [{ functionResponse: { name: "ls", response: {} } }] },
        ],
      });
    const call = { functionCall: { name: "read", args: {} } };
    assert.equal(
      refusal("google", back({ ...call, thoughtSignature: "SIG" }), "gemini-3-pro-preview", state),
      undefined,
    );
    assert.match(
      refusal("google", back(call), "gemini-3-pro-preview", state)!,
      /missing a thought_signature/,
    );
    assert.equal(
      refusal("google", back({ ...call, thoughtSignature: "SIX" }), "gemini-3-pro-preview", state),
      "Corrupted thought signature.",
    );
    assert.equal(refusal("google", back(call), "gemini-2.5-flash", state), undefined);
  });
});

describe("mistyped fields", () => {
  test("Anthropic", () => {
    const body = { model: "claude-opus-4-1", max_tokens: 100, messages: [] };
    assert.equal(
      refusal("anthropic", { ...body, max_tokens: "10" }),
      "max_tokens: Input should be a valid integer",
    );
    assert.match(
      refusal("anthropic", { ...body, tool_choice: { type: "force" } })!,
      /Input tag does not match/,
    );
    assert.equal(refusal("anthropic", { model: "m", messages: [] }), "max_tokens: Field required");
  });
  test("OpenAI Responses", () => {
    const body = { model: "gpt-5.5", input: [] };
    assert.equal(
      refusal("responses", { ...body, max_output_tokens: "1" }),
      "Invalid type for 'max_output_tokens': expected an integer, but got a string instead.",
    );
    assert.match(
      refusal("responses", { ...body, max_output_tokens: 8 })!,
      /Expected a value >= 16/,
    );
    assert.match(refusal("responses", { ...body, store: "no" })!, /expected a boolean/);
  });
  test("Chat Completions", () => {
    assert.match(
      refusal("openai", { model: "m", messages: [], max_tokens: 1.5 })!,
      /Invalid type for 'max_tokens': expected an integer, but got a number/,
    );
    assert.match(refusal("openai", { model: "m" })!, /'messages'/);
  });
  test("Gemini", () => {
    assert.match(
      refusal(
        "google",
        { contents: [], generationConfig: { maxOutputTokens: "9" } },
        "gemini-3-pro-preview",
      )!,
      /Invalid value at 'generation_config.max_output_tokens' \(TYPE_INT32\)/,
    );
  });
});

describe("tool calls, text and thinking across providers", () => {
  const gem = (extra: Json = {}) => ({
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    ...extra,
  });
  const use = (id: string) => ({ type: "tool_use", id, name: "read", input: {} });
  const result = (id: string, extra: Json = {}) => ({
    type: "tool_result",
    tool_use_id: id,
    content: "ok",
    ...extra,
  });
  const loop = (assistant: Json[], user: Json[], extra: Json = {}) =>
    claude({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: assistant },
        { role: "user", content: user },
      ],
      ...extra,
    });

  test("Anthropic tool ids match ^[a-zA-Z0-9_-]+$", () => {
    assert.equal(refusal("anthropic", loop([use("toolu_1")], [result("toolu_1")])), undefined);
    assert.equal(
      refusal("anthropic", loop([use("functions.read:20")], [result("toolu_1")])),
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    );
    assert.match(
      refusal("anthropic", loop([use("a")], [result("functions.read:20")]))!,
      /messages\.2\.content\.0\.tool_result\.tool_use_id: String should match/,
    );
  });

  test("Anthropic text blocks hold non-whitespace text, in messages and system", () => {
    const text = (t: string) => ({ type: "text", text: t });
    assert.equal(
      refusal("anthropic", loop([text("\n\n"), use("a")], [result("a")])),
      "messages: text content blocks must contain non-whitespace text",
    );
    assert.equal(
      refusal("anthropic", loop([text(""), use("a")], [result("a")])),
      "messages: text content blocks must be non-empty",
    );
    assert.equal(
      refusal("anthropic", claude({ system: [text(" ")] })),
      "system: text content blocks must contain non-whitespace text",
    );
    assert.equal(refusal("anthropic", claude({ system: [text("Be brief.")] })), undefined);
  });

  test("Anthropic tool_result blocks come first; an is_error result has content", () => {
    const text = { type: "text", text: "go on" };
    assert.equal(refusal("anthropic", loop([use("a")], [result("a"), text])), undefined);
    assert.match(
      refusal("anthropic", loop([use("a")], [text, result("a")]))!,
      /messages\.2\.content\.1: tool_result blocks must come first/,
    );
    assert.match(
      refusal("anthropic", loop([use("a")], [result("a", { is_error: true, content: "" })]))!,
      /content cannot be empty if `is_error` is true/,
    );
  });

  test("Anthropic sampling with thinking", () => {
    const thinking = { type: "enabled", budget_tokens: 2048 };
    assert.match(
      refusal("anthropic", claude({ thinking, temperature: 0.2 }))!,
      /`temperature` may only be set to 1/,
    );
    assert.match(refusal("anthropic", claude({ thinking, top_k: 5 }))!, /`top_k` is not supported/);
    assert.match(refusal("anthropic", claude({ thinking, top_p: 0.5 }))!, /`top_p` must be/);
    assert.equal(refusal("anthropic", claude({ temperature: 0.2, top_k: 5 })), undefined);
  });

  test("Anthropic budget thinking wants a leading thinking block in an open tool loop", () => {
    const thinking = { type: "enabled", budget_tokens: 2048 };
    assert.match(
      refusal("anthropic", loop([use("a")], [result("a")], { thinking }))!,
      /messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
    );
    // Closed by a plain user turn before the loop, or without thinking: fine.
    assert.equal(refusal("anthropic", loop([use("a")], [result("a")])), undefined);
    assert.equal(
      refusal(
        "anthropic",
        loop([use("a")], [result("a")], {
          model: "claude-opus-4-6",
          thinking: { type: "adaptive" },
        }),
      ),
      undefined,
    );
  });

  test("Anthropic tool names", () => {
    const tool = (name: string) => ({ name, input_schema: { type: "object" } });
    assert.match(refusal("anthropic", claude({ tools: [tool("a.b")] }))!, /tools\.0\.custom\.name/);
    assert.equal(refusal("anthropic", claude({ tools: [tool("read_file-2")] })), undefined);
  });

  test("OpenAI call_id at most 64 characters, item id prefixes, reasoning followed", () => {
    const long = "x".repeat(81);
    const call = (id: string, extra: Json = {}) => ({
      type: "function_call",
      call_id: id,
      name: "read",
      arguments: "{}",
      ...extra,
    });
    const out = (id: string) => ({ type: "function_call_output", call_id: id, output: "ok" });
    assert.equal(refusal("responses", responses({ input: [call("c1"), out("c1")] })), undefined);
    assert.match(
      refusal("responses", responses({ input: [call(long), out(long)] }))!,
      /Invalid 'input\[0\]\.call_id': string too long\. Expected a string with maximum length 64, but got a string with length 81/,
    );
    assert.match(
      refusal("responses", responses({ input: [call("c1", { id: "x_1" }), out("c1")] }))!,
      /Expected an ID that begins with 'fc'/,
    );
    assert.match(
      refusal(
        "responses",
        responses({ store: true, input: [{ type: "reasoning", id: "rs_1", summary: [] }] }),
      )!,
      /of type 'reasoning' was provided without its required following item/,
    );
    const chatLong = {
      model: "mock",
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          tool_calls: [{ id: long, type: "function", function: { name: "r", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: long, content: "ok" },
      ],
    };
    assert.match(
      refusal("openai", chatLong)!,
      /messages\[1\]\.tool_calls\[0\]\.id': string too long/,
    );
  });

  test("OpenAI reasoning models refuse temperature and top_p; tool names", () => {
    assert.match(
      refusal("responses", responses({ temperature: 0.2 }))!,
      /'temperature' is not supported with this model/,
    );
    assert.equal(
      refusal("responses", responses({ model: "gpt-4.1", temperature: 0.2 })),
      undefined,
    );
    const fn = (name: string) => ({ type: "function", name, parameters: { type: "object" } });
    assert.match(
      refusal("responses", responses({ tools: [fn("mcp.server/read")] }))!,
      /Invalid 'tools\[0\]\.name': string does not match pattern/,
    );
    assert.match(
      refusal("openai", {
        model: "mock",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "x".repeat(65) } }],
      })!,
      /Invalid 'tools\[0\]\.name'/,
    );
  });

  test("Gemini function declarations and calling config", () => {
    const decl = (d: Json) => gem({ tools: [{ functionDeclarations: [d] }] });
    assert.match(refusal("google", decl({ name: "1read" }))!, /Invalid function name/);
    assert.equal(refusal("google", decl({ name: "mcp.server:read-2" })), undefined);
    assert.match(
      refusal("google", decl({ name: "r", parameters: {}, parametersJsonSchema: {} }))!,
      /mutually exclusive/,
    );
    const schema = { type: "object", properties: { a: { $ref: "#/$defs/A" } } };
    assert.match(
      refusal("google", decl({ name: "r", parametersJsonSchema: schema }))!,
      /\$ref '#\/\$defs\/A' does not resolve/,
    );
    assert.equal(
      refusal("google", decl({ name: "r", parametersJsonSchema: { ...schema, $defs: { A: {} } } })),
      undefined,
    );
    assert.match(
      refusal(
        "google",
        gem({
          toolConfig: { functionCallingConfig: { mode: "AUTO", allowedFunctionNames: ["r"] } },
        }),
      )!,
      /allowed_function_names can only be set when mode is ANY/,
    );
  });

  test("Gemini thinkingBudget ranges per model", () => {
    const budget = (b: number) =>
      gem({ generationConfig: { thinkingConfig: { thinkingBudget: b } } });
    assert.match(refusal("google", budget(64), "gemini-2.5-pro")!, /between 128 and 32768/);
    assert.equal(refusal("google", budget(128), "gemini-2.5-pro"), undefined);
    assert.match(refusal("google", budget(30000), "gemini-2.5-flash")!, /between 1 and 24576/);
    assert.match(refusal("google", budget(100), "gemini-2.5-flash-lite")!, /between 512/);
    assert.equal(refusal("google", budget(-1), "gemini-2.5-pro"), undefined);
  });

  test("Gemini checks thought signatures in the current turn only", () => {
    const call = { functionCall: { name: "read", args: {} } };
    const answer = { role: "user", parts: [{ functionResponse: { name: "read", response: {} } }] };
    const past = gem({
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [call] },
        answer,
        { role: "model", parts: [{ text: "done" }] },
        { role: "user", parts: [{ text: "next" }] },
      ],
    });
    assert.equal(refusal("google", past, "gemini-3-pro-preview"), undefined);
    const current = gem({
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [call] },
        answer,
      ],
    });
    assert.match(
      refusal("google", current, "gemini-3-pro-preview")!,
      /missing a thought_signature/,
    );
    const dummy = gem({
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        {
          role: "model",
          parts: [{ ...call, thoughtSignature: "skip_thought_signature_validator" }],
        },
        answer,
      ],
    });
    assert.equal(refusal("google", dummy, "gemini-3-pro-preview"), undefined);
  });
});

describe("OpenAI strict schemas: keywords and sizes", () => {
  const tool = (parameters: Json) =>
    responses({ tools: [{ type: "function", name: "f", strict: true, parameters }] });
  const obj = (properties: Json) => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });
  const nested = (levels: number): Json =>
    levels === 0 ? { type: "string" } : obj({ a: nested(levels - 1) });
  test("refused keywords", () => {
    assert.match(
      refusal("responses", tool(obj({ a: { allOf: [{ type: "string" }] } })))!,
      /'allOf' is not permitted/,
    );
  });
  test("nesting depth and enum size", () => {
    assert.equal(refusal("responses", tool(nested(10))), undefined);
    assert.match(refusal("responses", tool(nested(11)))!, /11 levels of nesting; at most 10/);
    const many = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    assert.match(
      refusal("responses", tool(obj({ e: { type: "string", enum: many } })))!,
      /1001 enum values/,
    );
  });
});
