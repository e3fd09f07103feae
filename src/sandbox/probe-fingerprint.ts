/**
 * What the bubblewrap probe's answer depends on, as one fingerprint: a probe
 * that succeeded under the same fingerprint need not run again.
 *
 * It covers the program (its path, device, inode, size, times, owner and
 * mode: an update or a replacement changes it), the kernel (release,
 * version and this boot's id), the settings that allow or forbid user
 * namespaces, the namespaces this process runs in (a container has its
 * own), this process's user and group, and the probe's own arguments (the
 * network setting, the temporary folder, the host sockets hidden). A value
 * that cannot be read counts as itself ("-"), so its absence is part of the
 * fingerprint too.
 *
 * @example
 * ```ts
 * const fp = probeFingerprint("/usr/bin/bwrap", ["--ro-bind", "/", "/", "--", "true"]);
 * ```
 *
 * @module
 */
import { readFileSync, readlinkSync, statSync } from "node:fs";
import { release, version } from "node:os";
import { sha256Hex } from "../runtime.ts";
import { currentGid, currentUid } from "../fs/file-safety.ts";

/** Kernel settings that decide whether unprivileged user namespaces work. */
const USERNS_SETTINGS = [
  "/proc/sys/kernel/random/boot_id",
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
];

/** The namespaces of this process. */
const NAMESPACES = ["user", "mnt", "pid", "net", "ipc"];

/** `read()`, or "-" when it throws. */
function orDash(read: () => string): string {
  try {
    return read();
  } catch {
    return "-";
  }
}

/**
 * The fingerprint of probing `bwrap` with `args` on this machine now, or
 * undefined when the program cannot be looked at.
 */
export function probeFingerprint(bwrap: string, args: readonly string[]): string | undefined {
  let program: string;
  try {
    const s = statSync(bwrap);
    program = [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs, s.mode, s.uid, s.gid].join(",");
  } catch {
    return undefined;
  }
  const parts = [
    "probe 1",
    bwrap,
    program,
    orDash(release),
    orDash(version),
    ...USERNS_SETTINGS.map((f) => orDash(() => readFileSync(f, "utf8").trim())),
    ...NAMESPACES.map((n) => orDash(() => readlinkSync(`/proc/self/ns/${n}`))),
    `${currentUid() ?? "-"}:${currentGid() ?? "-"}`,
    JSON.stringify(args),
  ];
  return sha256Hex(parts.join("\0"));
}
