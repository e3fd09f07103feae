// Unit tests for reading one definition folder: byte order of
// file names (compareBytes, including characters outside the BMP), the
// extension filter, and every skip rule — folder named x.md, dangling
// symlink, symlink loop, over 1 MiB, not UTF-8, unreadable, FIFO — each a
// single warning naming the file, never an exception.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import fc from "fast-check";
import {
  compareBytes,
  MAX_AGENT_FILE_BYTES,
  readDefinitionFolder,
  readDefinitionFolderChecked,
  readDefinitionFolderSigned,
  readSourceFile,
} from "./read-files.ts";
import { type FileSignature, signatureOf } from "./file-signature.ts";
import { nobodyUnavailable, runAsNobody } from "../../tests/support/as-nobody.ts";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** The reference order: UTF-8 bytes, as `ls` sorts in the C locale. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe("compareBytes", () => {
  test("ASCII: upper case before lower case, '.' before digits and '-'", () => {
    const names = ["p-claude.md", "Task.md", "task.md", "a10.md", "a1.md", "a-b.md", "_x.md"];
    assert.deepEqual([...names].sort(compareBytes), [
      "Task.md",
      "_x.md",
      "a-b.md",
      "a1.md",
      "a10.md",
      "p-claude.md",
      "task.md",
    ]);
  });

  test("a character outside the BMP sorts after every BMP character (UTF-16 order disagrees)", () => {
    const emoji = "\u{1F600}.md"; // UTF-16 starts with 0xD83D; UTF-8 with 0xF0
    const halfwidth = "\uFF61.md"; // U+FF61: above the surrogates in UTF-16, below U+1F600
    assert.ok(emoji < halfwidth, "plain < compares UTF-16 units");
    assert.ok(compareBytes(halfwidth, emoji) < 0);
    assert.ok(compareBytes(emoji, halfwidth) > 0);
    // Two non-BMP characters with the same high surrogate differ in the low one.
    assert.ok(compareBytes("\u{1F600}", "\u{1F601}") < 0);
    assert.ok(compareBytes("\u{10000}", "\u{FFFF}") > 0);
  });

  test("a prefix sorts first; equal strings compare 0", () => {
    assert.ok(compareBytes("abc", "abcd") < 0);
    assert.ok(compareBytes("abcd", "abc") > 0);
    assert.equal(compareBytes("\u{1F600}x", "\u{1F600}x"), 0);
  });

  test("agrees in sign with Buffer.compare of the UTF-8 bytes, for any strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        assert.equal(Math.sign(compareBytes(a, b)), Math.sign(byBytes(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("readDefinitionFolder", () => {
  let root: string;
  let dir: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "xcsh-read-files-"));
    dir = join(root, "agents");
    mkdirSync(dir);
    const write = (name: string, text: string | Buffer) => writeFileSync(join(dir, name), text);
    write("b.md", "B");
    write("Task.md", "Task");
    write("task.md", "task");
    write("\u{1F600}.md", "emoji");
    write("\uFF61.md", "halfwidth");
    write("z.toml", "toml");
    write("notes.txt", "ignored");
    write("README", "ignored");
    write("exact.md", "x".repeat(MAX_AGENT_FILE_BYTES));
    write("over.md", "x".repeat(MAX_AGENT_FILE_BYTES + 1));
    write("latin1.md", Buffer.from("caf\u00e9", "latin1"));
    write("bom.md", "\uFEFFwith a byte-order mark");
    mkdirSync(join(dir, "folder.md"));
    writeFileSync(join(dir, "folder.md", "inner.md"), "never read");
    symlinkSync("b.md", join(dir, "link.md"));
    symlinkSync("missing.md", join(dir, "dangling.md"));
    symlinkSync("loop2.md", join(dir, "loop1.md"));
    symlinkSync("loop1.md", join(dir, "loop2.md"));
    symlinkSync("folder.md", join(dir, "dirlink.md"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("reads the chosen extensions in byte order, skipping each bad entry with one warning", async () => {
    const read = await readDefinitionFolder(dir, [".md"]);
    assert.equal(read.exists, true);
    assert.deepEqual(read.files.map((f) => f.path.slice(dir.length + 1)), [
      "Task.md",
      "b.md",
      "bom.md",
      "exact.md",
      "link.md",
      "task.md",
      "\uFF61.md",
      "\u{1F600}.md",
    ]);
    assert.equal(read.files.find((f) => f.path.endsWith("link.md"))!.text, "B");
    assert.equal(read.files.find((f) => f.path.endsWith("Task.md"))!.text, "Task");
    assert.deepEqual(
      read.warnings.map((w) => [w.level, w.file!.slice(dir.length + 1), w.message]),
      [
        ["warning", "dangling.md", "skipped: dangling symlink (its target does not exist)"],
        ["warning", "dirlink.md", "skipped: is a folder, not a file"],
        ["warning", "folder.md", "skipped: is a folder, not a file"],
        ["warning", "latin1.md", "skipped: file is not valid UTF-8 text"],
        ["warning", "loop1.md", "skipped: symlink loop"],
        ["warning", "loop2.md", "skipped: symlink loop"],
        ["warning", "over.md", "skipped: file is 1.0 MiB, over the 1 MiB limit"],
      ],
    );
  });

  test("checked, nothing known: what the plain reader gives, settled files signed", async () => {
    const later = () => Date.now() + 60_000;
    const plain = await readDefinitionFolder(dir, [".md"]);
    const checked = await readDefinitionFolderChecked(dir, [".md"], () => false, later);
    assert.deepEqual(checked.warnings, plain.warnings);
    assert.deepEqual(
      checked.files.map((f) => ["text" in f ? f.text : "?", f.path]),
      plain.files.map((f) => [f.text, f.path]),
    );
    for (const f of checked.files) {
      assert.ok("signature" in f, f.path);
      assert.deepEqual(f.signature, signatureOf(statSync(f.path)), f.path);
    }
  });

  test("signed: what the plain reader gives, each settled file with its stat's signature", async () => {
    const later = () => Date.now() + 60_000;
    const plain = await readDefinitionFolder(dir, [".md", ".toml"]);
    const signed = await readDefinitionFolderSigned(dir, [".md", ".toml"], later);
    assert.deepEqual(signed.warnings, plain.warnings);
    assert.deepEqual(
      signed.files.map((f) => [f.text, f.path]),
      plain.files.map((f) => [f.text, f.path]),
    );
    for (const f of signed.files) {
      assert.deepEqual(f.signature, signatureOf(statSync(f.path)), f.path);
    }
    const fresh = await readDefinitionFolderSigned(dir, [".md"]);
    assert.ok(fresh.files.length > 0);
    for (const f of fresh.files) assert.ok(!("signature" in f), `${f.path}: not settled`);
    assert.deepEqual(
      await readDefinitionFolderSigned(join(root, "none"), [".md"]),
      await readDefinitionFolder(join(root, "none"), [".md"]),
    );
  });

  test("checked: files written a moment ago carry no signature (not settled)", async () => {
    const checked = await readDefinitionFolderChecked(dir, [".md"], () => false);
    assert.ok(checked.files.length > 0);
    for (const f of checked.files) assert.ok(!("signature" in f), f.path);
  });

  test("checked: a file the caller knows is not read; only settled plain files are asked", async () => {
    const asked: [string, FileSignature][] = [];
    const checked = await readDefinitionFolderChecked(
      dir,
      [".md"],
      (path, sig) => {
        asked.push([path, sig]);
        return path.endsWith("/b.md");
      },
      () => Date.now() + 60_000,
    );
    const b = checked.files.find((f) => f.path.endsWith("/b.md"))!;
    assert.deepEqual(b, {
      path: join(dir, "b.md"),
      known: signatureOf(statSync(join(dir, "b.md"))),
    });
    const names = asked.map(([p]) => p.slice(dir.length + 1)).sort();
    assert.deepEqual(
      names,
      [
        "Task.md",
        "b.md",
        "bom.md",
        "exact.md",
        "latin1.md",
        "link.md",
        "task.md",
        "\uFF61.md",
        "\u{1F600}.md",
      ].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
    );
    assert.equal(checked.files.length, (await readDefinitionFolder(dir, [".md"])).files.length);
  });

  test("codex folders add .toml files into the same byte order", async () => {
    const read = await readDefinitionFolder(dir, [".md", ".toml"]);
    const names = read.files.map((f) => f.path.slice(dir.length + 1));
    assert.deepEqual(names.slice(-3), ["z.toml", "\uFF61.md", "\u{1F600}.md"]);
    assert.ok(!names.includes("notes.txt") && !names.includes("README"));
  });

  test("a missing folder is empty and silent", async () => {
    const read = await readDefinitionFolder(join(root, "nope"), [".md"]);
    assert.deepEqual(read, { files: [], warnings: [], exists: false });
  });

  test("a path that is a file is empty, with one warning naming it", async () => {
    const read = await readDefinitionFolder(join(dir, "b.md"), [".md"]);
    assert.deepEqual(read.files, []);
    assert.equal(read.exists, false);
    assert.deepEqual(read.warnings, [{
      level: "warning",
      file: join(dir, "b.md"),
      message: "is a file, not a folder; nothing read from it",
    }]);
  });

  test("a FIFO named x.md is skipped instead of blocking discovery", async () => {
    const fifoDir = join(root, "fifo");
    mkdirSync(fifoDir);
    writeFileSync(join(fifoDir, "a.md"), "A");
    const made = spawnSync("mkfifo", [join(fifoDir, "pipe.md")]);
    assert.equal(made.status, 0, "mkfifo failed");
    symlinkSync("pipe.md", join(fifoDir, "to-pipe.md"));
    const read = await readDefinitionFolder(fifoDir, [".md"]);
    assert.deepEqual(read.files.map((f) => f.text), ["A"]);
    assert.deepEqual(read.warnings.map((w) => w.message), [
      "skipped: is not a regular file",
      "skipped: is not a regular file",
    ]);
  });

  test("unreadable file and folder: one warning each (as nobody when root)", {
    skip: isRoot ? nobodyUnavailable() ?? false : false,
  }, async () => {
    const locked = join(root, "locked");
    mkdirSync(locked);
    writeFileSync(join(locked, "secret.md"), "x");
    chmodSync(join(locked, "secret.md"), 0o000);
    // Root reads through permission bits: then the reads run as nobody.
    const url = import.meta.resolve("./read-files.ts");
    const messages = async (): Promise<{ exists: boolean; messages: string[] }> => {
      if (!isRoot) {
        const r = await readDefinitionFolder(locked, [".md"]);
        return { exists: r.exists, messages: r.warnings.map((w) => w.message) };
      }
      chmodSync(root, 0o755);
      return JSON.parse(runAsNobody(
        `const { readDefinitionFolder } = await import(${JSON.stringify(url)});\n` +
          `const r = await readDefinitionFolder(${JSON.stringify(locked)}, [".md"]);\n` +
          `console.log(JSON.stringify({ exists: r.exists, messages: r.warnings.map((w) => w.message) }));`,
      ));
    };
    assert.deepEqual((await messages()).messages, ["skipped: permission denied"]);
    chmodSync(locked, 0o000);
    try {
      const folder = await messages();
      assert.equal(folder.exists, true);
      assert.deepEqual(folder.messages, ["cannot read folder (permission denied)"]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  test("the same folder read three times at once: every file, always in byte order", async () => {
    const many = join(root, "many");
    mkdirSync(many);
    const names = Array.from({ length: 600 }, (_, i) => `m${(i * 37) % 600}.md`);
    for (const n of names) writeFileSync(join(many, n), n);
    const reads = await Promise.all([1, 2, 3].map(() => readDefinitionFolder(many, [".md"])));
    for (const read of reads) {
      assert.deepEqual(read.warnings, []);
      assert.deepEqual(read.files.map((f) => f.text), [...names].sort(byBytes));
    }
  });
});

describe("readSourceFile", () => {
  test("a missing file gives a reason, not an exception", async () => {
    const r = await readSourceFile(join(tmpdir(), "xcsh-definitely-missing", "x.md"));
    assert.equal(typeof r, "string");
  });
});

describe("a project's folder: files must really lie inside it", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-within-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const project = join(root, "p");
  const dir = join(project, ".claude", "agents");
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, "out"));
  writeFileSync(join(root, "out", "secret.md"), "SECRET\n");
  writeFileSync(join(project, "shared.md"), "shared\n");
  writeFileSync(join(dir, "plain.md"), "plain\n");
  symlinkSync(join(root, "out", "secret.md"), join(dir, "leak.md"));
  symlinkSync(join(project, "shared.md"), join(dir, "inside.md"));
  const names = (files: { path: string }[]) => files.map((f) => f.path.split("/").at(-1));

  test("a link out is skipped with a warning; links inside and plain files are read", async () => {
    for (
      const read of [
        await readDefinitionFolder(dir, [".md"], project),
        await readDefinitionFolderSigned(dir, [".md"], Date.now, project),
        await readDefinitionFolderChecked(dir, [".md"], () => false, Date.now, project),
      ]
    ) {
      assert.deepEqual(names(read.files), ["inside.md", "plain.md"]);
      assert.equal(read.warnings.length, 1);
      assert.match(read.warnings[0].message, /skipped: leads outside the folder it was found in/);
    }
    const unchecked = await readDefinitionFolder(dir, [".md"]);
    assert.deepEqual(names(unchecked.files), ["inside.md", "leak.md", "plain.md"]);
  });

  test("a folder that is itself a link out gives nothing", async () => {
    const other = join(root, "q");
    mkdirSync(join(other, ".claude"), { recursive: true });
    symlinkSync(join(root, "out"), join(other, ".claude", "agents"));
    const read = await readDefinitionFolder(join(other, ".claude", "agents"), [".md"], other);
    assert.deepEqual(read.files, []);
    assert.match(read.warnings[0].message, /leads outside .*; nothing read from it/);
  });
});
