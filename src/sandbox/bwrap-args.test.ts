import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { bwrapArgs, probeArgs } from "./bwrap-args.ts";

const base = { network: true, roots: ["/p", "/data"], tmp: "/tmp/xcsh-sandbox-1", cwd: "/p/src" };

describe("bwrapArgs", () => {
  test("workspace-write: read-only root, private /tmp, the project folders writable on top", () => {
    assert.deepEqual(bwrapArgs({ ...base, mode: "workspace-write" }, ["/bin/bash", "-c", "ls"]), [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--bind",
      "/tmp/xcsh-sandbox-1",
      "/tmp",
      "--bind",
      "/p",
      "/p",
      "--bind",
      "/data",
      "/data",
      "--unshare-pid",
      "--die-with-parent",
      "--new-session",
      "--setenv",
      "TMPDIR",
      "/tmp",
      "--chdir",
      "/p/src",
      "--",
      "/bin/bash",
      "-c",
      "ls",
    ]);
  });

  test("read-only: the project folders are bound again, read-only", () => {
    const args = bwrapArgs({ ...base, mode: "read-only" }, ["true"]);
    assert.deepEqual(args.filter((a) => a === "--bind").length, 1, "only the private /tmp");
    const at = args.indexOf("/p");
    assert.deepEqual(args.slice(at - 1, at + 2), ["--ro-bind", "/p", "/p"]);
  });

  test("the project is bound after /tmp, so one below /tmp stays visible", () => {
    const args = bwrapArgs({ ...base, roots: ["/tmp/proj"], mode: "workspace-write" }, ["true"]);
    assert.ok(args.indexOf("/tmp/proj") > args.indexOf("/tmp"));
  });

  test("without network: --unshare-net; the command always comes last, after --", () => {
    const args = bwrapArgs({ ...base, network: false, mode: "workspace-write" }, ["x", "--y"]);
    assert.ok(args.includes("--unshare-net"));
    assert.deepEqual(args.slice(-3), ["--", "x", "--y"]);
    assert.equal(
      bwrapArgs({ ...base, mode: "workspace-write" }, ["x"]).includes("--unshare-net"),
      false,
    );
  });

  test("the probe is the same sandbox around true", () => {
    const args = probeArgs(false, "/tmp");
    assert.deepEqual(args.slice(-2), ["--", "true"]);
    assert.ok(args.includes("--unshare-pid") && args.includes("--unshare-net"));
  });
});
