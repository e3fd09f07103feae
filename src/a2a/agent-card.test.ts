import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readAgentCard, spokenVersion } from "./agent-card.ts";

const v1 = (interfaces: unknown[], extra: Record<string, unknown> = {}) => ({
  name: "a",
  supportedInterfaces: interfaces,
  ...extra,
});

describe("readAgentCard", () => {
  test("a 1.0 card: its JSON-RPC interface of version 1.x wins over a 0.3 one", () => {
    const r = readAgentCard(
      v1([
        { url: "https://x/grpc", protocolBinding: "GRPC", protocolVersion: "1.0" },
        { url: "https://x/old", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
        { url: "https://x/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ], { capabilities: { streaming: true } }),
      "card",
    );
    assert.deepEqual(r, {
      ok: true,
      card: { name: "a", version: "1.0", url: "https://x/rpc", streaming: true },
    });
  });

  test("a 1.0 card whose only JSON-RPC interface is 0.3 is spoken as 0.3", () => {
    const r = readAgentCard(
      v1([{ url: "https://x/old", protocolBinding: "JSONRPC", protocolVersion: "0.3.0" }]),
      "card",
    );
    assert.ok(r.ok);
    assert.equal(r.card.version, "0.3");
  });

  test("a 0.3 card: its url, or the JSON-RPC one of additionalInterfaces", () => {
    const plain = readAgentCard({ name: "a", protocolVersion: "0.3.0", url: "https://x/a" }, "c");
    assert.deepEqual(plain, {
      ok: true,
      card: { name: "a", version: "0.3", url: "https://x/a", streaming: false },
    });
    const other = readAgentCard({
      name: "a",
      protocolVersion: "0.3.0",
      url: "https://x/rest",
      preferredTransport: "HTTP+JSON",
      additionalInterfaces: [{ url: "https://x/rpc", transport: "JSONRPC" }],
    }, "c");
    assert.ok(other.ok);
    assert.equal(other.card.url, "https://x/rpc");
  });

  test("every refusal is one line naming where the card came from", () => {
    const cases: [unknown, RegExp][] = [
      ["text", /^card: not an A2A agent card/],
      [{ protocolVersion: "0.3.0", url: "https://x" }, /^card: the agent card has no 'name'$/],
      [{ name: "a" }, /neither 'supportedInterfaces' \(A2A 1\.0\) nor 'protocolVersion'/],
      [{ name: "a", protocolVersion: "0.3.0" }, /the agent card has no 'url'$/],
      [
        { name: "a", protocolVersion: "0.2.5", url: "https://x" },
        /speaks A2A 0\.2\.5; xcsh speaks/,
      ],
      [
        { name: "a", protocolVersion: "0.3", url: "https://x", preferredTransport: "GRPC" },
        /offers no JSON-RPC interface \(only GRPC\)/,
      ],
      [
        v1([{ url: "https://x", protocolBinding: "JSONRPC", protocolVersion: "2.0" }]),
        /speaks A2A 2\.0; xcsh speaks A2A 1\.0 and 0\.3 over JSON-RPC$/,
      ],
      [
        v1([{ url: "https://x", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }]),
        /only HTTP\+JSON/,
      ],
      [v1([{ protocolBinding: "JSONRPC", protocolVersion: "1.0" }]), /interface has no 'url'$/],
    ];
    for (const [card, expected] of cases) {
      const r = readAgentCard(card, "card");
      assert.equal(r.ok, false, JSON.stringify(card));
      if (!r.ok) {
        assert.match(r.error, expected);
        assert.ok(!r.error.includes("\n"));
      }
    }
  });
});

describe("spokenVersion", () => {
  test("1.x and 0.3.x only", () => {
    assert.equal(spokenVersion("1.0"), "1.0");
    assert.equal(spokenVersion("1.2.3"), "1.0");
    assert.equal(spokenVersion("0.3"), "0.3");
    assert.equal(spokenVersion("0.3.0"), "0.3");
    assert.equal(spokenVersion("0.2.5"), undefined);
    assert.equal(spokenVersion("2.0"), undefined);
    assert.equal(spokenVersion(1), undefined);
  });
});
