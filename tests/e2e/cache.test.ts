// End-to-end tests of the definition cache through the real binary: where it
// is written and with which permissions, that a later run uses it instead of
// parsing the files (it keeps where each prompt is, not the prompt), that an
// edit is seen even when the file keeps its size and modification time, that
// files written a moment ago are not trusted,
// and that `XCSH_CACHE=off`, a corrupt file, another build's file and an
// unwritable folder all leave discovery exactly right and silent.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runXcshJson } from "../support/cli.ts";

/** A little over the time a file must be left alone before it is trusted. */
const SETTLE_WAIT_MS = 2200;
/** The modification time of a.md, in seconds: an hour ago. */
const A_TIME = Math.floor(Date.now() / 1000) - 3600;

interface Listing {
  agents: { name: string; description: string }[];
}

function agentFile(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\nYou are ${name}.\n`;
}

describe("the definition cache", () => {
  let root: string;
  let home: string;
  let cwd: string;
  let agents: string;
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
  const cacheFolder = () => join(home, ".cache", "xcsh", `definitions-${version}`);

  /** The cache files, each with what it is for (`scope`). */
  function cacheFiles(): { path: string; scope: string }[] {
    return readdirSync(cacheFolder()).map((name) => {
      const path = join(cacheFolder(), name);
      return { path, scope: JSON.parse(readFileSync(path, "utf8")).scope };
    });
  }

  /** The user's cache file: the user's Claude agents folder's, and the build's values. */
  function cacheFile(): string {
    const found = cacheFiles().find((f) => f.scope === "(user)");
    assert.ok(found, "the user's cache file");
    return found.path;
  }

  /** `agents --json` with the cache in its default place (no XCSH_CACHE_DIR). */
  async function list(env: Record<string, string | undefined> = {}) {
    const { result, json } = await runXcshJson<Listing>(["agents", "--json"], {
      cwd,
      home,
      env: { XCSH_CACHE_DIR: undefined, ...env },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "", "the cache never prints anything");
    const mine = json.agents.filter((a) => a.name.startsWith("cached-"));
    return Object.fromEntries(mine.map((a) => [a.name, a.description]));
  }

  function cacheDoc() {
    return JSON.parse(readFileSync(cacheFile(), "utf8"));
  }

  /** The keys of the file's entries (each `[key, signature, day, value]`). */
  function entryKeys(doc: { entries: [string, ...unknown[]][] }): string[] {
    return doc.entries.map((e) => e[0]);
  }

  /** The value the file keeps for `file` (an agent file in the project). */
  // deno-lint-ignore no-explicit-any
  function entryValue(doc: { entries: [string, ...unknown[]][] }, file: string): any {
    const e = doc.entries.find((x) => x[0].endsWith(`\0${join(agents, file)}`));
    assert.ok(e, `an entry for ${file}`);
    return e[3];
  }

  before(async () => {
    root = mkdtempSync(join(tmpdir(), "xcsh-cache-e2e-"));
    home = join(root, "home");
    cwd = join(root, "work");
    agents = join(home, ".claude", "agents");
    mkdirSync(agents, { recursive: true });
    mkdirSync(cwd);
    writeFileSync(join(agents, "a.md"), agentFile("cached-a", "first version"));
    // A whole second, so that the edit below can put back exactly this time.
    utimesSync(join(agents, "a.md"), A_TIME, A_TIME);
    writeFileSync(join(agents, "b.md"), agentFile("cached-b", "bee"));
    await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("the first run writes it, private, one file for the user's, in ~/.cache/xcsh", async () => {
    assert.deepEqual(await list(), { "cached-a": "first version", "cached-b": "bee" });
    const files = cacheFiles();
    for (const f of files) assert.equal(statSync(f.path).mode & 0o777, 0o600, f.path);
    assert.equal(statSync(join(home, ".cache", "xcsh")).mode & 0o777, 0o700);
    assert.equal(statSync(cacheFolder()).mode & 0o777, 0o700);
    assert.equal(files.length, 1, "the user's agents and the build's values share one file");
    const doc = cacheDoc();
    assert.deepEqual(entryKeys(doc).length, 2);
    entryValue(doc, "a.md");
    entryValue(doc, "b.md");
    assert.ok(Array.isArray(doc.constants.bundledAgents), "the bundled agents, parsed once");
  });

  test("a project's folders share one file of their own", async () => {
    const project = join(root, "project");
    for (const family of ["claude", "xcsh"]) {
      mkdirSync(join(project, `.${family}`, "agents"), { recursive: true });
      writeFileSync(
        join(project, `.${family}`, "agents", `${family}.md`),
        agentFile(`cached-${family}`, `${family} here`),
      );
    }
    await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
    const { result } = await runXcshJson<Listing>(["agents", "--json"], {
      cwd: project,
      home,
      env: { XCSH_CACHE_DIR: undefined },
    });
    assert.equal(result.code, 0, result.stderr);
    const mine = cacheFiles().filter((f) => f.scope === `project\0${project}`);
    assert.equal(mine.length, 1, "one file for the project");
    const keys = entryKeys(JSON.parse(readFileSync(mine[0].path, "utf8")));
    assert.equal(keys.length, 2);
    for (const family of ["claude", "xcsh"]) {
      assert.ok(
        keys.some((k) => k.endsWith(`\0${join(project, `.${family}`, "agents", `${family}.md`)}`)),
      );
    }
    rmSync(project, { recursive: true, force: true });
  });

  test("a later run takes unchanged files from it without parsing them again", async () => {
    // Prove the file is not read: change what the cache says, not the file.
    const doc = cacheDoc();
    entryValue(doc, "b.md").agent.description = "from the cache";
    writeFileSync(cacheFile(), JSON.stringify(doc));
    assert.deepEqual(await list(), { "cached-a": "first version", "cached-b": "from the cache" });
  });

  test("an edit is seen even with the same size and modification time", async () => {
    // What `cp -p` or an archive does: new content, same size, old time.
    const path = join(agents, "a.md");
    const before = statSync(path);
    writeFileSync(path, agentFile("cached-a", "first VERSION"));
    utimesSync(path, A_TIME, A_TIME);
    assert.equal(statSync(path).size, before.size);
    assert.equal(statSync(path).mtimeMs, before.mtimeMs);
    assert.equal((await list())["cached-a"], "first VERSION");
    // Also once the edit is old enough to be trusted: the change time differs.
    await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
    assert.equal((await list())["cached-a"], "first VERSION");
  });

  test("a file written a moment ago is read but not trusted yet", async () => {
    writeFileSync(join(agents, "c.md"), agentFile("cached-c", "new"));
    assert.equal((await list())["cached-c"], "new");
    const doc = cacheDoc();
    assert.ok(!entryKeys(doc).some((k) => k.endsWith(`\0${join(agents, "c.md")}`)));
  });

  test("a deleted file disappears at once", async () => {
    rmSync(join(agents, "c.md"));
    assert.equal((await list())["cached-c"], undefined);
  });

  test("another build's cache is not used", async () => {
    const doc = cacheDoc();
    entryValue(doc, "b.md").agent.description = "stale";
    doc.build = "0.0.0 other";
    writeFileSync(cacheFile(), JSON.stringify(doc));
    assert.equal((await list())["cached-b"], "bee");
    assert.notEqual(cacheDoc().build, "0.0.0 other", "rewritten for this build");
  });

  test("a corrupt cache file is ignored and replaced", async () => {
    writeFileSync(cacheFile(), "{ not json");
    assert.equal((await list())["cached-b"], "bee");
    assert.doesNotThrow(() => cacheDoc());
  });

  test("it keeps where each prompt is, not the prompt, and a later run reads it there", async () => {
    await list(); // written again after the corrupt file
    const show = async (env: Record<string, string | undefined> = {}) => {
      const { result, json } = await runXcshJson<{ agent: { systemPrompt: string } }>(
        ["agents", "show", "cached-b", "--json"],
        { cwd, home, env: { XCSH_CACHE_DIR: undefined, ...env } },
      );
      assert.equal(result.code, 0, result.stderr);
      return json.agent.systemPrompt;
    };
    const doc = cacheDoc();
    const entry = entryValue(doc, "b.md");
    assert.equal(entry.agent.systemPrompt, "", "no prompt in the cache file");
    const text = readFileSync(join(agents, "b.md"), "utf8");
    assert.equal(text.slice(entry.promptAt[0], entry.promptAt[1]), "You are cached-b.");
    assert.equal(await show(), "You are cached-b.");
    assert.equal(await show({ XCSH_CACHE: "off" }), "You are cached-b.");
    // The prompt of a cached run comes from the file, at the place kept.
    entry.promptAt = [0, 3];
    writeFileSync(cacheFile(), JSON.stringify(doc));
    assert.equal(await show(), "---");
  });

  test("XCSH_CACHE=off reads everything and writes nothing", async () => {
    rmSync(join(home, ".cache"), { recursive: true, force: true });
    assert.equal((await list({ XCSH_CACHE: "off" }))["cached-b"], "bee");
    assert.ok(!existsSync(join(home, ".cache")));
  });

  test("a cache folder that cannot be created changes nothing", async () => {
    const blocker = join(root, "a-file");
    writeFileSync(blocker, "");
    assert.equal((await list({ XCSH_CACHE_DIR: join(blocker, "cache") }))["cached-b"], "bee");
  });
});
