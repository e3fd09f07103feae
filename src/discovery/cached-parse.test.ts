// Unit tests for cachedParse and readCachedFolder: the same text is not
// parsed again, a changed one is; a parse that needs a parser keeps nothing
// until it has its result; and a folder read through the disk cache gives
// the same agents and warnings, once each, when a file in it needs the full
// YAML parser.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  agentOutcome,
  cachedParse,
  finishRound,
  loadDefinitionParser,
  readCachedFolder,
  startRound,
} from "./cached-parse.ts";
import { parseAgentFile } from "./agent-file.ts";
import { forgetParsers, isNeedsParser, loadParsers } from "../formats/full-parsers.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-cached-parse-"));
before(loadDefinitionParser);
after(async () => {
  await loadParsers();
  rmSync(root, { recursive: true, force: true });
});

const origin = { family: "xcsh", source: "project" } as const;
const md = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent\n${extra}---\nDo ${name}.\n`;

describe("cachedParse", () => {
  test("the same text gives the same parse; a changed text a new one", () => {
    const path = join(root, "same.md");
    const first = cachedParse({ path, text: md("a") }, origin);
    assert.equal(cachedParse({ path, text: md("a") }, origin), first);
    const changed = cachedParse({ path, text: md("b") }, origin);
    assert.notEqual(changed, first);
    assert.ok(!isNeedsParser(changed) && changed.agent?.name === "b");
  });

  test("another origin of the same file is parsed for that origin", () => {
    const path = join(root, "origin.md");
    const a = cachedParse({ path, text: md("a") }, origin);
    const b = cachedParse({ path, text: md("a") }, { family: "claude", source: "user" });
    assert.ok(!isNeedsParser(a) && !isNeedsParser(b));
    assert.equal(a.agent?.family, "xcsh");
    assert.equal(b.agent?.family, "claude");
  });

  test("a file that needs the YAML parser keeps nothing until it is parsed", async () => {
    forgetParsers();
    const file = { path: join(root, "anchored.md"), text: md("c", "alias: &x y\nagain: *x\n") };
    assert.ok(isNeedsParser(cachedParse(file, origin)));
    assert.ok(isNeedsParser(cachedParse(file, origin)), "no NeedsParser was kept as the parse");
    const outcome = await agentOutcome(file, origin);
    assert.equal(outcome.agent?.name, "c");
    assert.equal(cachedParse(file, origin), cachedParse(file, origin));
  });
});

describe("readCachedFolder", () => {
  test("a folder with a file that needs the full parser: every agent and warning once", async () => {
    const dir = join(root, "agents");
    mkdirSync(dir);
    writeFileSync(join(dir, "1-warns.md"), md("one", "thinking: ultra\n"));
    writeFileSync(join(dir, "2-anchored.md"), md("two", "alias: &x y\nagain: *x\n"));
    writeFileSync(join(dir, "3-plain.md"), md("three"));
    const e = { cwd: root, home: join(root, "home"), env: { XCSH_CACHE_DIR: join(root, "cache") } };
    const folderOrigin = { ...origin, path: dir };
    const names = (o: { agent?: { name: string } }[]) => o.map((x) => x.agent?.name);

    forgetParsers();
    const round = startRound(e);
    assert.ok(round.check, "a cache folder: files are signed and kept on disk");
    const { outcomes } = await readCachedFolder(folderOrigin, round);
    finishRound(round);
    assert.deepEqual(names(outcomes), ["one", "two", "three"]);
    // Each file's warnings as a parse of it alone gives them: none twice.
    await loadParsers();
    const alone = ["1-warns.md", "2-anchored.md", "3-plain.md"].map((f) => {
      const r = parseAgentFile(
        { path: join(dir, f), text: readFileSync(join(dir, f), "utf8") },
        origin,
      );
      assert.ok(!isNeedsParser(r));
      return r.warnings;
    });
    assert.deepEqual(outcomes.map((o) => o.warnings), alone);
    assert.equal(alone[0].length, 1, "the unknown thinking level");

    // Again, now from the cache: the same outcomes.
    const again = startRound(e);
    const second = await readCachedFolder(folderOrigin, again);
    finishRound(again);
    assert.deepEqual(names(second.outcomes), ["one", "two", "three"]);
    assert.deepEqual(second.outcomes.map((o) => o.warnings), outcomes.map((o) => o.warnings));
  });

  test("a listing takes what the caches hold unread; a changed file is read again", async () => {
    const dir = join(root, "listing");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.md"), md("a"));
    writeFileSync(join(dir, "b.md"), md("b"));
    const e = {
      cwd: root,
      home: join(root, "home"),
      env: { XCSH_CACHE_DIR: join(root, "cache-listing") },
    };
    const folderOrigin = { ...origin, path: dir };
    const first = startRound(e);
    await readCachedFolder(folderOrigin, first);
    finishRound(first);
    // Written with a time far enough back that the signature counts as settled.
    const past = new Date(Date.now() - 60_000);
    for (const f of ["a.md", "b.md"]) utimesSync(join(dir, f), past, past);
    const warm = startRound(e);
    await readCachedFolder(folderOrigin, warm);
    finishRound(warm);

    const listing = startRound(e, { prompts: false });
    const listed = await readCachedFolder(folderOrigin, listing);
    finishRound(listing);
    // Its prompts are what the caches hold: none on disk, those filled in this process.
    assert.deepEqual(listed.outcomes.map((o) => o.agent?.name), ["a", "b"]);
    for (const o of listed.outcomes) {
      assert.ok(["", `Do ${o.agent?.name}.`].includes(o.agent!.systemPrompt));
    }
    // A file that changed is read again, its new fields shown.
    writeFileSync(join(dir, "b.md"), md("b", "model: x/y\n"));
    const changed = startRound(e, { prompts: false });
    const after = await readCachedFolder(folderOrigin, changed);
    finishRound(changed);
    assert.deepEqual(after.outcomes.map((o) => o.agent?.model), [undefined, ["x/y"]]);
    // A run's discovery gets every prompt.
    const run = startRound(e);
    const full = await readCachedFolder(folderOrigin, run);
    finishRound(run);
    assert.deepEqual(full.outcomes.map((o) => o.agent?.systemPrompt), ["Do a.", "Do b."]);
  });
});
