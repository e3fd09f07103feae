/**
 * Today's date in local time, for the prompt's environment block, without
 * the runtime's time-zone database where the zone has one fixed offset.
 *
 * Asking a `Date` for a local field loads the engine's time-zone support,
 * which costs every task's start several milliseconds. Most machines that
 * run many tasks (servers, containers, CI) keep UTC or another zone without
 * daylight saving time, and that offset can be read from the zone file
 * directly: `$TZ` when it is a fixed POSIX rule (`UTC0`, `JST-9`) or a UTC
 * name, else `/etc/localtime` (TZif version 2 or later, no leap seconds,
 * no transition after now, a footer rule without daylight saving time).
 * Anything else, or anything unsure, asks the `Date` as before.
 *
 * @example
 * ```ts
 * fixedPosixOffset("JST-9"); // 32400 (seconds east of UTC)
 * fixedPosixOffset("CET-1CEST,M3.5.0,M10.5.0/3"); // undefined: it has DST
 * ```
 *
 * @module
 */
import { readFileSync } from "node:fs";

/** `TZ` values that name UTC itself. */
const UTC_NAMES = new Set(["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Universal", "Zulu"]);

/**
 * The offset east of UTC, in seconds, of a POSIX `TZ` rule with no daylight
 * saving part (`UTC0`, `<+0530>-5:30`), or undefined for any other text.
 * POSIX offsets count hours west of UTC, hence the sign. Pure.
 */
export function fixedPosixOffset(rule: string): number | undefined {
  const m = /^(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)([+-]?)(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/
    .exec(rule);
  if (!m) return undefined;
  const [hours, minutes, seconds] = [m[2], m[3] ?? "0", m[4] ?? "0"].map(Number);
  if (hours > 24 || minutes > 59 || seconds > 59) return undefined;
  const west = hours * 3600 + minutes * 60 + seconds;
  return m[1] === "-" || west === 0 ? west : -west;
}

/**
 * The offset east of UTC, in seconds, that the TZif data `tz` gives at
 * `nowS` (seconds since the epoch) when it is fixed from before `nowS` on,
 * else undefined (an older format, leap seconds, a transition to come, a
 * rule with daylight saving time, or data that does not parse). Pure.
 */
export function tzifFixedOffset(tz: Uint8Array, nowS: number): number | undefined {
  const view = new DataView(tz.buffer, tz.byteOffset, tz.byteLength);
  const header = (at: number) => {
    if (at + 44 > tz.length) return undefined;
    if (String.fromCharCode(tz[at], tz[at + 1], tz[at + 2], tz[at + 3]) !== "TZif") {
      return undefined;
    }
    const n = (i: number) => view.getUint32(at + 20 + i * 4);
    return {
      version: tz[at + 4],
      isut: n(0),
      isstd: n(1),
      leap: n(2),
      time: n(3),
      type: n(4),
      chars: n(5),
    };
  };
  const v1 = header(0);
  // Version 2 or later ('2', '3', '4') carries 64-bit data and the footer rule.
  if (!v1 || v1.version < 0x32) return undefined;
  const v1Size = v1.time * 5 + v1.type * 6 + v1.chars + v1.leap * 8 + v1.isstd + v1.isut;
  const at = 44 + v1Size;
  const v2 = header(at);
  if (!v2 || v2.leap !== 0) return undefined;
  const data = at + 44;
  const v2Size = v2.time * 9 + v2.type * 6 + v2.chars + v2.isstd + v2.isut;
  if (data + v2Size + 2 > tz.length) return undefined;
  if (v2.time > 0) {
    const last = Number(view.getBigInt64(data + (v2.time - 1) * 8));
    if (last > nowS) return undefined;
  }
  const footer = tz.subarray(data + v2Size);
  if (footer[0] !== 0x0a || footer[footer.length - 1] !== 0x0a) return undefined;
  return fixedPosixOffset(new TextDecoder().decode(footer.subarray(1, footer.length - 1)));
}

/**
 * The fixed offset east of UTC, in seconds, of this process's local zone at
 * `nowS`, or undefined when it is not known to be fixed.
 */
export function fixedLocalOffset(
  tzVariable: string | undefined,
  nowS: number,
  localtime = "/etc/localtime",
): number | undefined {
  if (tzVariable !== undefined) {
    const name = tzVariable.startsWith(":") ? tzVariable.slice(1) : tzVariable;
    return UTC_NAMES.has(name) ? 0 : fixedPosixOffset(tzVariable);
  }
  try {
    return tzifFixedOffset(readFileSync(localtime), nowS);
  } catch {
    return undefined;
  }
}

/** `date` as `YYYY-MM-DD` in local time. */
export function localIsoDate(date: Date, tzVariable: string | undefined): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const offset = fixedLocalOffset(tzVariable, Math.floor(date.getTime() / 1000));
  if (offset !== undefined) {
    const shifted = new Date(date.getTime() + offset * 1000);
    return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${
      pad(shifted.getUTCDate())
    }`;
  }
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
