// Fuzzes agent parsing and discovery .
//
// Parser: 10 000 generated and mutated agent files — random bytes, random text
// between fences, realistic agents with truncations, insertions, CRLF/CR, BOM,
// mojibake, lone surrogates, deep YAML, alias bombs, huge lines, wrongly typed
// fields — through parseFrontmatter, parseAgent and parseAgentFile at every
// level: nothing throws except the documented errors at level `fatal`, every
// diagnostic names the file, a skipped file always says why, and wherever the
// frontmatter fast path takes a block it agrees with `yaml`.
//
// Discovery: 200 generated trees — agents folders full of good, mutated,
// binary, non-UTF-8, empty, over-1-MiB files, folders named `*.md`, symlink
// loops, dangling symlinks and FIFOs, plus garbage or odd
// `installed_plugins.json` and settings files — through discoverAgents:
// it never throws or hangs, and each bad file is named by exactly one warning.
//
// Seeded (FUZZ_SEED overrides the seed); a failure prints the seed to replay.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import {
  FrontmatterError,
  type FrontmatterStatus,
  normalizeText,
  parseFrontmatter as frontmatterOnDemand,
} from "../../src/formats/frontmatter.ts";
import {
  AgentParsingError,
  parseAgent as parseAgentOnDemand,
} from "../../src/discovery/agent-fields.ts";
import { discoverAgents } from "../../src/discovery/discover.ts";
import { parseAgentFile as agentFileOnDemand } from "../../src/discovery/agent-file.ts";
import { markdownAgent, rng, tomlAgent } from "../../bench/generate.ts";
import { check, fastPathAgrees, SEED } from "./support.ts";
import { loadParsers, parsedNow } from "../../src/formats/full-parsers.ts";

// These tests call the parsers synchronously; discovery loads them on demand.
await loadParsers();

/** parseFrontmatter with the parsers loaded above. */
const parseFrontmatter = (...a: Parameters<typeof frontmatterOnDemand>) =>
  parsedNow(frontmatterOnDemand(...a));

/** parseAgent with the parsers loaded above. */
const parseAgent = (...a: Parameters<typeof parseAgentOnDemand>) =>
  parsedNow(parseAgentOnDemand(...a));

/** parseAgentFile with the parsers loaded above. */
const parseAgentFile = (...a: Parameters<typeof agentFileOnDemand>) =>
  parsedNow(agentFileOnDemand(...a));

const FILE = "/fuzz/agents/sample.md";
const STATUSES: FrontmatterStatus[] = ["ok", "fallback", "none", "unterminated", "invalid"];
const MiB = 1024 * 1024;
/** Bun's default of 5 s per test is tight for thousands of cases on a busy machine. */
const SLOW = { timeout: 120_000 };

// ---- Parser invariants -----------------------------------------------------

function isPlainObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a frontmatter block is nothing but distinct `key: value` lines and list items under them. */
function plainKeyLines(text: string): boolean {
  const lines = normalizeText(text).split("\n");
  const end = lines.indexOf("---", 1);
  const keys = new Set<string>();
  let listOpen = false;
  for (const line of lines.slice(1, end)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    if (/^[ \t]+-[ \t]+\S/.test(line) && listOpen) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*))?$/.exec(line);
    if (!m || keys.has(m[1])) return false;
    keys.add(m[1]);
    listOpen = (m[2] ?? "").trim() === "";
  }
  return true;
}

/** Everything the parser promises about any text whatsoever. */
function parserInvariants(text: string): void {
  for (const level of ["warn", "off"] as const) {
    const fm = parseFrontmatter(text, { file: FILE, level });
    assert.ok(STATUSES.includes(fm.status), fm.status);
    assert.ok(isPlainObject(fm.data));
    assert.equal(typeof fm.body, "string");
    if (level === "off") assert.deepEqual(fm.warnings, []);
    else {
      // A block that is not plainly ok says so exactly once; a lenient reading
      // may be silent only when every line of the block is a `key: value` line
      // (or an item of a list under one) and no key repeats.
      const expected = fm.status === "ok" || fm.status === "none" ? 0 : 1;
      if (fm.status === "fallback" && fm.warnings.length === 0) {
        assert.ok(plainKeyLines(text), `silent lenient reading of ${JSON.stringify(text)}`);
      } else assert.equal(fm.warnings.length, expected, JSON.stringify(fm.warnings));
      for (const w of fm.warnings) {
        assert.equal(w.file, FILE);
        assert.equal(w.level, "warning");
      }
    }
  }
  try {
    parseFrontmatter(text, { file: FILE, level: "fatal" });
  } catch (err) {
    assert.ok(err instanceof FrontmatterError, `unexpected ${String(err)}`);
    assert.equal(err.file, FILE);
  }

  const origin = { file: FILE, source: "user", family: "claude" } as const;
  const r = parseAgent(text, origin, "warn");
  if (r.ok) {
    assert.equal(typeof r.value.name, "string");
    assert.ok(r.value.name.trim() !== "");
    assert.equal(typeof r.value.description, "string");
    assert.equal(typeof r.value.systemPrompt, "string");
    assert.equal(r.value.filePath, FILE);
  } else assert.equal(r.error.file, FILE);
  for (const w of r.warnings) assert.equal(w.file, FILE);
  try {
    parseAgent(text, origin, "fatal");
  } catch (err) {
    assert.ok(err instanceof AgentParsingError, `unexpected ${String(err)}`);
    assert.equal(err.file, FILE);
  }

  // Discovery's view of the same text, as Markdown and as Codex TOML.
  for (const path of [FILE, FILE.replace(/\.md$/, ".toml")]) {
    const pf = parseAgentFile({ path, text }, { family: "codex", source: "project" });
    if (!pf.agent) assert.ok(pf.warnings.length >= 1, "a skipped file must say why");
    for (const w of pf.warnings) assert.equal(w.file, path);
  }

  // Wherever the fast path takes the block, it must say what yaml says.
  const src = normalizeText(text);
  if (src.startsWith("---\n")) {
    const close = src.indexOf("\n---", 3);
    if (close > 0) fastPathAgrees(src.slice(4, close + 1));
  }
}

// ---- Generators ------------------------------------------------------------

const realistic = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed) =>
  markdownAgent(rng(seed), `agent-${seed % 1000}`)
);

/** A position in a string, as a fraction of its length. */
const at = fc.double({ min: 0, max: 1, noNaN: true });
const place = (s: string, p: number) => Math.floor(s.length * p);
const insertAt = (s: string, p: number, x: string) =>
  s.slice(0, place(s, p)) + x + s.slice(place(s, p));
/** Inserts `lines` as the second line (inside the frontmatter of a realistic agent). */
const inBlock = (s: string, lines: string) => s.replace("\n", `\n${lines}\n`);

function aliasBomb(levels: number, width: number): string {
  const out = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++) {
    out.push(`a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(",")}]`);
  }
  return out.join("\n");
}

function nestedMap(depth: number): string {
  const out: string[] = [];
  for (let i = 0; i < depth; i++) out.push(`${"  ".repeat(i)}k${i}:`);
  out.push(`${"  ".repeat(depth)}leaf: 1`);
  return out.join("\n");
}

const BAD_LINES = [
  "tools: {a: 1}",
  "name: [a, b]",
  "name: 123",
  "name: my helper",
  "description:",
  "output: '{bad json'",
  "output: 5",
  "model: {x: 1}",
  "spawns: 5",
  "thinkingLevel: ultra",
  "maxTurns: -1",
  "timeout: abc",
  "timeout_mins: 0",
  "recursive: maybe",
  "<<: *missing",
  "? complex key\n: value",
  "tags: !!binary aGVsbG8=",
  "name: &n x\ndescription: *n",
  "%YAML 1.1",
  "- a list item",
  "  indented: oddly",
  "description: |\n  literal\n    deeper\n  back",
  'description: "unterminated',
  "description: 'it's broken'",
];

type Mutation = (s: string) => string;
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  at.map((p): Mutation => (s) => s.slice(0, place(s, p))),
  fc.tuple(at, fc.string({ unit: "binary", maxLength: 24 })).map(([p, x]): Mutation => (s) =>
    insertAt(s, p, x)
  ),
  fc.tuple(at, at).map(([a, b]): Mutation => (s) =>
    s.slice(0, place(s, Math.min(a, b))) + s.slice(place(s, Math.max(a, b)))
  ),
  fc.constant<Mutation>((s) => s.replace("\n---\n", "\n--\n")),
  fc.constant<Mutation>((s) => s.replace(/\n/g, "\r\n")),
  fc.constant<Mutation>((s) => s.replace(/\n/g, "\r")),
  fc.constant<Mutation>((s) => "\ufeff" + s),
  // Mojibake: UTF-8 bytes read as Latin-1, the usual mixed-encoding accident.
  fc.constant<Mutation>((s) => Buffer.from(s.replace("e", "é"), "utf8").toString("latin1")),
  fc.tuple(
    at,
    fc.constantFrom("\0", "\ud800", "\udc00", "\t", "\u2028", "\u0085", "é", "😀", "\ufffe"),
  )
    .map(([p, c]): Mutation => (s) => insertAt(s, p, c)),
  fc.constantFrom(...BAD_LINES).map((l): Mutation => (s) => inBlock(s, l)),
);

const mutated = fc.tuple(realistic, fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([text, ms]) => ms.reduce((s, m) => m(s), text));

const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 300 }).map((d) =>
    `---\nname: deep\ndescription: d\ndeep: ${"[".repeat(d)}${"]".repeat(d)}\n---\nBody`
  ),
  fc.integer({ min: 1, max: 200 }).map((d) =>
    `---\nname: deep\ndescription: d\ndeep: ${"{a: ".repeat(d)}1${"}".repeat(d)}\n---\nBody`
  ),
  fc.integer({ min: 1, max: 40 }).map((d) =>
    `---\nname: deep\ndescription: d\n${nestedMap(d)}\n---\n`
  ),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })).map(([l, w]) =>
    `---\nname: bomb\ndescription: d\n${aliasBomb(l, w)}\n---\nBody`
  ),
  fc.integer({ min: 1000, max: 200_000 }).map((n) =>
    `---\nname: long\ndescription: ${"x".repeat(n)}\n---\nBody`
  ),
  fc.integer({ min: 1000, max: 400_000 }).map((n) =>
    `---\nname: long\ndescription: d\n---\n${"y".repeat(n)}`
  ),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `---\n${"k: v\n".repeat(n)}`),
  fc.integer({ min: 1, max: 300 }).map((n) =>
    `---\nname: many\ndescription: d\n${
      Array.from({ length: n }, (_, i) => `key${i}: ${i}`).join("\n")
    }\n---\n`
  ),
  fc.integer({ min: 1, max: 5000 }).map((n) => `${"---\n".repeat(n)}name: x`),
);

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join("\n");

/** The same shapes at the largest size the 64 KiB block limit lets through, once each. */
const HOSTILE_MAX: [string, string][] = [
  [
    "32 000 nested flow lists",
    `---\nname: d\ndescription: d\nx: ${"[".repeat(32_000)}${"]".repeat(32_000)}\n---\n`,
  ],
  [
    "16 000 nested flow maps",
    `---\nname: d\ndescription: d\nx: ${"{a: ".repeat(16_000)}1${"}".repeat(16_000)}\n---\n`,
  ],
  [
    "10 000 nested flow maps",
    `---\nname: d\ndescription: d\nx: ${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}\n---\n`,
  ],
  ["250 nested block maps", `---\nname: d\ndescription: d\n${nestedMap(250)}\n---\n`],
  ["alias bomb 9 × 9", `---\nname: b\ndescription: d\n${aliasBomb(9, 9)}\n---\n`],
  ["3 000 keys", `---\nname: m\ndescription: d\n${keys(3000)}\n---\n`],
  ["3 000 keys, one repeated at the end", `---\n${keys(3000)}\nk7: again\n---\n`],
  ["1 MiB single line", `---\nname: l\ndescription: ${"x".repeat(MiB)}\n---\n`],
  ["64 KiB block of one line", `---\nname: l\ndescription: ${"x".repeat(65_000)}\n---\n`],
];

const fenced = fc.tuple(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.constantFrom("\n", "\r\n", "\r"),
).map(([block, body, nl]) => `---${nl}${block}${nl}---${nl}${body}`);

const randomBytes = fc.uint8Array({ maxLength: 600 }).chain((bytes) =>
  fc.constantFrom("utf-8", "latin1", "utf-16le").map((enc) =>
    enc === "latin1" ? Buffer.from(bytes).toString("latin1") : new TextDecoder(enc).decode(bytes)
  )
);

describe("parser fuzz: 10 000 agent files", () => {
  test(
    "random bytes, decoded every which way (2 500)",
    SLOW,
    () => check(randomBytes, parserInvariants, 2500),
  );
  test(
    "random text between frontmatter fences (2 500)",
    SLOW,
    () => check(fenced, parserInvariants, 2500),
  );
  test("mutated realistic agent files (4 500)", SLOW, () => check(mutated, parserInvariants, 4500));
  test(
    "deep YAML, alias bombs, huge lines, many keys (500)",
    SLOW,
    () => check(hostile, parserInvariants, 500),
  );
  for (const [name, text] of HOSTILE_MAX) {
    test(`at the size limit: ${name}`, SLOW, () => parserInvariants(text));
  }
});

// ---- Discovery -------------------------------------------------------------

type Entry =
  | { kind: "text"; text: string }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "big" | "dir" | "loop" | "dangling" | "fifo" | "ignored" };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  { weight: 6, arbitrary: realistic.map((text) => ({ kind: "text" as const, text })) },
  { weight: 6, arbitrary: mutated.map((text) => ({ kind: "text" as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: "text" as const, text: "" }) },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({
      kind: "bytes" as const,
      bytes,
    })),
  },
  {
    // Valid text, saved as Latin-1: not UTF-8.
    weight: 1,
    arbitrary: realistic.map((t) => ({
      kind: "bytes" as const,
      bytes: new Uint8Array(Buffer.from(t.replace("e", "é"), "latin1")),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Entry>({ kind: "dir" }, { kind: "loop" }, { kind: "dangling" }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Entry>({ kind: "ignored" }, { kind: "fifo" }, { kind: "big" }),
  },
);

/** `installed_plugins.json` text; `@ROOT@` becomes the tree's root when written. */
const installedPlugins = (count: number): fc.Arbitrary<string> => {
  const ids = Array.from({ length: count }, (_, i) => i);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom("user", "project", "local", "managed", "bogus").map((scope) =>
        JSON.stringify({
          version: 2,
          plugins: Object.fromEntries(ids.map((i) => [`p${i}@m`, [{
            scope: i % 2 ? scope : "user",
            installPath: `@ROOT@/plugins/p${i}`,
            projectPath: "@ROOT@/proj",
            ...(i % 5 === 4 ? { enabled: false } : {}),
          }]])),
        })
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant(JSON.stringify({
        version: 1,
        plugins: Object.fromEntries(
          ids.map((i) => [`p${i}@m`, { installPath: `@ROOT@/plugins/p${i}` }]),
        ),
      })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        "{",
        "null",
        "[]",
        '{"plugins": 5}',
        '{"plugins": {"a@m": [{"scope": "user"}]}}',
        '{"plugins": {"a@m": [{"scope": "user", "installPath": "relative/path"}]}}',
        '{"plugins": {"a@m": [{"scope": "user", "installPath": "@ROOT@/nowhere"}]}}',
        '{"plugins": {"a@m": [{"scope": "user", "installPath": "@ROOT@/home/.claude/settings.json"}]}}',
        '{"plugins": {"a@m": [{"scope": "project", "projectPath": "/elsewhere", "installPath": "@ROOT@"}]}}',
        '{"plugins": {"a@m": [1, "x", null]}}',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 100 }) },
  );
};

const settings = fc.oneof(
  fc.constant(undefined),
  fc.constant('{"enabledPlugins": {"p1@m": false, "p2@m": true}}'),
  fc.constantFrom("", "{", "[]", '{"enabledPlugins": "all"}', '{"enabledPlugins": null}', "\u0000"),
);

const FOLDERS = [
  "proj/.xcsh/agents",
  "home/.xcsh/agent/agents",
  "proj/.claude/agents",
  "home/.claude/agents",
  "proj/.codex/agents",
  "home/.codex/agents",
  "proj/.gemini/agents",
  "home/.config/gemini-cli/agents",
];

interface TreeCase {
  folders: Entry[][];
  plugins: Entry[][];
  registry: string;
  userSettings: string | undefined;
  projectSettings: string | undefined;
  agentsIsFile: boolean;
}

const treeCase: fc.Arbitrary<TreeCase> = fc.array(fc.array(entry, { maxLength: 3 }), {
  maxLength: 4,
})
  .chain((plugins) =>
    fc.record({
      folders: fc.array(fc.array(entry, { maxLength: 5 }), {
        minLength: FOLDERS.length,
        maxLength: FOLDERS.length,
      }),
      plugins: fc.constant(plugins),
      registry: installedPlugins(plugins.length),
      userSettings: settings,
      projectSettings: settings,
      agentsIsFile: fc.boolean(),
    })
  );

let scratch = "";
let haveMkfifo = false;
before(() => {
  scratch = mkdtempSync(join(tmpdir(), "xcsh-fuzz-"));
  haveMkfifo = spawnSync("mkfifo", ["--version"], { stdio: "ignore" }).status === 0;
});
after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Writes one folder's entries; names are `NN-kind.md` (`.toml` now and then in codex folders). */
function writeFolder(dir: string, entries: Entry[], codex: boolean): void {
  mkdirSync(dir, { recursive: true });
  entries.forEach((e, i) => {
    const ext = codex && i % 2 === 1 ? ".toml" : ".md";
    const path = join(dir, `${String(i).padStart(2, "0")}-${e.kind}${ext}`);
    switch (e.kind) {
      case "text":
        // Codex folders: a valid TOML agent now and then, else whatever text it is.
        writeFileSync(path, ext === ".toml" && i % 4 === 1 ? tomlAgent(rng(i), `t${i}`) : e.text);
        break;
      case "bytes":
        writeFileSync(path, e.bytes);
        break;
      case "big":
        writeFileSync(path, `---\nname: big\ndescription: d\n---\n${"z".repeat(MiB + 1)}`);
        break;
      case "dir":
        mkdirSync(path);
        break;
      case "loop":
        symlinkSync(path, path);
        break;
      case "dangling":
        symlinkSync(join(dir, "no-such-target"), path);
        break;
      case "fifo":
        if (haveMkfifo) spawnSync("mkfifo", [path]);
        else writeFileSync(path, "");
        break;
      case "ignored":
        writeFileSync(path.replace(/\.(md|toml)$/, ".txt"), "not an agent");
        break;
    }
  });
}

let counter = 0;
/** What the trees exercised, so the property cannot pass vacuously. */
const stats = { loaded: 0, skipped: 0, pluginRoots: 0, registryWarnings: 0 };

/** Builds the tree, runs discovery, checks the one-warning-per-bad-file rule. */
async function discoveryInvariants(c: TreeCase): Promise<void> {
  const root = join(scratch, String(++counter));
  const home = join(root, "home");
  const proj = join(root, "proj");
  const cwd = join(proj, "sub", "dir");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(home, ".claude", "plugins"), { recursive: true });
  try {
    c.folders.forEach((entries, i) => {
      const dir = join(root, FOLDERS[i]);
      if (i === 3 && c.agentsIsFile) {
        // ~/.claude/agents is a file, not a folder.
        writeFileSync(dir, "oops");
        return;
      }
      if (entries.length > 0) writeFolder(dir, entries, FOLDERS[i].includes("codex"));
    });
    c.plugins.forEach((entries, i) =>
      writeFolder(join(root, "plugins", `p${i}`, "agents"), entries, false)
    );
    writeFileSync(
      join(home, ".claude", "plugins", "installed_plugins.json"),
      c.registry.replaceAll("@ROOT@", root),
    );
    if (c.userSettings !== undefined) {
      writeFileSync(join(home, ".claude", "settings.json"), c.userSettings);
    }
    if (c.projectSettings !== undefined) {
      mkdirSync(join(proj, ".claude"), { recursive: true });
      writeFileSync(join(proj, ".claude", "settings.json"), c.projectSettings);
    }

    const found = await discoverAgents({ cwd, home, env: {} });

    // Every warning names one file, and no file is named twice.
    const named = new Map<string, number>();
    for (const w of found.warnings) {
      assert.ok(w.file, `a warning without a file: ${w.message}`);
      named.set(w.file, (named.get(w.file) ?? 0) + 1);
    }
    for (const [file, n] of named) assert.equal(n, 1, `${file} named by ${n} warnings`);

    // Every definition entry of every folder read is loaded or named exactly once.
    const loaded = new Set(
      [...found.agents, ...found.shadowed.map((s) => s.agent)].map((a) => a.filePath),
    );
    const known = new Set<string>(found.plugins.files.map((f) => f.path));
    for (const folder of found.folders) {
      known.add(folder.path);
      let names: string[];
      try {
        names = readdirSync(folder.path);
      } catch {
        continue; // missing, or not a folder: the folder's own warning (if any) covers it
      }
      const exts = folder.family === "codex" ? [".md", ".toml"] : [".md"];
      for (const name of names.filter((n) => exts.some((x) => n.endsWith(x)))) {
        const path = join(folder.path, name);
        known.add(path);
        if (loaded.has(path)) {
          assert.ok((named.get(path) ?? 0) <= 1);
          stats.loaded++;
        } else {
          assert.equal(named.get(path), 1, `${path} skipped without exactly one warning`);
          stats.skipped++;
        }
      }
    }
    for (const file of named.keys()) {
      assert.ok(known.has(file), `warning names an unknown path: ${file}`);
    }
    stats.pluginRoots += found.plugins.roots.length;
    if (found.warnings.some((w) => w.file?.endsWith("installed_plugins.json"))) {
      stats.registryWarnings++;
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe("discovery fuzz", () => {
  test("200 generated trees with bad files, registries and settings", SLOW, async () => {
    // fast-check's async runner, with the same seed rule as check().
    const out = await fc.check(fc.asyncProperty(treeCase, discoveryInvariants), {
      seed: SEED,
      numRuns: 200,
    });
    if (out.failed) {
      throw new Error(
        `property failed with seed ${SEED} (replay: FUZZ_SEED=${SEED}; path ${out.counterexamplePath})\n` +
          `${String(out.errorInstance)}`,
      );
    }
    // Not vacuous: plenty of files were loaded and skipped, plugins read and refused.
    assert.ok(stats.loaded > 300 && stats.skipped > 300, JSON.stringify(stats));
    assert.ok(stats.pluginRoots > 50 && stats.registryWarnings > 20, JSON.stringify(stats));
  });
});
