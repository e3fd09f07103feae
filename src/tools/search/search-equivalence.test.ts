// The grep and find tools give the same outcome (output, summary, errors) as
// the earlier implementation kept in tests/support/reference-search, on
// seeded generated trees: nested .gitignore files (negations, directory-only
// and anchored rules), binary, empty, CRLF, non-UTF-8 and over-limit files,
// symlinks to files and folders (inside the tree and out of it), dangling
// symlinks, FIFOs, odd names; for
// literal, regular-expression, alternation and case-insensitive patterns,
// caps, globs, sub-folders and single files.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { rng } from "../../../bench/generate.ts";
import { findTool } from "./find.ts";
import { GREP_MAX_FILE_BYTES, grepTool } from "./grep.ts";
import { SHARE } from "./grep-share.ts";
import { unavailableTaskRunner } from "../task.ts";
import type { ToolContext, ToolSpec } from "../tool-spec.ts";
import { findTool as oldFind } from "../../../tests/support/reference-search/find.ts";
import { grepTool as oldGrep } from "../../../tests/support/reference-search/grep.ts";

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const WORDS = [
  "foo",
  "Foo",
  "FOO",
  "bar",
  "needle",
  "TODO",
  "FIXME",
  "café",
  "x1",
  "id_42",
  "==",
  "(a)",
];
const NAMES = ["a", "b", "src", "lib", "node_modules", "dist", "x.log", "keep.log", "é", "sp ace"];
const EXTS = [".ts", ".js", ".md", ".json", ".log", ".txt", ""];
const RULES = [
  "*.log",
  "!keep.log",
  "dist/",
  "/lib",
  "node_modules",
  "src/*.md",
  "**/gen",
  "*.t[sx]",
  "!b*.ts",
  "#comment",
  "[z-a]",
  "a/**/x*",
];

/** A line of text, now and then with an odd ending or character. */
function line(r: Rand): string {
  const n = Math.floor(r() * 6);
  const words = Array.from({ length: n }, () => pick(r, WORDS));
  const k = r();
  if (k < 0.05) words.push("\r");
  if (k > 0.97) words.push("\u2028x");
  return words.join(pick(r, [" ", "", "\t", "  "]));
}

function fileBytes(r: Rand): Buffer {
  const k = r();
  if (k < 0.05) return Buffer.from([0x66, 0x6f, 0x6f, 0, 1, 2]); // binary
  if (k < 0.08) return Buffer.alloc(0);
  if (k < 0.12) return Buffer.from([0x66, 0x6f, 0x6f, 0xe9, 0x0a, 0xc3, 0x28, 0x66, 0x6f, 0x6f]);
  const lines = Array.from({ length: 1 + Math.floor(r() * 30) }, () => line(r));
  const eol = r() < 0.2 ? "\r\n" : "\n";
  const end = r() < 0.5 ? eol : "";
  return Buffer.from(lines.join(eol) + end, "utf8");
}

/** Writes a random tree under `dir`; returns the folders it made. */
function makeTree(dir: string, seed: number): string[] {
  const r = rng(seed);
  const folders = [""];
  mkdirSync(join(dir, ".git"), { recursive: true });
  for (let i = 0; i < 12; i++) {
    const parent = pick(r, folders);
    const f = parent === "" ? pick(r, NAMES) : `${parent}/${pick(r, NAMES)}`;
    mkdirSync(join(dir, f), { recursive: true });
    if (!folders.includes(f)) folders.push(f);
  }
  for (let i = 0; i < 40; i++) {
    const f = pick(r, folders);
    const name = pick(r, NAMES) + pick(r, EXTS);
    const abs = join(dir, f, name);
    try {
      writeFileSync(abs, fileBytes(r));
    } catch { /* a folder of that name */ }
  }
  for (const f of folders) {
    if (r() < 0.4) {
      const rules = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(r, RULES));
      writeFileSync(join(dir, f, ".gitignore"), rules.join(r() < 0.5 ? "\n" : "\r\n") + "\n");
    }
  }
  const put = (rel: string, make: () => void) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    try {
      make();
    } catch { /* already there */ }
  };
  if (process.platform !== "win32") {
    put(
      `${pick(r, folders)}/link-to-file.ts`,
      () => symlinkSync(join(dir, "target.ts"), join(dir, `${pick(r, folders)}/link-to-file.ts`)),
    );
    writeFileSync(join(dir, "target.ts"), "foo needle\n");
    put("linkdir", () => symlinkSync(join(dir, folders[folders.length - 1]), join(dir, "linkdir")));
    put("dangling.ts", () => symlinkSync(join(dir, "nowhere"), join(dir, "dangling.ts")));
    // Links that lead out of the tree: listed by find, never searched by grep.
    const outside = join(dirname(dir), "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "secret.ts"), "foo needle outside\n");
    put(
      `${pick(r, folders)}/out.ts`,
      () => symlinkSync(join(outside, "secret.ts"), join(dir, `${pick(r, folders)}/out.ts`)),
    );
    put("outdir", () => symlinkSync(outside, join(dir, "outdir")));
    if (seed % 3 === 0) spawnSync("mkfifo", [join(dir, pick(r, folders), "fifo.ts")]);
  }
  return folders;
}

function context(cwd: string, roots?: string[]): ToolContext {
  return {
    cwd,
    ...(roots ? { roots } : {}),
    signal: new AbortController().signal,
    env: {},
    findings: [],
    runTask: unavailableTaskRunner,
  };
}

async function same(now: ToolSpec, before: ToolSpec, args: object, ctx: ToolContext) {
  const a = await now.run(args, ctx);
  const b = await before.run(args, ctx);
  assert.deepEqual(a, b, `${now.name} ${JSON.stringify(args)} in ${ctx.cwd}`);
  return a;
}

const PATTERNS = [
  "foo",
  "Foo",
  "needle",
  "café",
  "fo+",
  "^foo",
  "foo$",
  "^$",
  "\\bbar\\b",
  "TODO|FIXME",
  "x1|id_\\d+",
  "colou?r|foo",
  "\\(a\\)",
  "[A-Z]{3}",
  "(?<=foo )bar",
  "\\r",
  "\\u2028",
  ".",
  "o\\s+b",
  "==",
];
const GLOBS = [undefined, "*.ts", "**/*.md", "src/**", "*.{ts,js}", "a*", "?.log"];

describe("grep and find give the earlier implementation's results", () => {
  let root = "";
  const trees: { dir: string; folders: string[] }[] = [];
  before(() => {
    root = mkdtempSync(join(tmpdir(), "xcsh-equiv-"));
    for (let seed = 1; seed <= 12; seed++) {
      const dir = join(root, `t${seed}`);
      mkdirSync(dir);
      trees.push({ dir, folders: makeTree(dir, seed) });
    }
    // One tree with over-limit files, and one big file with many lines.
    const big = trees[0].dir;
    writeFileSync(join(big, "huge.txt"), "foo\n" + "x".repeat(GREP_MAX_FILE_BYTES));
    const many = Array.from({ length: 5000 }, (_, i) => (i % 97 === 0 ? `foo ${i}` : `line ${i}`));
    writeFileSync(join(big, "many.txt"), many.join("\n"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("grep: every pattern, with and without ignore_case, caps and globs", async () => {
    for (const [k, { dir, folders }] of trees.entries()) {
      const r = rng(100 + k);
      const ctx = context(dir);
      for (const pattern of PATTERNS) {
        await same(grepTool, oldGrep, { pattern }, ctx);
        await same(grepTool, oldGrep, { pattern, ignore_case: true }, ctx);
        const max_results = pick(r, [1, 2, 5, 1000]);
        const glob = pick(r, GLOBS);
        await same(grepTool, oldGrep, { pattern, max_results, ...(glob ? { glob } : {}) }, ctx);
        await same(grepTool, oldGrep, { pattern, path: pick(r, folders) || "." }, ctx);
      }
      await same(grepTool, oldGrep, { pattern: "(" }, ctx);
      await same(grepTool, oldGrep, { pattern: "foo", path: "nope" }, ctx);
    }
  });

  test("grep shared with a worker thread (thresholds lowered): the same results", async () => {
    const saved = { ...SHARE };
    // Nothing or a few files searched during the walk; batches of one file
    // or a few; a worker from the first file, from a few, or never.
    const settings = [
      { inlineFiles: 0, batch: 1, workerFrom: 1 },
      { inlineFiles: 3, batch: 4, workerFrom: 6 },
      { inlineFiles: 2, batch: 2, workerFrom: 1_000_000 },
    ];
    try {
      for (const setting of settings) {
        Object.assign(SHARE, setting);
        for (const [k, { dir, folders }] of trees.entries()) {
          const r = rng(300 + k);
          const ctx = context(dir);
          for (const pattern of PATTERNS.slice(0, 8)) {
            await same(grepTool, oldGrep, { pattern }, ctx);
            await same(grepTool, oldGrep, { pattern, ignore_case: true, max_results: 1000 }, ctx);
            const max_results = pick(r, [1, 2, 5, 1000]);
            const glob = pick(r, GLOBS);
            await same(grepTool, oldGrep, { pattern, max_results, ...(glob ? { glob } : {}) }, ctx);
            await same(grepTool, oldGrep, { pattern, path: pick(r, folders) || "." }, ctx);
          }
        }
      }
    } finally {
      Object.assign(SHARE, saved);
    }
  });

  test("grep: single files, over-limit files and a file of many lines", async () => {
    const ctx = context(trees[0].dir);
    for (const path of ["huge.txt", "many.txt", "target.ts", "link-to-file.ts", "dangling.ts"]) {
      await same(grepTool, oldGrep, { pattern: "foo", path }, ctx);
      await same(grepTool, oldGrep, { pattern: "FOO \\d+7$", path, ignore_case: true }, ctx);
    }
    await same(grepTool, oldGrep, { pattern: "foo", max_results: 1000 }, ctx);
  });

  test("searches from a sub-folder reaching out of it: `..`, absolute paths, symlinks, and past the project (refused)", async () => {
    for (const { dir, folders } of trees.slice(0, 6)) {
      const inner = folders[folders.length - 1];
      if (inner === "") continue;
      // The tree is the project; the working directory one of its folders.
      const ctx = context(join(dir, inner), [dir]);
      for (const path of ["..", dir, join(dir, "linkdir"), "../..", ".", join(dir, "..")]) {
        await same(grepTool, oldGrep, { pattern: "foo|needle", path, max_results: 1000 }, ctx);
        const found = await same(findTool, oldFind, { pattern: "*", path, max_results: 1000 }, ctx);
        await same(findTool, oldFind, { pattern: "**/*.ts", path }, ctx);
        if (path === dir) assert.equal(found.ok, true);
        if (path === join(dir, "..")) assert.match(found.output, /outside/);
      }
    }
  });

  test("find: globs, caps and sub-folders", async () => {
    const globs = [
      "*",
      "*.ts",
      "**/*.md",
      "src/**",
      "*.{ts,js}",
      "**",
      "a/**/b*",
      "[!a]*",
      "*.log",
    ];
    for (const { dir, folders } of trees) {
      const ctx = context(dir);
      for (const pattern of globs) {
        await same(findTool, oldFind, { pattern }, ctx);
        await same(findTool, oldFind, { pattern, max_results: 3 }, ctx);
        await same(findTool, oldFind, { pattern, path: folders[folders.length - 1] }, ctx);
      }
      // An invalid class: both throw (the registry turns it into an error outcome).
      const attempt = (t: ToolSpec) =>
        t.run({ pattern: "[z-a]" }, ctx).then(() => "returned", (e: Error) => e.message);
      const now = await attempt(findTool);
      assert.match(now, /range out of order/i);
      assert.equal(now, await attempt(oldFind));
    }
  });
});
