// Today's local date without the engine's time-zone database where the zone is fixed.
import process from "node:process";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixedLocalOffset, fixedPosixOffset, localIsoDate, tzifFixedOffset } from "./local-date.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-local-date-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A TZif file: version, transition times (seconds), leap count and footer rule. */
function tzif(
  o: { version?: string; times?: number[]; leap?: number; footer?: string },
): Uint8Array {
  const times = o.times ?? [];
  const leap = o.leap ?? 0;
  const header = (version: string) => {
    const h = new Uint8Array(44);
    h.set([0x54, 0x5a, 0x69, 0x66, version.charCodeAt(0)]); // "TZif" + version
    const v = new DataView(h.buffer);
    [0, 0, leap, times.length, 1, 4].forEach((n, i) => v.setUint32(20 + i * 4, n));
    return h;
  };
  const block = (wide: boolean) => {
    const size = wide ? 8 : 4;
    const b = new Uint8Array(times.length * (size + 1) + 6 + 4 + leap * (size + 4));
    const v = new DataView(b.buffer);
    times.forEach((t, i) => wide ? v.setBigInt64(i * 8, BigInt(t)) : v.setInt32(i * 4, t));
    return b;
  };
  const version = o.version ?? "2";
  const parts = [header(version), block(false)];
  if (version !== "\0") {
    parts.push(header(version), block(true), new TextEncoder().encode(`\n${o.footer ?? ""}\n`));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const NOW = Date.UTC(2026, 5, 1) / 1000;

describe("fixedPosixOffset", () => {
  test("fixed rules give seconds east of UTC", () => {
    assert.equal(fixedPosixOffset("UTC0"), 0);
    assert.equal(fixedPosixOffset("JST-9"), 9 * 3600);
    assert.equal(fixedPosixOffset("EST5"), -5 * 3600);
    assert.equal(fixedPosixOffset("<+0530>-5:30"), 5.5 * 3600);
    assert.equal(fixedPosixOffset("<-03>3"), -3 * 3600);
  });
  test("a rule with daylight saving time, a zone name or bad text is not fixed", () => {
    for (
      const rule of ["CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin", "UTC", "", "ABC-25", "X-1"]
    ) {
      assert.equal(fixedPosixOffset(rule), undefined, rule);
    }
  });
});

describe("tzifFixedOffset", () => {
  test("the footer rule, once every transition is past", () => {
    assert.equal(tzifFixedOffset(tzif({ footer: "UTC0" }), NOW), 0);
    assert.equal(tzifFixedOffset(tzif({ times: [-1e9, 0], footer: "JST-9" }), NOW), 32400);
    assert.equal(tzifFixedOffset(tzif({ version: "3", footer: "<+0530>-5:30" }), NOW), 19800);
  });
  test("a transition to come, leap seconds, DST, version 1 or broken data: not known", () => {
    assert.equal(tzifFixedOffset(tzif({ times: [NOW + 60], footer: "JST-9" }), NOW), undefined);
    assert.equal(tzifFixedOffset(tzif({ leap: 1, footer: "UTC0" }), NOW), undefined);
    const dst = "CET-1CEST,M3.5.0,M10.5.0/3";
    assert.equal(tzifFixedOffset(tzif({ footer: dst }), NOW), undefined);
    assert.equal(tzifFixedOffset(tzif({ version: "\0" }), NOW), undefined);
    const whole = tzif({ footer: "UTC0" });
    assert.equal(tzifFixedOffset(whole.subarray(0, whole.length - 3), NOW), undefined);
    assert.equal(tzifFixedOffset(whole.subarray(0, 30), NOW), undefined);
    assert.equal(
      tzifFixedOffset(new TextEncoder().encode("not a zone file at all"), NOW),
      undefined,
    );
    const bad = whole.slice();
    bad[0] = 0x58;
    assert.equal(tzifFixedOffset(bad, NOW), undefined);
  });
  test("the system's own zone files, where there are any", () => {
    const zones = "/usr/share/zoneinfo";
    if (!existsSync(join(zones, "Etc/UTC"))) return; // no tzdata installed
    assert.equal(tzifFixedOffset(readFileSync(join(zones, "Etc/UTC")), NOW), 0);
    if (existsSync(join(zones, "Asia/Tokyo"))) {
      assert.equal(tzifFixedOffset(readFileSync(join(zones, "Asia/Tokyo")), NOW), 32400);
    }
    if (existsSync(join(zones, "Europe/Berlin"))) {
      assert.equal(tzifFixedOffset(readFileSync(join(zones, "Europe/Berlin")), NOW), undefined);
    }
  });
});

describe("fixedLocalOffset", () => {
  test("$TZ first: a UTC name or a fixed rule; a zone name is not known", () => {
    assert.equal(fixedLocalOffset("UTC", NOW), 0);
    assert.equal(fixedLocalOffset(":Etc/UTC", NOW), 0);
    assert.equal(fixedLocalOffset("JST-9", NOW), 32400);
    assert.equal(fixedLocalOffset("Europe/Berlin", NOW), undefined);
  });
  test("without $TZ, the local zone file; a missing file is not known", () => {
    const file = join(dir, "localtime");
    writeFileSync(file, tzif({ footer: "<+0530>-5:30" }));
    assert.equal(fixedLocalOffset(undefined, NOW, file), 19800);
    assert.equal(fixedLocalOffset(undefined, NOW, join(dir, "missing")), undefined);
  });
});

describe("localIsoDate", () => {
  test("a fixed zone's date may be a day on either side of UTC's", () => {
    assert.equal(localIsoDate(new Date(Date.UTC(2026, 0, 1, 20)), "JST-9"), "2026-01-02");
    assert.equal(localIsoDate(new Date(Date.UTC(2026, 0, 1, 2)), "EST5"), "2025-12-31");
    assert.equal(localIsoDate(new Date(Date.UTC(2026, 0, 1, 2)), "UTC"), "2026-01-01");
  });
  test("otherwise the engine's local date", () => {
    const d = new Date(Date.UTC(2026, 6, 4, 23, 30));
    const pad = (n: number) => String(n).padStart(2, "0");
    const engine = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    // This process's zone, whatever it is, gives what the engine says.
    assert.equal(localIsoDate(d, process.env.TZ), engine);
  });
});
