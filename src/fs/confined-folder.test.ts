// Whether a folder lies where it belongs: no symlink on the way, made when
// asked, the same folder again later, and files that lead out of it.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { confinedFolder, fileInside, inFolders, stillThere } from "./confined-folder.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-confined-")));
after(() => rmSync(root, { recursive: true, force: true }));
const rule = { kind: "memory", where: "the project" };

function fresh(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "p"), { recursive: true });
  mkdirSync(join(dir, "out"), { recursive: true });
  return dir;
}

function value<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe("confinedFolder", () => {
  test("a real folder: its path and identity", () => {
    const d = fresh("real");
    mkdirSync(join(d, "p", "a", "b"), { recursive: true });
    const f = value(confinedFolder(join(d, "p"), "a/b", rule));
    assert.equal(f.path, join(d, "p", "a", "b"));
    assert.ok(f.id.ino > 0);
  });

  test("missing: refused as missing, or made when asked (0700)", () => {
    const d = fresh("make");
    const missing = confinedFolder(join(d, "p"), "a/b", rule);
    assert.deepEqual(missing, {
      ok: false,
      error: "`a` is missing: memory folders must be real folders inside the project",
      missing: true,
    });
    const made = value(confinedFolder(join(d, "p"), "a/b", { ...rule, make: true }));
    assert.ok(existsSync(made.path));
    const first = value(
      confinedFolder(join(d, "new-home", ".claude"), "m", { ...rule, make: true }),
    );
    assert.equal(first.path, join(d, "new-home", ".claude", "m"));
  });

  test("a symlink as the last or a middle component is refused, nothing made past it", () => {
    const d = fresh("links");
    symlinkSync(join(d, "out"), join(d, "p", "last"));
    assert.deepEqual(confinedFolder(join(d, "p"), "last", { ...rule, make: true }), {
      ok: false,
      error: "`last` is a symlink: memory folders must be real folders inside the project",
    });
    const mid = confinedFolder(join(d, "p"), "last/rev", { ...rule, make: true });
    assert.equal(mid.ok, false);
    assert.ok(!existsSync(join(d, "out", "rev")), "nothing made through the link");
    // A link inside the project, to a folder inside it, is refused as well.
    mkdirSync(join(d, "p", "real"));
    symlinkSync(join(d, "p", "real"), join(d, "p", "alias"));
    assert.equal(confinedFolder(join(d, "p"), "alias", rule).ok, false);
  });

  test("a file on the way, or a path leaving the anchor, is refused", () => {
    const d = fresh("file");
    writeFileSync(join(d, "p", "f"), "");
    assert.match(
      (confinedFolder(join(d, "p"), "f", rule) as { error: string }).error,
      /`f` is not a folder/,
    );
    assert.match(
      (confinedFolder(join(d, "p"), "../out", rule) as { error: string }).error,
      /`\.\.\/out` leaves the project/,
    );
    assert.equal(confinedFolder(join(d, "p"), "/etc", rule).ok, false);
  });

  test("the anchor itself may be reached through a link: it is resolved", () => {
    const d = fresh("anchor");
    mkdirSync(join(d, "p", "m"));
    symlinkSync(join(d, "p"), join(d, "via"));
    assert.equal(value(confinedFolder(join(d, "via"), "m", rule)).path, join(d, "p", "m"));
  });
});

describe("stillThere", () => {
  test("the same folder passes; one swapped for a link or replaced is refused", () => {
    const d = fresh("again");
    mkdirSync(join(d, "p", "m"));
    const f = value(confinedFolder(join(d, "p"), "m", rule));
    assert.equal(stillThere(f, rule).ok, true);
    renameSync(join(d, "p", "m"), join(d, "p", "moved"));
    mkdirSync(join(d, "p", "m"));
    assert.match(
      (stillThere(f, rule) as { error: string }).error,
      /is no longer the folder it was when the task started/,
    );
    rmSync(join(d, "p", "m"), { recursive: true });
    symlinkSync(join(d, "out"), join(d, "p", "m"));
    assert.match((stillThere(f, rule) as { error: string }).error, /is a symlink/);
  });
});

describe("inFolders", () => {
  test("by path, and by identity after a folder above it was renamed", () => {
    const d = fresh("in");
    mkdirSync(join(d, "p", ".claude", "skills", "s"), { recursive: true });
    const skills = value(confinedFolder(join(d, "p"), ".claude/skills", rule));
    const inside = join(d, "p", ".claude", "skills", "s", "SKILL.md");
    assert.equal(inFolders(inside, [skills]), skills);
    assert.equal(inFolders(join(d, "p", "README.md"), [skills]), undefined);
    renameSync(join(d, "p", ".claude"), join(d, "p", ".moved"));
    assert.equal(inFolders(join(d, "p", ".moved", "skills", "s", "new.md"), [skills]), skills);
    assert.equal(inFolders(join(d, "p", "x"), []), undefined);
  });
});

describe("fileInside", () => {
  test("a file, a link inside, a link out, none", () => {
    const d = fresh("files");
    mkdirSync(join(d, "p", "m"));
    const f = value(confinedFolder(join(d, "p"), "m", rule));
    writeFileSync(join(d, "p", "m", "notes.md"), "n");
    symlinkSync(join(d, "p", "m", "notes.md"), join(d, "p", "m", "MEMORY.md"));
    assert.deepEqual(fileInside(f, "MEMORY.md"), { ok: true, path: join(f.path, "notes.md") });
    writeFileSync(join(d, "out", "secret"), "s");
    symlinkSync(join(d, "out", "secret"), join(d, "p", "m", "LEAK.md"));
    assert.match(
      (fileInside(f, "LEAK.md") as { error: string }).error,
      /LEAK\.md leads outside its folder/,
    );
    assert.deepEqual(fileInside(f, "NONE.md"), {
      ok: false,
      error: `${join(f.path, "NONE.md")} is missing`,
      missing: true,
    });
    symlinkSync(join(d, "out", "gone"), join(d, "p", "m", "DANGLING.md"));
    assert.match((fileInside(f, "DANGLING.md") as { error: string }).error, /a link to nothing/);
  });
});
