/**
 * Builds agent trees for the benchmarks: seeded and deterministic, so two runs
 * with the same seed write byte-identical files (only absolute paths inside
 * `installed_plugins.json` follow the chosen root).
 *
 * Layout under `root`:
 *
 * - `home/` is `$HOME`: `.xcsh/agent/agents`, `.claude/agents`,
 *   `.codex/agents`, `.gemini/agents` (the user folders), `.claude/settings.json`,
 *   `.claude/plugins/installed_plugins.json` (version 2) and the plugin roots
 *   under `.claude/plugins/cache/<market>/<plugin>/<version>/agents`.
 * - `proj/` is the project: `.xcsh/agents`, `.claude/agents`, `.codex/agents`,
 *   `.gemini/agents`, `.claude/settings.json`, and `cwd` is `depth` folders
 *   below it.
 *
 * Agent files look like real ones: about 40 lines, frontmatter with `name`,
 * `description`, `tools`, `model` and now and then `color`, `maxTurns`,
 * `thinkingLevel`, written in the styles people use (plain, quoted, CSV, flow
 * and block lists, the odd folded description and the odd unquoted
 * `description:` containing `: ` that strict YAML rejects), then a prose body.
 * Codex folders hold a mix of `.md` and `.toml` agents.
 *
 *   bun bench/generate.ts DIR [FILES] [PLUGINS] [PER_PLUGIN] [DEPTH] [SEED]
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

export interface TreeSpec {
  /** Agent files over the 8 family folders (4 families × project + user), round-robin. */
  files: number;
  /** Claude plugins installed (all enabled; a quarter project-scoped). */
  plugins: number;
  /** Agent files in each plugin's `agents/` folder. */
  perPlugin: number;
  /** How many folders below the project root cwd is. */
  depth: number;
  seed: number;
}

/** One folder discovery reads, with the file name endings it reads there. */
export interface AgentFolder {
  path: string;
  extensions: string[];
}

export interface Tree {
  root: string;
  home: string;
  cwd: string;
  env: Record<string, string>;
  /** Every agents folder discovery should read, in precedence order. */
  folders: AgentFolder[];
  /** The JSON files discovery reads (registry and settings). */
  jsonFiles: string[];
  /** Agent files written. */
  fileCount: number;
  /** Bytes of agent files written. */
  bytes: number;
}

/** The 4 families × project + user: the spec's 8 folders. */
export const FAMILY_COUNT = 4;

/** A small, fast, seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "code review test build deploy refactor module function type schema query file " +
  "path search index cache parser token stream buffer error warning config agent task " +
  "project folder change commit branch merge diff patch request response model tool " +
  "result summary report plan design interface component service database migration " +
  "security performance latency memory profile trace log metric alert user team"
).split(" ");
const VERBS = (
  "reads checks finds writes updates explains reviews plans fixes improves documents " +
  "tests measures compares lists traces"
).split(" ");
const TOOLS = ["Read", "Grep", "Glob", "LS", "Bash", "Edit", "Write", "WebFetch", "Task"];
const MODELS = ["sonnet", "opus", "haiku", "inherit"];
const COLORS = ["blue", "green", "red", "yellow", "purple", "cyan"];
const THINKING = ["low", "medium", "high"];

type Rand = () => number;
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function sentence(r: Rand, min = 6, max = 16): string {
  const n = int(r, min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(i % 4 === 1 ? pick(r, VERBS) : pick(r, WORDS));
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

function someTools(r: Rand): string[] {
  const n = int(r, 2, 6);
  const out = new Set<string>();
  while (out.size < n) out.add(pick(r, TOOLS));
  return [...out];
}

/** The frontmatter lines of one Markdown agent. */
function frontmatter(r: Rand, name: string): string[] {
  const lines = [`name: ${name}`];
  const d = r();
  const desc = sentence(r, 10, 24);
  if (d < 0.66) lines.push(`description: ${desc}`);
  else if (d < 0.8) {
    lines.push(`description: "${desc} Examples:\\n- ${sentence(r)}\\n- ${sentence(r)}"`);
  } else if (d < 0.88) lines.push(`description: '${desc.replace(/e/, "e''s")}'`);
  else if (d < 0.94) {
    // The classic Claude agent: strict YAML rejects it, the line parser reads it.
    lines.push(`description: Use this agent when: ${desc}`);
  } else lines.push("description: >", `  ${desc}`, `  ${sentence(r)}`);

  const t = r();
  const tools = someTools(r);
  if (t < 0.45) lines.push(`tools: ${tools.join(", ")}`);
  else if (t < 0.65) lines.push(`tools: [${tools.map((x) => x.toLowerCase()).join(", ")}]`);
  else if (t < 0.85) lines.push("tools:", ...tools.map((x) => `  - ${x}`));
  if (r() < 0.75) lines.push(`model: ${pick(r, MODELS)}`);
  if (r() < 0.3) lines.push(`color: ${pick(r, COLORS)}`);
  if (r() < 0.15) lines.push(`maxTurns: ${int(r, 5, 60)}`);
  if (r() < 0.15) lines.push(`thinkingLevel: ${pick(r, THINKING)}`);
  return lines;
}

/** About `lines` lines of Markdown prose. */
function body(r: Rand, lines: number): string[] {
  const out: string[] = [];
  out.push(`You are an agent that ${pick(r, VERBS)} ${pick(r, WORDS)} ${pick(r, WORDS)}.`, "");
  while (out.length < lines) {
    const k = r();
    if (k < 0.15) out.push("", `## ${sentence(r, 2, 4).slice(0, -1)}`, "");
    else if (k < 0.45) out.push(`- ${sentence(r, 4, 10)}`);
    else out.push(sentence(r, 8, 18) + " " + sentence(r, 6, 12));
  }
  return out.slice(0, lines);
}

/** One Markdown agent of about 40 lines. */
export function markdownAgent(r: Rand, name: string): string {
  const fm = frontmatter(r, name);
  return ["---", ...fm, "---", "", ...body(r, 40 - fm.length - 3)].join("\n") + "\n";
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** One Codex TOML agent of about 40 lines. */
export function tomlAgent(r: Rand, name: string): string {
  const lines = [`name = ${tomlString(name)}`, `description = ${tomlString(sentence(r, 10, 24))}`];
  if (r() < 0.7) lines.push(`model = "gpt-5-codex"`);
  if (r() < 0.5) lines.push(`model_reasoning_effort = ${tomlString(pick(r, THINKING))}`);
  if (r() < 0.3) lines.push(`sandbox_mode = "read-only"`);
  lines.push(`developer_instructions = """`, ...body(r, 40 - lines.length - 2), `"""`);
  return lines.join("\n") + "\n";
}

const FAMILIES = ["xcsh", "claude", "codex", "gemini"] as const;

/** Writes a tree under `root` (created if needed) and describes it. */
export function generateTree(rootArg: string, spec: TreeSpec): Tree {
  const root = resolve(rootArg);
  const r = rng(spec.seed);
  const home = join(root, "home");
  const proj = join(root, "proj");
  const userDir = {
    xcsh: join(home, ".xcsh", "agent", "agents"),
    claude: join(home, ".claude", "agents"),
    codex: join(home, ".codex", "agents"),
    gemini: join(home, ".gemini", "agents"),
  };
  const folders: AgentFolder[] = [];
  for (const family of FAMILIES) {
    const ext = family === "codex" ? [".md", ".toml"] : [".md"];
    folders.push({ path: join(proj, `.${family}`, "agents"), extensions: ext });
    folders.push({ path: userDir[family], extensions: ext });
  }
  for (const f of folders) mkdirSync(f.path, { recursive: true });

  let bytes = 0;
  let fileCount = 0;
  const write = (path: string, text: string) => {
    writeFileSync(path, text);
    bytes += Buffer.byteLength(text);
    fileCount++;
  };

  const width = String(Math.max(spec.files, spec.perPlugin)).length;
  for (let i = 0; i < spec.files; i++) {
    const slot = i % folders.length;
    const folder = folders[slot];
    const n = Math.floor(i / folders.length);
    // Names repeat across folders now and then, so merging has shadowing to do.
    const name = r() < 0.1
      ? `${pick(r, WORDS)}-${pick(r, WORDS)}`
      : `${pick(r, WORDS)}-${pick(r, VERBS)}-${String(n).padStart(width, "0")}`;
    const isToml = folder.extensions.includes(".toml") && n % 2 === 1;
    const file = `${String(n).padStart(width, "0")}-${name}${isToml ? ".toml" : ".md"}`;
    write(join(folder.path, file), isToml ? tomlAgent(r, name) : markdownAgent(r, name));
  }

  // Claude plugins: registry version 2, settings enabling them, roots with agents.
  const claude = join(home, ".claude");
  const registry: Record<string, unknown[]> = {};
  const enabledPlugins: Record<string, boolean> = {};
  const projectFirst: AgentFolder[] = [];
  const userScoped: AgentFolder[] = [];
  for (let p = 0; p < spec.plugins; p++) {
    const plugin = `plugin-${String(p).padStart(2, "0")}`;
    const id = `${plugin}@bench-market`;
    const installPath = join(claude, "plugins", "cache", "bench-market", plugin, "1.0.0");
    const agents = join(installPath, "agents");
    mkdirSync(agents, { recursive: true });
    const project = p % 4 === 3;
    registry[id] = [{
      scope: project ? "project" : "user",
      ...(project ? { projectPath: proj } : {}),
      installPath,
      version: "1.0.0",
      installedAt: "2026-01-01T00:00:00.000Z",
    }];
    enabledPlugins[id] = true;
    (project ? projectFirst : userScoped).push({ path: agents, extensions: [".md"] });
    for (let a = 0; a < spec.perPlugin; a++) {
      const name = `${plugin}-${pick(r, WORDS)}-${a}`;
      write(join(agents, `${name}.md`), markdownAgent(r, name));
    }
    writeFileSync(
      join(installPath, "plugin.json"),
      JSON.stringify({ name: plugin, version: "1.0.0" }),
    );
  }
  folders.push(...projectFirst, ...userScoped);
  mkdirSync(join(claude, "plugins"), { recursive: true });
  const registryPath = join(claude, "plugins", "installed_plugins.json");
  writeFileSync(registryPath, JSON.stringify({ version: 2, plugins: registry }, null, 2));
  const userSettings = join(claude, "settings.json");
  writeFileSync(userSettings, JSON.stringify({ enabledPlugins }, null, 2));
  const projectSettings = join(proj, ".claude", "settings.json");
  writeFileSync(projectSettings, JSON.stringify({ permissions: { allow: [] } }, null, 2));

  let cwd = proj;
  for (let d = 1; d <= spec.depth; d++) cwd = join(cwd, `d${d}`);
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });

  return {
    root,
    home,
    cwd,
    env: { HOME: home },
    folders,
    // settings.local.json is looked for but absent: discovery reads it and gets ENOENT.
    jsonFiles: [
      registryPath,
      userSettings,
      projectSettings,
      join(proj, ".claude", "settings.local.json"),
    ],
    fileCount,
    bytes,
  };
}

if (import.meta.main) {
  const [dir, files, plugins, perPlugin, depth, seed] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: bun bench/generate.ts DIR [FILES] [PLUGINS] [PER_PLUGIN] [DEPTH] [SEED]");
    process.exit(2);
  }
  const tree = generateTree(dir, {
    files: Number(files ?? 2000),
    plugins: Number(plugins ?? 20),
    perPlugin: Number(perPlugin ?? 10),
    depth: Number(depth ?? 30),
    seed: Number(seed ?? 7),
  });
  console.log(JSON.stringify(tree, null, 2));
}
