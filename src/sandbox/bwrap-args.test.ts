import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { bwrapArgs, probeArgs } from "./bwrap-args.ts";

const hide = { folders: [], files: [] };
const base = {
  network: true,
  roots: ["/p", "/data"],
  tmp: "/tmp/xcsh-sandbox-1",
  cwd: "/p/src",
  hide,
};

describe("bwrapArgs", () => {
  test("with a lane, the roots are read-only and only the lane's paths writable", () => {
    const args = bwrapArgs(
      { ...base, mode: "workspace-write", writable: ["/p/src/api"], readOnly: ["/p/src/api/h.sh"] },
      ["true"],
    );
    const at = (flag: string, path: string) =>
      args.findIndex((a, i) => a === flag && args[i + 1] === path && args[i + 2] === path);
    assert.ok(at("--ro-bind", "/p") >= 0);
    assert.ok(at("--ro-bind", "/data") >= 0);
    assert.equal(at("--bind", "/p"), -1);
    assert.ok(at("--bind", "/p/src/api") > at("--ro-bind", "/p"));
    // What must stay as it is stays on top.
    assert.ok(at("--ro-bind", "/p/src/api/h.sh") > at("--bind", "/p/src/api"));
  });

  test("a lane binds nothing writable in read-only", () => {
    const args = bwrapArgs({ ...base, mode: "read-only", writable: ["/p/lane"] }, ["true"]);
    assert.equal(args.includes("/p/lane"), false);
    assert.deepEqual(args.filter((a) => a === "--bind"), ["--bind"]); // the private /tmp only
  });

  test("read-only files are bound after the writable folders, so they stay read-only", () => {
    const args = bwrapArgs(
      { ...base, mode: "workspace-write", readOnly: ["/p/hooks/check.sh"] },
      ["true"],
    );
    const file = args.indexOf("/p/hooks/check.sh");
    assert.equal(args[file - 1], "--ro-bind");
    assert.equal(args[file + 1], "/p/hooks/check.sh");
    assert.ok(file > args.lastIndexOf("/data"), "after every writable folder");
    assert.ok(file < args.indexOf("--"), "before the command");
  });

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
      "--unshare-ipc",
      "--cap-drop",
      "ALL",
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

  test("read-only folders (skill folders) are bound read-only after the writable ones", () => {
    const plan = { ...base, mode: "workspace-write" as const, readOnly: ["/p/.claude/skills"] };
    const args = bwrapArgs(plan, ["true"]);
    const at = args.indexOf("/p/.claude/skills");
    assert.deepEqual(args.slice(at - 1, at + 2), [
      "--ro-bind",
      "/p/.claude/skills",
      "/p/.claude/skills",
    ]);
    assert.ok(at > args.lastIndexOf("/data"), "on top of the writable binds");
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

  test("with the proxy: the socket folder read-only at /tmp/.xcsh-net; what the bridge needs when hidden", () => {
    const proxy = { dir: "/tmp/xcsh-sandbox-1/.xcsh-net", needs: ["/usr/local/bin/xcsh"] };
    const args = bwrapArgs({ ...base, network: false, mode: "read-only", proxy }, ["x"]);
    const at = args.indexOf(proxy.dir);
    assert.deepEqual(args.slice(at - 1, at + 2), ["--ro-bind", proxy.dir, "/tmp/.xcsh-net"]);
    assert.ok(at > args.lastIndexOf("/data"), "after the project folders");
    assert.ok(args.includes("--unshare-net"));
    assert.equal(args.includes(proxy.needs[0]), false, "visible already: not bound");
    // From source under /tmp: the runtime and the source folder, both before
    // the roots, so a project inside the source folder keeps its own bind.
    const hidden = { ...proxy, needs: ["/tmp/npx/bun", "/tmp/src"] };
    const withHidden = bwrapArgs({
      ...base,
      roots: ["/tmp/src/project"],
      network: false,
      mode: "workspace-write",
      proxy: hidden,
    }, ["x"]);
    for (const path of hidden.needs) {
      const p = withHidden.indexOf(path);
      assert.deepEqual(withHidden.slice(p - 1, p + 2), ["--ro-bind", path, path]);
    }
    const root = withHidden.lastIndexOf("/tmp/src/project");
    assert.deepEqual(withHidden.slice(root - 2, root + 1), [
      "--bind",
      "/tmp/src/project",
      "/tmp/src/project",
    ]);
    assert.ok(withHidden.indexOf("/tmp/src") < root - 2, "the source folder before the root");
    const tmpItself = bwrapArgs({
      ...base,
      network: false,
      mode: "read-only",
      proxy: { ...proxy, needs: ["/tmp"] },
    }, ["x"]);
    const bindsTmp = tmpItself.some((a, i) =>
      a === "--ro-bind" && tmpItself[i + 1] === "/tmp" && tmpItself[i + 2] === "/tmp"
    );
    assert.equal(bindsTmp, false, "/tmp is never bound back whole");
  });

  test("every capability is dropped and System V IPC is private, in every mode", () => {
    for (const mode of ["read-only", "workspace-write"] as const) {
      for (const network of [true, false]) {
        const args = bwrapArgs({ ...base, mode, network }, ["true"]);
        const at = args.indexOf("--cap-drop");
        assert.deepEqual(args.slice(at, at + 2), ["--cap-drop", "ALL"], `${mode} ${network}`);
        assert.ok(args.includes("--unshare-ipc"), `${mode} ${network}`);
      }
    }
  });

  test("socket folders are covered by empty ones, a needed file bound back, the project after", () => {
    const args = bwrapArgs({
      ...base,
      mode: "workspace-write",
      roots: ["/run/media/proj"],
      hide: { folders: ["/run", "/var/tmp"], files: ["/run/systemd/resolve/stub-resolv.conf"] },
    }, ["true"]);
    const tmpfs = args.flatMap((a, i) => (a === "--tmpfs" ? [args[i + 1]] : []));
    assert.deepEqual(tmpfs, ["/run", "/var/tmp"]);
    const file = args.indexOf("/run/systemd/resolve/stub-resolv.conf");
    assert.equal(args[file - 1], "--ro-bind");
    assert.ok(file > args.lastIndexOf("/var/tmp"), "bound back after the folders are hidden");
    assert.ok(args.indexOf("/run/media/proj") > file, "a project inside a hidden folder stays");
  });

  test("the probe is the same sandbox around true", () => {
    const args = probeArgs(false, "/tmp", { folders: ["/run"], files: [] });
    assert.deepEqual(args.slice(-2), ["--", "true"]);
    assert.ok(args.includes("--unshare-pid") && args.includes("--unshare-net"));
    assert.ok(args.includes("--cap-drop") && args.includes("--unshare-ipc"));
    assert.equal(args[args.indexOf("--tmpfs") + 1], "/run");
  });
});
