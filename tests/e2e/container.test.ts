// The minimal-container test: dist/xcsh in a root file system that holds only
// the binary and the shared libraries `ldd` names for it (the dynamic loader
// included), with /proc and /dev mounted as in any container. Inside it,
// `xcsh --version` and `xcsh agents --json` (empty environment, HOME pointing
// nowhere) must work and list the six bundled agents.
//
// Needs root, and `unshare` and `chroot` on PATH (util-linux, coreutils): the
// root file system is entered with `unshare --mount --pid --fork` and
// `chroot`; the test says which is missing when it skips. Mounts live in the private mount namespace and vanish
// with it. Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import pkg from "../../package.json" with { type: "json" };
import { requireBinary } from "../support/cli.ts";

/** This process's PATH: a run that hides `unshare` (as `.ci/run` does) hides it here too. */
const PATH = process.env.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const BUNDLED = ["explore", "plan", "designer", "reviewer", "task", "quick_task"];
const NEEDS_ROOT = "minimal-container test needs root (unshare + chroot)";

/** unshare with a private mount namespace and its own PID namespace (and /proc). */
const UNSHARE = ["--mount", "--pid", "--fork", "--propagation", "private"];

/**
 * The shell run inside the new namespaces, *outside* the chroot (the root file
 * system has no shell): mount /proc and /dev, then enter the root with an empty
 * environment. $1 = root, $2 = chroot, the rest = xcsh arguments.
 */
const ENTER = [
  'R="$1"; C="$2"; shift 2',
  'mount -t proc proc "$R/proc"',
  'mount --rbind /dev "$R/dev"',
  'exec env -i HOME=/home/none "$C" "$R" /xcsh "$@"',
].join(" && ");

/** Why this machine cannot run the test, or undefined when it can. */
function skipReason(): string | undefined {
  if (process.platform !== "linux") return `${NEEDS_ROOT}; this is ${process.platform}`;
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return NEEDS_ROOT;
  const missing = ["unshare", "chroot"].filter((p) =>
    spawnSync("sh", ["-c", `command -v ${p}`], { env: { PATH } }).status !== 0
  );
  if (missing.length > 0) {
    return `minimal-container test needs unshare and chroot (util-linux, coreutils); not on PATH: ${
      missing.join(", ")
    }`;
  }
  // Root, but the kernel or a sandbox may still forbid namespaces or mounts.
  const probe = mkdtempSync(join(tmpdir(), "xcsh-ns-probe-"));
  try {
    mkdirSync(join(probe, "proc"));
    mkdirSync(join(probe, "dev"));
    const r = spawnSync(
      "unshare",
      [
        ...UNSHARE,
        "sh",
        "-c",
        `mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev"`,
        "sh",
        probe,
      ],
      { env: { PATH }, encoding: "utf8" },
    );
    if (r.error) throw new Error(`cannot run unshare: ${r.error.message}`);
    if (r.status !== 0) {
      return `minimal-container test skipped: the kernel refuses namespaces or mounts here (unshare: ${
        (r.stderr || `exit ${r.status}`).trim()
      })`;
    }
    return undefined;
  } finally {
    assertNoMountsUnder(probe);
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Refuses to go on if a mount under `dir` leaked out of the namespace. */
function assertNoMountsUnder(dir: string): void {
  const leaked = readFileSync("/proc/self/mountinfo", "utf8").split("\n")
    .map((line) => line.split(" ")[4])
    .filter((point) => point !== undefined && (point === dir || point.startsWith(dir + "/")));
  if (leaked.length > 0) {
    throw new Error(
      `mounts leaked out of the namespace, not removing ${dir}: ${leaked.join(", ")}`,
    );
  }
}

/** The absolute paths of the shared libraries `ldd` names (loader included). */
function sharedLibraries(binary: string): string[] {
  const r = spawnSync("ldd", [binary], { env: { PATH }, encoding: "utf8" });
  assert.equal(r.status, 0, `ldd ${binary} failed: ${r.stderr}`);
  assert.doesNotMatch(r.stdout, /not found/, `ldd: missing libraries:\n${r.stdout}`);
  const libs = [...r.stdout.matchAll(/(\/\S+)\s+\(0x[0-9a-f]+\)/g)].map((m) => m[1]);
  assert.ok(libs.some((l) => /ld-linux/.test(l)), `no dynamic loader in ldd output:\n${r.stdout}`);
  return libs;
}

/** Builds the root file system: /xcsh, the libraries, empty /proc /dev /tmp. */
function buildRoot(): { root: string; libs: string[] } {
  const binary = requireBinary();
  const libs = sharedLibraries(binary);
  const root = mkdtempSync(join(tmpdir(), "xcsh-rootfs-"));
  copyFileSync(binary, join(root, "xcsh"));
  chmodSync(join(root, "xcsh"), 0o755);
  for (const lib of libs) {
    mkdirSync(join(root, dirname(lib)), { recursive: true });
    copyFileSync(lib, join(root, lib)); // follows symlinks: the real file lands at the ldd path
  }
  for (const d of ["proc", "dev", "tmp"]) mkdirSync(join(root, d));
  chmodSync(join(root, "tmp"), 0o1777);
  return { root, libs };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function inContainer(root: string, args: string[]): Promise<Run> {
  const chroot = spawnSync("sh", ["-c", "command -v chroot"], { env: { PATH }, encoding: "utf8" })
    .stdout.trim();
  assert.ok(chroot.startsWith("/"), "chroot is installed");
  return new Promise((resolvePromise, reject) => {
    const child = spawn("unshare", [...UNSHARE, "sh", "-c", ENTER, "sh", root, chroot, ...args], {
      env: { PATH },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

const reason = skipReason();

describe("minimal container (only dist/xcsh and its shared libraries)", () => {
  if (reason !== undefined) {
    process.stderr.write(`${reason}\n`);
    test.skip(reason, () => {});
    return;
  }

  let root = "";
  let libs: string[] = [];
  before(() => {
    ({ root, libs } = buildRoot());
  });
  after(() => {
    if (root === "") return;
    assertNoMountsUnder(root);
    rmSync(root, { recursive: true, force: true });
  });

  test("the root file system holds the binary, the loader and libc, nothing else", () => {
    const listed = spawnSync("find", [root, "-type", "f"], { env: { PATH }, encoding: "utf8" })
      .stdout.trim().split("\n").map((p) => p.slice(root.length)).sort();
    assert.deepEqual(listed, ["/xcsh", ...libs].sort());
    assert.ok(libs.some((l) => /\/libc\.so/.test(l)), libs.join(", "));
  });

  test("xcsh --version", async () => {
    const r = await inContainer(root, ["--version"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `xcsh ${pkg.version} (bun-linux-x64)\n`);
  });

  test("xcsh agents --json with HOME pointing nowhere lists the six bundled agents", async () => {
    const r = await inContainer(root, ["agents", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /^\s{4}at /m);
    const json = JSON.parse(r.stdout) as {
      agents: { name: string; source: string; tools?: string[]; thinkingLevel?: string }[];
    };
    assert.deepEqual(json.agents.map((a) => a.name), BUNDLED);
    for (const a of json.agents) assert.equal(a.source, "bundled");
    assert.deepEqual(json.agents[0].tools, ["read", "grep", "find", "ls", "bash", "submit_result"]);
    assert.equal(json.agents[4].thinkingLevel, "medium");
  });

  test("xcsh agents show nope fails cleanly inside the container", async () => {
    const r = await inContainer(root, ["agents", "show", "nope"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^xcsh: Unknown agent "nope"/);
    assert.doesNotMatch(r.stderr, /^\s{4}at /m);
  });
});
