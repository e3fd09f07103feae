/**
 * The bubblewrap (`bwrap`) command line that runs one shell command inside a
 * sandbox.
 *
 * Decides what a sandboxed command sees: the whole file system read-only
 * (`--ro-bind / /`), a fresh `/dev` and `/proc` (its own PID namespace, so it
 * sees no other process and no other process's environment), the task's
 * private temporary folder as `/tmp` (`TMPDIR=/tmp`), and in
 * `workspace-write` the writable folders (the project and
 * `task.additionalDirectories`) bound read-write on top (in `read-only`,
 * bound again read-only, so that a project below `/tmp` stays visible; with
 * a write lane, bound read-only and only the lane's folders and files bound
 * read-write on top); then
 * what must stay as it is bound read-only on top: the skill folders inside
 * them and the scripts the task's hooks run. The
 * host's socket folders (`/run`, `/var/tmp`: see `host-sockets.ts`) are
 * covered by empty private ones, and the command has its own System V IPC
 * namespace (`--unshare-ipc`: no host shared memory, semaphores or message
 * queues). Every capability is dropped (`--cap-drop ALL`): as root, bwrap
 * creates no user namespace, and a command that kept root's capabilities
 * could remount the read-only file system writable. Every sandbox has its
 * own session (`--new-session`: no typing into the terminal) and dies with
 * its parent (`--die-with-parent`); as its PID namespace ends with it, every
 * process the command started ends too, double forks included. Unless it
 * shares the host's network (`network`, `task.sandboxNetwork: host`),
 * `--unshare-net` leaves it only its own loopback (and no abstract socket of
 * the host); with `proxy`, the proxy's socket folder is bound read-only at
 * `/tmp/.xcsh-net` (and the program that bridges to it, when a covered
 * folder would hide it), see `net-bridge.ts`. Pure.
 *
 * @example
 * ```ts
 * const hide = { folders: ["/run"], files: [] };
 * bwrapArgs({ mode: "read-only", network: true, roots: ["/p"], tmp: "/tmp/x", cwd: "/p", hide }, ["true"]);
 * // ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run",
 * //  "--bind", "/tmp/x", "/tmp", "--ro-bind", "/p", "/p", "--unshare-pid", "--unshare-ipc",
 * //  "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--setenv", "TMPDIR", "/tmp",
 * //  "--chdir", "/p", "--", "true"]
 * ```
 *
 * @module
 */

import type { Hiding } from "./host-sockets.ts";
import { isInside } from "../fs/path-inside.ts";

/** Where the network proxy's socket folder is seen inside the sandbox. */
export const PROXY_DIR_INSIDE = "/tmp/.xcsh-net";

/** The proxy socket's name in that folder. */
export const PROXY_SOCKET_NAME = "proxy.sock";

export interface BwrapPlan {
  mode: "read-only" | "workspace-write";
  /** True: the command shares the host's network namespace. */
  network: boolean;
  /**
   * The project folders (absolute, real paths): writable in
   * `workspace-write`, read-only in `read-only`; bound again after `/tmp`, so
   * one that lives below `/tmp` stays visible.
   */
  roots: readonly string[];
  /**
   * A write lane's folders and files (inside `roots`, each existing): in
   * `workspace-write`, when given, the roots are bound read-only and only
   * these writable on top of them.
   */
  writable?: readonly string[];
  /**
   * Folders and files inside `roots` bound read-only on top of them (skill
   * folders, the scripts hooks run); each must exist.
   */
  readOnly?: readonly string[];
  /** The task's private temporary folder, seen as `/tmp` inside. */
  tmp: string;
  /** Where the command starts. */
  cwd: string;
  /** The host folders covered by empty ones, and the files bound back in them. */
  hide: Hiding;
  /**
   * The network proxy: its socket folder, and what the bridge program needs
   * to start (the executable; from source, the source folder too), each bound
   * back read-only when it lives in a folder the sandbox covers (`/tmp`, a
   * hidden one), before the roots, so a root inside it stays as it is bound.
   */
  proxy?: { dir: string; needs: readonly string[] };
}

/** The arguments after `bwrap` that run `command` (program and its arguments). */
export function bwrapArgs(plan: BwrapPlan, command: readonly string[]): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const dir of plan.hide.folders) args.push("--tmpfs", dir);
  for (const file of plan.hide.files) args.push("--ro-bind", file, file);
  // Hidden folders and /tmp first: a project that lives below one of them is
  // bound back on top of it.
  args.push("--bind", plan.tmp, "/tmp");
  const covered = ["/tmp", ...plan.hide.folders];
  for (const path of plan.proxy?.needs ?? []) {
    // Inside a covered folder, never the folder itself (that would uncover it).
    if (isInside(path, covered) && !covered.includes(path)) args.push("--ro-bind", path, path);
  }
  const write = plan.mode === "workspace-write";
  const bind = write && !plan.writable ? "--bind" : "--ro-bind";
  for (const dir of plan.roots) args.push(bind, dir, dir);
  if (write) { for (const path of plan.writable ?? []) args.push("--bind", path, path); }
  for (const path of plan.readOnly ?? []) args.push("--ro-bind", path, path);
  if (plan.proxy) {
    args.push("--ro-bind", plan.proxy.dir, PROXY_DIR_INSIDE);
  }
  args.push("--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL");
  args.push("--die-with-parent", "--new-session");
  if (!plan.network) args.push("--unshare-net");
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", plan.cwd, "--", ...command);
  return args;
}

/** The probe's command line: the same sandbox around `true`. */
export function probeArgs(network: boolean, tmp: string, hide: Hiding): string[] {
  return bwrapArgs({ mode: "read-only", network, roots: [], tmp, cwd: "/", hide }, ["true"]);
}
