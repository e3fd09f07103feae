import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { remotePlan } from "./remote-plan.ts";
import { trustNeeds } from "./agent-trust.ts";
import type { AgentDefinition } from "../types.ts";

const agent = (source: AgentDefinition["source"], extra: Partial<AgentDefinition> = {}) =>
  ({
    name: "peer",
    description: "d",
    systemPrompt: "",
    source,
    family: "gemini",
    filePath: "/p/.gemini/agents/peer.md",
    remote: { cardUrl: "https://x/card", auth: { type: "apiKey", key: "$K" } },
    ...extra,
  }) as AgentDefinition;

describe("remotePlan", () => {
  test("a local agent has no target", () => {
    assert.deepEqual(
      remotePlan(agent("user", { remote: undefined }), { env: {}, trusted: () => false }),
      {
        ok: true,
        secrets: [],
      },
    );
  });

  test("the user's remote agent: its card and the headers from the environment", () => {
    assert.deepEqual(remotePlan(agent("user"), { env: { K: "v" }, trusted: () => false }), {
      ok: true,
      target: { cardUrl: "https://x/card", headers: { "X-API-Key": "v" } },
      secrets: ["v"],
    });
  });

  test("a project's remote agent is refused until trusted, then runs", () => {
    let asked = 0;
    const refused = remotePlan(agent("project"), {
      env: { K: "v" },
      trusted: () => (asked++, false),
    });
    assert.equal(asked, 1);
    assert.equal(refused.ok, false);
    assert.match(
      refused.ok ? "" : refused.message,
      /^Cannot run 'peer': it is a remote \(A2A\) agent of this project \(\/p\/\.gemini\/agents\/peer\.md\).*'xcsh trust'/,
    );
    assert.equal(remotePlan(agent("project"), { env: { K: "v" }, trusted: () => true }).ok, true);
  });

  test("xcsh trust records a project's remote agent file", () => {
    assert.ok(trustNeeds(agent("project")).includes("kind: remote"));
  });
});
