// Every file tool stays inside the project folder and the additional
// folders: `..`, absolute paths and symlinks (dangling ones too) that lead
// outside are refused with a tool error; paths inside work, symlinks that
// stay inside included.
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
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { confine, realLocation } from "./confine.ts";
import { confinedFolder } from "../fs/confined-folder.ts";
import { editTool } from "./edit.ts";
import { findTool } from "./search/find.ts";
import { grepTool } from "./search/grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { writeTool } from "./write.ts";

const unix = process.platform === "win32" ? "symlinks need privileges on Windows" : false;

describe("file tools confined to the project", { skip: unix }, () => {
  const outside = mkdtempSync(join(tmpdir(), "xcsh-outside-"));
  writeFileSync(join(outside, "secret.txt"), "SECRET-LINE\n");
  mkdirSync(join(outside, "dir"));
  const extra = mkdtempSync(join(tmpdir(), "xcsh-extra-"));
  writeFileSync(join(extra, "shared.txt"), "shared\n");
  const sb = sandbox({ "a.txt": "alpha\n", "sub/b.txt": "beta SECRET-LINE\n" });
  symlinkSync(join(outside, "secret.txt"), join(sb.dir, "leak.txt"));
  symlinkSync(outside, join(sb.dir, "leakdir"));
  symlinkSync(join(outside, "new.txt"), join(sb.dir, "dangling.txt"));
  symlinkSync(join(sb.dir, "a.txt"), join(sb.dir, "alias.txt"));
  after(() => {
    sb.remove();
    rmSync(outside, { recursive: true, force: true });
    rmSync(extra, { recursive: true, force: true });
  });
  const rel = `../${outside.split("/").at(-1)}/secret.txt`;

  const refusals: [string, () => Promise<{ ok: boolean; output: string }>][] = [
    ["read ..", () => readTool.run({ path: rel }, sb.ctx)],
    ["read absolute", () => readTool.run({ path: join(outside, "secret.txt") }, sb.ctx)],
    ["read symlink", () => readTool.run({ path: "leak.txt" }, sb.ctx)],
    ["read via symlinked dir", () => readTool.run({ path: "leakdir/secret.txt" }, sb.ctx)],
    ["ls ..", () => lsTool.run({ path: ".." }, sb.ctx)],
    ["ls symlinked dir", () => lsTool.run({ path: "leakdir" }, sb.ctx)],
    ["find outside", () => findTool.run({ pattern: "*", path: outside }, sb.ctx)],
    ["grep outside", () => grepTool.run({ pattern: "SECRET", path: outside }, sb.ctx)],
    ["grep symlink", () => grepTool.run({ pattern: "SECRET", path: "leak.txt" }, sb.ctx)],
    [
      "edit outside",
      () => editTool.run({ path: "leak.txt", old_string: "SECRET", new_string: "x" }, sb.ctx),
    ],
    ["write ..", () => writeTool.run({ path: "../escape.txt", content: "x" }, sb.ctx)],
    [
      "write via symlinked dir",
      () => writeTool.run({ path: "leakdir/w.txt", content: "x" }, sb.ctx),
    ],
    ["write dangling symlink", () => writeTool.run({ path: "dangling.txt", content: "x" }, sb.ctx)],
  ];
  for (const [name, run] of refusals) {
    test(`${name}: refused, naming the project folder`, async () => {
      const r = await run();
      assert.equal(r.ok, false);
      assert.match(r.output, /is outside the project folder .*: the file tools work only there/);
    });
  }

  test("nothing was written or changed outside", () => {
    assert.equal(existsSync(join(outside, "new.txt")), false, "the dangling link's target");
    assert.equal(existsSync(join(outside, "dir", "w.txt")), false);
    assert.equal(existsSync(join(sb.dir, "..", "escape.txt")), false);
  });

  test("a directory search skips symlinks that lead outside", async () => {
    const r = await grepTool.run({ pattern: "SECRET-LINE" }, sb.ctx);
    assert.equal(r.ok, true);
    assert.match(r.output, /sub\/b\.txt:1:/);
    assert.doesNotMatch(r.output, /leak/);
  });

  test("paths inside work: relative, absolute, .. back in, a symlink staying inside", async () => {
    assert.equal((await readTool.run({ path: "a.txt" }, sb.ctx)).output, "1\talpha");
    assert.equal((await readTool.run({ path: join(sb.dir, "a.txt") }, sb.ctx)).ok, true);
    assert.equal((await readTool.run({ path: "sub/../a.txt" }, sb.ctx)).ok, true);
    assert.equal((await readTool.run({ path: "alias.txt" }, sb.ctx)).output, "1\talpha");
    assert.equal((await writeTool.run({ path: "new/c.txt", content: "c" }, sb.ctx)).ok, true);
    assert.equal((await lsTool.run({}, sb.ctx)).ok, true);
  });

  test("task.additionalDirectories are allowed too", async () => {
    const ctx = { ...sb.ctx, roots: [sb.dir, extra] };
    assert.equal(
      (await readTool.run({ path: join(extra, "shared.txt") }, ctx)).output,
      "1\tshared",
    );
    const r = await readTool.run({ path: join(outside, "secret.txt") }, ctx);
    assert.match(r.output, /and task\.additionalDirectories \(/);
  });

  test("roots are used as resolved at the start: one swapped for a symlink does not move", async () => {
    const mem = join(realpathSync(sb.dir), "mem");
    mkdirSync(mem);
    const ctx = { ...sb.ctx, roots: [realpathSync(sb.dir), mem] };
    assert.equal((await writeTool.run({ path: join(mem, "n.md"), content: "n" }, ctx)).ok, true);
    rmSync(mem, { recursive: true });
    symlinkSync(outside, mem);
    const r = await writeTool.run({ path: join(mem, "swapped.txt"), content: "x" }, ctx);
    assert.match(r.output, /is outside the project folder/);
    assert.equal(existsSync(join(outside, "swapped.txt")), false);
  });

  test("write and edit refuse a read-only folder (by path, or renamed); read may use it", async () => {
    mkdirSync(join(sb.dir, ".claude", "skills", "s"), { recursive: true });
    writeFileSync(join(sb.dir, ".claude", "skills", "s", "SKILL.md"), "body\n");
    const folder = confinedFolder(sb.dir, ".claude/skills", { kind: "skill", where: "here" });
    assert.ok(folder.ok);
    const ctx = { ...sb.ctx, folders: { writable: [], readOnly: [folder.value] } };
    const file = ".claude/skills/s/SKILL.md";
    const w = await writeTool.run({ path: file, content: "x" }, ctx);
    assert.match(w.output, /is in the skill folder .*: skill folders are read-only/);
    const e = await editTool.run({ path: file, old_string: "body", new_string: "x" }, ctx);
    assert.match(e.output, /skill folders are read-only/);
    assert.equal((await readTool.run({ path: file }, ctx)).output, "1\tbody");
    renameSync(join(sb.dir, ".claude"), join(sb.dir, ".moved"));
    const moved = await writeTool.run({ path: ".moved/skills/s/new.md", content: "x" }, ctx);
    assert.match(moved.output, /skill folders are read-only/);
    assert.equal(existsSync(join(sb.dir, ".moved", "skills", "s", "new.md")), false);
  });

  test("with a write lane, write and edit change only paths that match it", async () => {
    const root = realpathSync(sb.dir);
    mkdirSync(join(sb.dir, "lane", "src"), { recursive: true });
    mkdirSync(join(sb.dir, "lane", "docs"), { recursive: true });
    writeFileSync(join(sb.dir, "lane", "docs", "d.md"), "doc\n");
    // A link inside the lane to a file outside it: its real place decides.
    symlinkSync(join(sb.dir, "lane", "docs", "d.md"), join(sb.dir, "lane", "src", "link.md"));
    const ctx = { ...sb.ctx, lane: { root, globs: ["lane/src/**"] } };
    const ok = await writeTool.run({ path: "lane/src/a.ts", content: "a" }, ctx);
    assert.equal(ok.ok, true, ok.output);
    const out = await writeTool.run({ path: "lane/docs/x.md", content: "x" }, ctx);
    assert.match(
      out.output,
      /lane\/docs\/x\.md is outside this task's write lane \(lane\/src\/\*\*\)/,
    );
    assert.equal(existsSync(join(sb.dir, "lane", "docs", "x.md")), false);
    const linked = await editTool.run(
      { path: "lane/src/link.md", old_string: "doc", new_string: "x" },
      ctx,
    );
    assert.match(linked.output, /outside this task's write lane/);
    // The lane's root itself matches no glob.
    assert.equal((await confine(ctx, ".")).ok, false);
    // Reading is not confined by the lane.
    assert.equal((await readTool.run({ path: "lane/docs/d.md" }, ctx)).output, "1\tdoc");
  });

  test("realLocation follows a dangling symlink to its target; a loop is an error", async () => {
    const real = await realLocation(join(sb.dir, "dangling.txt"));
    assert.equal(real, join(await realLocation(outside), "new.txt"));
    symlinkSync(join(sb.dir, "loop2"), join(sb.dir, "loop1"));
    symlinkSync(join(sb.dir, "loop1"), join(sb.dir, "loop2"));
    const r = await confine(sb.ctx, "loop1");
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error.output : "", /too many levels of symbolic links/);
  });
});
