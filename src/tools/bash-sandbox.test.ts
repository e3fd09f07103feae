// `bash` inside a bubblewrap sandbox, with real bwrap: what a command may
// write in each mode, its private /tmp, no network when asked, that nothing
// it started outlives it, that it holds no capability (as root too) and
// cannot remount the file system, and that the host's System V IPC and
// socket folders are out of its reach. Skipped, saying why, where bwrap
// cannot create a sandbox (and each test that needs a tool says which).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ROOT, sourceBridge } from "../../tests/support/cli.ts";
import { sandbox } from "../../tests/support/tool-context.ts";
import { bwrapLocations, sandboxSupport } from "../sandbox/probe.ts";
import { bashTool } from "./bash.ts";
import type { CommandSandbox, ToolContext } from "./tool-spec.ts";
import type { NetReach } from "../types.ts";

const support = sandboxSupport(bwrapLocations(process.env), true);
const skip = support.ok ? false : `bwrap unavailable: ${support.reason}`;
const root = typeof process.getuid === "function" && process.getuid() === 0;

/** The first of `files` that exists, or why a test that needs `name` is skipped. */
function tool(name: string, ...files: string[]): { path: string; skip: false } | {
  path: "";
  skip: string;
} {
  const path = files.find((f) => existsSync(f));
  return path ? { path, skip: false } : { path: "", skip: `needs ${name} (${files.join(" or ")})` };
}
const ipcmk = tool("ipcmk", "/usr/bin/ipcmk", "/bin/ipcmk");
const python = tool("python3", "/usr/bin/python3", "/bin/python3");

function cmdlines(marker: string): string[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });
}

describe("bash in a bubblewrap sandbox", { skip, timeout: 60_000 }, () => {
  const sb = sandbox({ "f.txt": "inside\n" });
  const outside = mkdtempSync(join(tmpdir(), "xcsh-outside-"));
  const tmp = mkdtempSync(join(tmpdir(), "xcsh-private-tmp-"));
  const extraTmps: string[] = [];
  after(() => {
    for (const t of extraTmps) rmSync(t, { recursive: true, force: true });
    sb.remove();
    rmSync(outside, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });
  const ctxFor = (mode: CommandSandbox["mode"], network = true): ToolContext => ({
    ...sb.ctx,
    roots: [sb.dir],
    sandbox: {
      mode,
      network,
      bwrap: support.ok ? support.bwrap : "",
      tmp,
      bridge: sourceBridge(),
    },
  });
  /** A workspace-write context with network and `reach`, in a task (a private /tmp) of its own. */
  const withReach = (reach: NetReach): ToolContext => {
    const own = mkdtempSync(join(tmpdir(), "xcsh-private-tmp-"));
    extraTmps.push(own);
    const ctx = ctxFor("workspace-write", true);
    return { ...ctx, sandbox: { ...ctx.sandbox!, tmp: own, reach } };
  };

  test("readOnly files stay read-only in the writable project; a removed one is passed over", async () => {
    const kept = join(sb.dir, "kept.sh");
    const gone = join(sb.dir, "gone.sh");
    writeFileSync(kept, "echo kept\n");
    const ctx: ToolContext = {
      ...ctxFor("workspace-write"),
      sandbox: { ...ctxFor("workspace-write").sandbox!, readOnly: [kept, gone] },
    };
    const r = await bashTool.run({
      command: "echo changed >> kept.sh; echo $?; touch other.txt && echo other-ok",
    }, ctx);
    assert.match(r.output, /Read-only file system/);
    assert.match(r.output, /other-ok/, "the rest of the project is writable");
    assert.equal(readFileSync(kept, "utf8"), "echo kept\n");
    assert.equal(existsSync(gone), false);
  });

  test("workspace-write: the project and /tmp are writable, the rest is not", async () => {
    const r = await bashTool.run({
      command: `touch made.txt && echo in-ok; touch ${outside}/x 2>&1; ` +
        `echo t > /tmp/t.txt && echo tmp-ok; echo $TMPDIR`,
    }, ctxFor("workspace-write"));
    assert.match(r.output, /in-ok/);
    // Read-only, or not there at all when it lives below the host's /tmp.
    assert.match(r.output, /cannot touch .*(Read-only file system|No such file or directory)/);
    assert.match(r.output, /tmp-ok\n\/tmp\n/);
    assert.equal(existsSync(join(sb.dir, "made.txt")), true);
    assert.equal(existsSync(join(outside, "x")), false);
    assert.equal(readFileSync(join(tmp, "t.txt"), "utf8"), "t\n", "/tmp is the private folder");
  });

  test("read-only: the project cannot be written, but read", async () => {
    const r = await bashTool.run(
      { command: "cat f.txt; touch ro.txt" },
      ctxFor("read-only"),
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /^inside\n.*Read-only file system/s);
    assert.equal(existsSync(join(sb.dir, "ro.txt")), false);
  });

  test("a double fork ends with the command (its PID namespace ends)", async () => {
    const r = await bashTool.run(
      { command: "(setsid sleep 45.625 >/dev/null 2>&1 &); echo started" },
      ctxFor("workspace-write"),
    );
    assert.match(r.output, /started/);
    const until = Date.now() + 5000;
    while (cmdlines("45.625").length > 0 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const left = cmdlines("45.625");
    for (const p of left) process.kill(Number(p), "SIGKILL");
    assert.deepEqual(left, []);
  });

  test("network off: a local server cannot be reached; on: only through the proxy, when allowed; host: directly", async () => {
    const server = createServer((s) => s.end("hello\n"));
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    const port = (server.address() as { port: number }).port;
    try {
      const direct = `(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo CONNECTED || echo REFUSED`;
      // CONNECT through the proxy named in $HTTPS_PROXY, with bash alone.
      const proxied = `p=\${HTTPS_PROXY##*:}; exec 3<>/dev/tcp/127.0.0.1/$p || exit 0; ` +
        `printf 'CONNECT 127.0.0.1:${port} HTTP/1.1\\r\\n\\r\\n' >&3; cat <&3`;
      const both = `${direct}; ${proxied}`;
      const off = await bashTool.run({ command: both }, ctxFor("workspace-write", false));
      assert.match(off.output, /REFUSED/);
      assert.doesNotMatch(off.output, /hello/);
      const on = await bashTool.run({ command: both }, ctxFor("workspace-write", true));
      assert.match(on.output, /REFUSED/, "the sandbox's loopback is its own");
      assert.match(on.output, /403 Forbidden/, on.output);
      assert.match(on.output, /\[network: 127\.0\.0\.1:\d+ refused: 127\.0\.0\.1 is a loopback/);
      assert.doesNotMatch(on.output, /hello/);
      const allowed = await bashTool.run({ command: both }, withReach({ allow: [["127.0.0.1"]] }));
      assert.match(allowed.output, /REFUSED/, allowed.output);
      assert.match(allowed.output, /200 Connection Established\r?\n\r?\nhello/, allowed.output);
      const host = await bashTool.run({ command: direct }, withReach({ host: true }));
      assert.match(host.output, /CONNECTED/, host.output);
    } finally {
      server.close();
    }
  });

  test("no capability, no remount, the host's files unchanged, in both modes", async () => {
    // Visible in the sandbox (not below /tmp, /var/tmp or /run), outside the project.
    mkdirSync(join(ROOT, "node_modules"), { recursive: true });
    const host = mkdtempSync(join(ROOT, "node_modules", ".xcsh-outside-"));
    const file = join(host, "bashrc");
    writeFileSync(file, "original\n");
    try {
      for (const mode of ["read-only", "workspace-write"] as const) {
        const r = await bashTool.run({
          command: "grep -E '^(Cap(Eff|Prm|Amb)|NoNewPrivs):' /proc/self/status; " +
            "mount -o remount,bind,rw / && echo REMOUNTED; " +
            "mount -o remount,rw / && echo REMOUNTED; " +
            `echo evil >> ${file} && echo APPENDED; echo end`,
        }, ctxFor(mode));
        assert.match(r.output, /CapEff:\s+0+\n/, `${mode}: ${r.output}`);
        assert.match(r.output, /CapPrm:\s+0+\n/, `${mode}: ${r.output}`);
        assert.match(r.output, /NoNewPrivs:\s+1\n/, `${mode}: no setuid program gives them back`);
        assert.doesNotMatch(r.output, /REMOUNTED|APPENDED/, `${mode}: ${r.output}`);
        assert.match(r.output, /end\n/);
        assert.equal(
          readFileSync(file, "utf8"),
          "original\n",
          `${mode}: the host file is unchanged`,
        );
      }
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });

  test(`as root too: uid 0 inside, yet no capability${root ? "" : " (not root here)"}`, {
    skip: root ? false : "runs as root only (CI does): as another user bwrap drops them anyway",
  }, async () => {
    const r = await bashTool.run(
      { command: "id -u; grep CapEff /proc/self/status; touch /etc/xcsh-root-test" },
      ctxFor("workspace-write"),
    );
    assert.match(r.output, /^0\nCapEff:\s+0+\n/);
    assert.equal(existsSync("/etc/xcsh-root-test"), false);
  });

  test("System V IPC: the host's shared memory is not listed", { skip: ipcmk.skip }, async () => {
    const made = spawnSync(ipcmk.path, ["-M", "4096"], { encoding: "utf8" });
    const id = /(\d+)\s*$/.exec(made.stdout.trim())?.[1];
    assert.ok(id, `ipcmk made a segment: ${made.stdout}${made.stderr}`);
    try {
      const host = spawnSync("ipcs", ["-m"], { encoding: "utf8" }).stdout;
      assert.match(host, new RegExp(`\\s${id}\\s`), "the host lists it");
      const r = await bashTool.run({ command: "ipcs -m; echo end" }, ctxFor("workspace-write"));
      assert.match(r.output, /end/);
      assert.doesNotMatch(r.output, new RegExp(`\\s${id}\\s`), r.output);
    } finally {
      spawnSync("ipcrm", ["-m", id]);
    }
  });

  test(
    "host socket files under /run, /tmp and /var/tmp do not answer; an abstract one does not, unless the host's network is shared",
    {
      skip: python.skip,
    },
    async () => {
      const name = `xcsh-test-${process.pid}-${Date.now()}`;
      // /run is writable by root only; an agent's socket lives there or below /tmp.
      const files = [
        ...(root ? [`/run/${name}.sock`] : []),
        join(tmpdir(), `${name}.sock`),
        ...(existsSync("/var/tmp") ? [`/var/tmp/${name}.sock`] : []),
      ];
      // One host process listening on each; it answers "hello" to whoever connects.
      const listener = spawn(python.path, [
        "-c",
        `import socket, threading, sys
def serve(addr):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(addr); s.listen(8)
    while True:
        c, _ = s.accept()
        try: c.sendall(b"hello\\n")
        except OSError: pass
        c.close()
for a in sys.argv[2:] + ["\\0" + sys.argv[1]]:
    threading.Thread(target=serve, args=(a,), daemon=True).start()
print("ready", flush=True)
sys.stdin.read()`,
        name,
        ...files,
      ], { stdio: ["pipe", "pipe", "inherit"] });
      try {
        await new Promise<void>((res) => listener.stdout.once("data", () => res()));
        // Prints one line per address: ANSWERED or REFUSED.
        const client = (addrs: string[]) =>
          `${python.path} -c 'import socket,sys
for a in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    a = "\\0" + a[1:] if a.startswith("@") else a
    try:
        s.connect(a); print("ANSWERED", a)
    except OSError as e:
        print("REFUSED", a, e)' ${addrs.join(" ")}`;
        // The listener answers on the host: the test can fail.
        const direct = spawnSync("sh", ["-c", client([...files, `@${name}`])], {
          encoding: "utf8",
        });
        assert.equal(direct.stdout.match(/^ANSWERED/gm)?.length, files.length + 1, direct.stdout);
        for (const network of [true, false]) {
          const r = await bashTool.run(
            { command: client(files) },
            ctxFor("workspace-write", network),
          );
          assert.equal(
            r.output.match(/^REFUSED/gm)?.length,
            files.length,
            `${network}: ${r.output}`,
          );
        }
        for (const network of [true, false]) {
          const r = await bashTool.run(
            { command: client([`@${name}`]) },
            ctxFor("workspace-write", network),
          );
          assert.match(r.output, /^REFUSED/m, `${network}: ${r.output}`);
        }
        const shared = await bashTool.run(
          { command: client([`@${name}`]) },
          withReach({ host: true }),
        );
        assert.match(shared.output, /^ANSWERED/m, `the test can fail: ${shared.output}`);
      } finally {
        listener.stdin.end();
        listener.kill();
        for (const f of files) rmSync(f, { force: true });
      }
    },
  );
});
