// Unit tests for direct descriptor writes: partial writes continue, EAGAIN
// waits and retries, a gone reader stops output quietly, other errors throw;
// and the terminal check agrees with the runtime's own.

import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import {
  isTerminal,
  isTerminalDevice,
  resetGoneDescriptors,
  type WriteBytes,
  writeText,
} from "./stdio.ts";

function errno(code: string): Error {
  return Object.assign(new Error(code), { code });
}

/** A fake descriptor: takes at most `max` bytes per call, after `faults` throw. */
function sink(max: number, faults: string[] = []) {
  const got: number[] = [];
  let calls = 0;
  const write: WriteBytes = (_fd, bytes, offset, length) => {
    calls++;
    const fault = faults.shift();
    if (fault) throw errno(fault);
    const n = Math.min(max, length);
    got.push(...bytes.subarray(offset, offset + n));
    return n;
  };
  return { write, text: () => new TextDecoder().decode(new Uint8Array(got)), calls: () => calls };
}

describe("writeText", () => {
  afterEach(resetGoneDescriptors);

  test("partial writes go on where they stopped, multi-byte text intact", () => {
    const s = sink(3);
    assert.equal(writeText(7, "héllo wörld ✓\n", s.write), true);
    assert.equal(s.text(), "héllo wörld ✓\n");
    assert.ok(s.calls() > 4);
  });

  test("EAGAIN and EINTR wait and retry", () => {
    const s = sink(1000, ["EAGAIN", "EAGAIN", "EINTR"]);
    assert.equal(writeText(7, "data\n", s.write), true);
    assert.equal(s.text(), "data\n");
    assert.equal(s.calls(), 4);
  });

  test("a gone reader (EPIPE, EBADF) stops output to that descriptor, quietly", () => {
    const s = sink(1000, ["EPIPE"]);
    assert.equal(writeText(7, "lost\n", s.write), false);
    assert.equal(writeText(7, "also lost\n", s.write), false);
    assert.equal(s.calls(), 1, "nothing more is tried");
    const other = sink(1000);
    assert.equal(writeText(8, "fine\n", other.write), true, "other descriptors still work");
    assert.equal(writeText(9, "x", sink(1, ["EBADF"]).write), false);
  });

  test("any other error is thrown", () => {
    assert.throws(() => writeText(7, "x", sink(1, ["ENOSPC"]).write), /ENOSPC/);
  });

  test("empty text writes nothing", () => {
    const s = sink(1);
    assert.equal(writeText(7, "", s.write), true);
    assert.equal(s.calls(), 0);
  });
});

describe("isTerminal", () => {
  test("terminal device paths", () => {
    for (
      const p of [
        "/dev/pts/0",
        "/dev/pts/17",
        "/dev/tty",
        "/dev/tty1",
        "/dev/ttyS0",
        "/dev/console",
      ]
    ) {
      assert.ok(isTerminalDevice(p), p);
    }
    for (
      const p of [
        "/dev/null",
        "pipe:[1234]",
        "socket:[9]",
        "/tmp/out.txt",
        "/dev/pts/",
        "/dev/ttyx/y",
      ]
    ) {
      assert.ok(!isTerminalDevice(p), p);
    }
  });

  test("agrees with the runtime's own answer for stdin, stdout and stderr", () => {
    assert.equal(isTerminal(0), process.stdin.isTTY === true);
    assert.equal(isTerminal(1), process.stdout.isTTY === true);
    assert.equal(isTerminal(2), process.stderr.isTTY === true);
  });
});
