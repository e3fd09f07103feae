import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { agentPath, routeOf, segmentName } from "./serve-route.ts";

describe("routeOf", () => {
  test("the index, a card and an endpoint", () => {
    assert.deepEqual(routeOf("GET", "/agents"), { kind: "index" });
    assert.deepEqual(routeOf("GET", "/agents/?x=1"), { kind: "index" });
    assert.deepEqual(routeOf("GET", "/agents/reviewer/.well-known/agent-card.json"), {
      kind: "card",
      name: "reviewer",
    });
    assert.deepEqual(routeOf("POST", "/agents/reviewer/"), { kind: "rpc", name: "reviewer" });
    assert.deepEqual(routeOf("POST", "/agents/reviewer"), { kind: "rpc", name: "reviewer" });
    assert.deepEqual(routeOf("POST", "/agents/my%20agent%3Av2/"), {
      kind: "rpc",
      name: "my agent:v2",
    });
  });

  test("the wrong method names the right one", () => {
    assert.deepEqual(routeOf("POST", "/agents"), { kind: "method", allow: "GET" });
    assert.deepEqual(routeOf("GET", "/agents/x/"), { kind: "method", allow: "POST" });
    assert.deepEqual(routeOf("PUT", "/agents/x/.well-known/agent-card.json"), {
      kind: "method",
      allow: "GET",
    });
  });

  test("other paths are no route; dot segments are not resolved", () => {
    for (
      const p of [
        "/",
        "/agent",
        "/.well-known/agent-card.json",
        "/agents/x/y",
        "/agents/x/.well-known/agent.json",
        "/agents/../etc/passwd",
        "/x/../agents",
        "agents",
      ]
    ) assert.deepEqual(routeOf("GET", p), { kind: "none" }, p);
  });

  test("a segment naming no agent is a bad name, never a lookup", () => {
    for (const seg of ["..%2F..%2Fetc", "%2e%2e", ".", "a%5Cb", "a%00b", "%E0%A4%A", "%0a"]) {
      assert.deepEqual(routeOf("POST", `/agents/${seg}/`), { kind: "bad-name", segment: seg });
    }
    assert.equal(segmentName(".."), undefined);
    assert.equal(segmentName("ok-name"), "ok-name");
  });

  test("agentPath encodes the name as one segment", () => {
    assert.equal(agentPath("a/b c"), "/agents/a%2Fb%20c/");
    assert.deepEqual(routeOf("POST", agentPath("plain")), { kind: "rpc", name: "plain" });
  });
});
