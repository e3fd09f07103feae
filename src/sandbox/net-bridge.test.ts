// The bridge a sandboxed command reaches the proxy through: it forwards
// 127.0.0.1 connections to a Unix socket, and runs the command with the proxy
// variables, exiting with its status.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { netBridgeCommand, proxyEnvironment, startBridge } from "./net-bridge.ts";

describe("the network bridge", () => {
  test("the proxy variables, upper and lower case; the sandbox's own loopback stays direct", () => {
    const env = proxyEnvironment(4242);
    for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
      assert.equal(env[name], "http://127.0.0.1:4242");
      assert.equal(env[name.toLowerCase()], "http://127.0.0.1:4242");
    }
    assert.equal(env.NO_PROXY, "localhost,127.0.0.1,::1");
    assert.equal(env.no_proxy, env.NO_PROXY);
  });

  test("forwards each connection on 127.0.0.1 to the Unix socket", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-bridge-test-"));
    const socket = join(dir, "s.sock");
    const server = net.createServer((s) => s.on("data", (d) => s.end(`got ${d}`)));
    await new Promise<void>((r) => server.listen(socket, r));
    const bridge = await startBridge(socket);
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const c = net.connect(bridge.port, "127.0.0.1");
        let out = "";
        c.on("data", (d) => (out += d));
        c.on("close", () => resolve(out));
        c.on("error", reject);
        c.write("ping");
      });
      assert.equal(answer, "got ping");
    } finally {
      bridge.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("runs the command with the variables and exits with its status", async () => {
    const code = await netBridgeCommand([
      "/nonexistent.sock",
      "--",
      "sh",
      "-c",
      'case "$HTTPS_PROXY" in http://127.0.0.1:[0-9]*) exit 7;; esac; exit 1',
    ]);
    assert.equal(code, 7);
  });

  test("a usage error without the command", async () => {
    assert.equal(await netBridgeCommand(["/s.sock", "sh"]), 2);
  });
});
