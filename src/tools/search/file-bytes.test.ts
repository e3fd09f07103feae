import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileBytes, fileReader } from "./file-bytes.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-file-bytes-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** What a read gave, copied out of the shared buffer. */
function copy(r: FileBytes): unknown {
  return r.kind === "bytes" ? { kind: "bytes", bytes: Buffer.from(r.bytes).toString("hex") } : r;
}

describe("fileReader", () => {
  const limit = 300_000;
  const sizes = [0, 1, 100, 65_535, 65_536, 65_537, 131_072, 200_001, limit, limit + 1];

  test("a file the listing calls regular reads the same as one measured first", () => {
    for (const size of sizes) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + size) & 0xff;
      writeFileSync(join(root, `f${size}`), bytes);
    }
    // Two readers, each with its own buffer, reading in an order that grows it.
    const measured = fileReader(limit);
    const listed = fileReader(limit);
    for (const size of [...sizes, ...sizes.slice().reverse()]) {
      const path = join(root, `f${size}`);
      const a = copy(measured(path));
      const b = copy(listed(path, true));
      assert.deepEqual(b, a, `${size} bytes`);
      if (size > limit) assert.deepEqual(a, { kind: "too-large", size });
      else assert.equal((a as { bytes: string }).bytes.length, size * 2);
    }
  });

  test("a limit below the buffer's size still reports a file over it", () => {
    writeFileSync(join(root, "small-limit"), Buffer.alloc(5000, 0x61));
    const read = fileReader(4096);
    for (const known of [false, true]) {
      assert.deepEqual(read(join(root, "small-limit"), known), { kind: "too-large", size: 5000 });
    }
  });

  test("a folder or a missing file is skipped either way", () => {
    mkdirSync(join(root, "d"));
    const read = fileReader(limit);
    for (const known of [false, true]) {
      assert.deepEqual(read(join(root, "d"), known), { kind: "skip" });
      assert.deepEqual(read(join(root, "missing"), known), { kind: "skip" });
    }
  });
});
