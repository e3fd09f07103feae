// The network of sandboxed commands, through the built binary and the local
// model server (which scripts the bash calls): with the network on, a
// command has a network namespace of its own and reaches the network only
// through xcsh's proxy, so no abstract Unix socket of the host answers it and
// the host's loopback is out of reach unless the user's allow list names it;
// a host off the allow list is refused with a message naming the rule; a
// repository's own config can only narrow the network, never widen it.
// Every server here listens on 127.0.0.1 or an abstract socket (no internet).
// The tests need bwrap and say so when they are skipped.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { copyFileSync, linkSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { join } from "node:path";
import process from "node:process";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { toolResults, type World } from "../support/world.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const linux = process.platform === "linux" ? false : "needs Linux";
const support = sandboxSupport(bwrapLocations(process.env), false);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const harness = modelHarness();
const { server } = harness;

const bash = (command: string): Turn => ({ toolCalls: [{ name: "bash", args: { command } }] });

/** Runs quick_task whose model makes one bash call; returns the run and the tool's output. */
async function runBash(w: World, command: string) {
  server.script([bash(command), { text: "done" }]);
  server.requests.length = 0;
  const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 0, r.stderr);
  return server.requests[1] ? toolResults(server.requests[1]) : "";
}

const world = (userNetwork = "", projectNetwork = ""): World => {
  const w = harness.world({ extraConfig: userNetwork ? `task:\n  ${userNetwork}\n` : "" });
  if (projectNetwork) {
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), `task:\n  ${projectNetwork}\n`);
  }
  return w;
};

/**
 * The runtime running these tests, as a command in `w` sees it: the file
 * system is readable in the sandbox, except `/tmp` and the host's socket
 * folders, which it covers; a runtime there (a checkout under /tmp) is
 * linked (or copied) into the project first.
 */
function runtimeIn(w: World): string {
  if (!/^\/(?:tmp|var\/tmp|run)\//.test(process.execPath)) return process.execPath;
  const copy = join(w.cwd, ".runtime");
  try {
    linkSync(process.execPath, copy);
  } catch {
    copyFileSync(process.execPath, copy);
  }
  return copy;
}

/**
 * A shell line that connects to the abstract socket `name` with `runtime`
 * (the runtime running these tests) and prints ANSWERED or REFUSED.
 */
function abstractClient(name: string, runtime = process.execPath): string {
  const code = `import net from "node:net";
const c = net.connect("\\0${name}");
c.on("data", (d) => { console.log("ANSWERED", String(d).trim()); process.exit(0); });
c.on("error", (e) => { console.log("REFUSED", e.code); process.exit(0); });`;
  const run = "Deno" in globalThis ? "eval" : "-e";
  return `DENO_DIR=/tmp/deno ${runtime} ${run} '${code}'`;
}

/** A shell line that asks the proxy (from $HTTP_PROXY) for `url`, with bash alone. */
function throughProxy(url: string): string {
  const host = new URL(url).host;
  return `p=\${HTTP_PROXY##*:}; [ -n "$p" ] || { echo NO PROXY; exit 0; }; ` +
    `exec 3<>/dev/tcp/127.0.0.1/$p || exit 0; ` +
    `printf 'GET ${url} HTTP/1.1\\r\\nHost: ${host}\\r\\n\\r\\n' >&3; cat <&3`;
}

/** A shell line that connects to `port` on 127.0.0.1 directly. */
const direct = (port: number) =>
  `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo CONNECTED || echo NOT-CONNECTED`;

describe("a sandboxed command with the network on", { skip: needsBwrap }, () => {
  const name = `xcsh-test-${process.pid}-${Date.now()}`;
  const abstract = net.createServer((s) => s.end("hello\n"));
  const web = http.createServer((req, res) => res.end(`HELLO ${req.url}\n`));
  let port = 0;
  before(async () => {
    await new Promise<void>((res) => abstract.listen(`\0${name}`, res));
    await new Promise<void>((res) => web.listen(0, "127.0.0.1", res));
    port = (web.address() as net.AddressInfo).port;
  });
  after(() => {
    abstract.close();
    web.close();
  });

  test("cannot connect to a host abstract Unix socket", async () => {
    // The socket answers on the host: the test can fail.
    // (Not spawnSync: the listener lives in this process.)
    const host = await promisify(execFile)("sh", ["-c", abstractClient(name)], { timeout: 60_000 });
    assert.match(host.stdout, /ANSWERED hello/, host.stdout + host.stderr);
    for (const setting of ["", "sandboxNetwork: true", "sandboxNetwork: { allow: [127.0.0.1] }"]) {
      const w = world(setting);
      const out = await runBash(w, abstractClient(name, runtimeIn(w)));
      assert.match(out, /REFUSED/, `${setting || "default"}: ${out}`);
      assert.doesNotMatch(out, /ANSWERED/, `${setting || "default"}: ${out}`);
    }
  });

  test("the host's loopback: refused by default, with the reason; reached when the allow list names it", async () => {
    const url = `http://127.0.0.1:${port}/page`;
    const refused = await runBash(world(), `${throughProxy(url)}; ${direct(port)}`);
    assert.match(refused, /403 Forbidden/, refused);
    assert.match(refused, /127\.0\.0\.1 is a loopback address/, refused);
    assert.match(refused, /NOT-CONNECTED/, refused);
    assert.doesNotMatch(refused, /HELLO/, refused);
    // The refusal is also told in the tool's output, whatever the client printed.
    assert.match(refused, new RegExp(`\\[network: 127\\.0\\.0\\.1:${port} refused`), refused);

    const allowed = await runBash(
      world("sandboxNetwork: { allow: [127.0.0.1] }"),
      `${throughProxy(url)}; ${direct(port)}`,
    );
    assert.match(allowed, /HELLO \/page/, allowed);
    // Only through the proxy: a direct connection stays inside the sandbox's own loopback.
    assert.match(allowed, /NOT-CONNECTED/, allowed);
  });

  test("a host not on the allow list is refused, naming the allow list", async () => {
    const url = `http://localhost:${port}/page`;
    const out = await runBash(
      world("sandboxNetwork: { allow: [registry.npmjs.org, '*.github.com'] }"),
      throughProxy(url),
    );
    assert.match(out, /403 Forbidden/, out);
    assert.match(out, /localhost is not on the allow list/, out);
    assert.match(out, /task\.sandboxNetwork/, out);
    assert.doesNotMatch(out, /HELLO/, out);
  });

  test("sandboxNetwork: host shares the host's network (the old way), as asked", async () => {
    const out = await runBash(world("sandboxNetwork: host"), direct(port));
    assert.match(out, /^CONNECTED/m, out);
  });

  test("a repository's untrusted config only narrows: it cannot open the loopback nor share the host's network", async () => {
    const url = `http://127.0.0.1:${port}/page`;
    const opened = await runBash(
      world("", "sandboxNetwork: { allow: [127.0.0.1] }"),
      throughProxy(url),
    );
    assert.match(opened, /127\.0\.0\.1 is a loopback address/, opened);
    assert.doesNotMatch(opened, /HELLO/, opened);

    const shared = await runBash(world("", "sandboxNetwork: host"), direct(port));
    assert.match(shared, /NOT-CONNECTED/, shared);

    // The user's allow list names the loopback; the project's list does not: refused.
    const narrowed = await runBash(
      world("sandboxNetwork: { allow: [127.0.0.1] }", "sandboxNetwork: { allow: [example.org] }"),
      throughProxy(url),
    );
    assert.match(narrowed, /not on the allow list/, narrowed);
    assert.doesNotMatch(narrowed, /HELLO/, narrowed);

    const off = await runBash(world("", "sandboxNetwork: false"), throughProxy(url));
    assert.match(off, /NO PROXY/, off);
  });
});
