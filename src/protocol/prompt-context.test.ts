// The envelope's promptContext: its checks, and how it reads in the prompt.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope } from "./envelope.ts";
import { planReaders } from "../child/plan-readers.ts";
import { planText } from "../../tests/support/plan.ts";
import { buildSystemPrompt } from "../child/prompt.ts";
import {
  formatEnvironment,
  formatInstructions,
  parsePromptContext,
  type PromptContext,
} from "./prompt-context.ts";

const ctx: PromptContext = {
  version: 1,
  files: [
    { path: "/h/.claude/CLAUDE.md", scope: "user", text: "Answer in French." },
    { path: "/r/AGENTS.md", scope: "project", text: "Use tabs.\n" },
  ],
  environment: {
    date: "2026-12-01",
    os: "Linux 6.1",
    shell: "zsh",
    cwd: "/r",
    gitBranch: "main",
    gitStatus: " M a.ts",
  },
};

const envelope = (promptContext: unknown) =>
  JSON.stringify({
    ...JSON.parse(planText({ id: "t", assignment: "go", cwd: "/r", model: "local/m" })),
    promptContext,
  });

describe("parsePromptContext", () => {
  test("a good value comes back as it was", () => {
    assert.deepEqual(parsePromptContext(structuredClone(ctx)), ctx);
  });
  test("absent stays absent", () => assert.equal(parsePromptContext(undefined), undefined));
  const bad: [string, unknown, RegExp][] = [
    ["not an object", "x", /'promptContext' must be an object/],
    ["another version", { ...ctx, version: 2 }, /'promptContext\.version' must be 1, got 2/],
    ["files not a list", { ...ctx, files: {} }, /'promptContext\.files' must be a list/],
    [
      "a file without text",
      { ...ctx, files: [{ path: "/a", scope: "user" }] },
      /'promptContext\.files\[0\]\.text' must be a string/,
    ],
    [
      "a file with an unknown scope",
      { ...ctx, files: [{ path: "/a", scope: "team", text: "" }] },
      /'promptContext\.files\[0\]\.scope' must be "user" or "project"/,
    ],
    [
      "no environment",
      { ...ctx, environment: undefined },
      /'promptContext\.environment' must be an object/,
    ],
    [
      "a date that is not a string",
      { ...ctx, environment: { ...ctx.environment, date: 1 } },
      /'promptContext\.environment\.date' must be a string/,
    ],
  ];
  for (const [name, value, message] of bad) {
    test(`the envelope names the field: ${name}`, () => {
      const r = parseEnvelope(envelope(value), planReaders);
      assert.equal(r.ok, false);
      assert.match(r.ok ? "" : r.error, /^invalid envelope: /);
      assert.match(r.ok ? "" : r.error, message);
    });
  }
});

describe("the prompt", () => {
  test("instruction files in the order given, each under its path and scope", () => {
    const text = formatInstructions(ctx.files);
    const user = text.indexOf("### /h/.claude/CLAUDE.md (user)\n\nAnswer in French.");
    const project = text.indexOf("### /r/AGENTS.md (project)\n\nUse tabs.");
    assert.ok(user > 0 && project > user, text);
  });
  test("the cap's note is shown; no files and no note, no section", () => {
    assert.match(formatInstructions([], "x was cut"), /\(x was cut\)/);
    assert.equal(formatInstructions([]), "");
  });
  test("the environment block: date, OS, shell, cwd, git", () => {
    const text = formatEnvironment(ctx.environment);
    for (
      const line of [
        "Date: 2026-12-01",
        "OS: Linux 6.1",
        "Shell: zsh",
        "Working directory: /r.",
        "Git branch: main",
        " M a.ts",
      ]
    ) assert.ok(text.includes(line), line);
    const { gitBranch: _b, gitStatus: _s, ...noGit } = ctx.environment;
    assert.match(formatEnvironment(noGit), /Git: not a git repository/);
  });
  test("order: agent prompt, instructions, caller context, environment, finishing", () => {
    const text = buildSystemPrompt({
      agentPrompt: "You are a.",
      context: "caller says",
      planMode: false,
      cwd: "/r",
      promptContext: ctx,
    });
    const at = (s: string) => text.indexOf(s);
    assert.ok(at("You are a.") === 0);
    assert.ok(at("## Instructions from the user") < at("## Context from the caller"));
    assert.ok(at("## Context from the caller") < at("## Environment"));
    assert.ok(at("## Environment") < at("## Finishing"));
    assert.equal(text.split("## Environment").length, 2, "one environment block");
  });
});
