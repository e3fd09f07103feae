/**
 * Real-shaped collections: `dist/xcsh agents --json` on a tree of about
 * 1 000 agent files written the way public collections write them — Claude
 * agents with one-line descriptions full of `<example>` blocks (read through
 * the lenient `key: value` path), YAML lists of tools and MCP tool names,
 * Codex TOML agents with `gpt-5.x` models, Gemini agents with `gemini-…`
 * models — in the project and user folders of each family.
 *
 * Rows: the warm run (definition cache on disk) against an absolute 100 ms,
 * and a first run with an empty definition cache against the same run with
 * the cache off (the cache must not cost a first run anything).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, requireXcsh, scratchDir, timedSync, XCSH } from "../measure.ts";
import { rng } from "../generate.ts";
import { details, limitRow, median, row } from "../report.ts";
import { SETTLE_MS } from "../../src/discovery/file-signature.ts";

const TOPICS = [
  "database migrations",
  "React components",
  "API security",
  "Kubernetes manifests",
  "flaky tests",
  "release notes",
  "performance profiles",
  "accessibility",
  "Terraform modules",
  "error handling",
];
const CLAUDE_MODELS = ["sonnet", "opus", "haiku", "inherit", "claude-sonnet-4-20250514"];
const CLAUDE_TOOLS = [
  "Read",
  "Grep",
  "Glob",
  "Bash",
  "Edit",
  "Write",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "mcp__github__create_issue",
];
const CODEX_MODELS = ["gpt-5.1-codex", "gpt-5.2", "gpt-5.1-codex-mini", "o4-mini"];
const GEMINI_MODELS = ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-pro-preview"];
const GEMINI_TOOLS = ["read_file", "grep_search", "glob", "run_shell_command", "web_fetch"];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)];
}

function some<T>(next: () => number, list: readonly T[], n: number): T[] {
  return [...new Set(Array.from({ length: n }, () => pick(next, list)))];
}

/** A system prompt of a few hundred words, as collections write them. */
function prompt(topic: string, next: () => number): string {
  const parts = [`You are an expert in ${topic}.`, "", "## How you work", ""];
  for (let i = 0; i < 12 + Math.floor(next() * 20); i++) {
    parts.push(
      `- Step ${i + 1}: look at the ${topic} involved and report what you find, with files.`,
    );
  }
  parts.push("", "## Output", "", "A short report, most important findings first.");
  return parts.join("\n");
}

function claudeAgent(i: number, next: () => number): string {
  const topic = pick(next, TOPICS);
  const example = `\\n\\n<example>\\nContext: The user works on ${topic}.\\nuser: "Can you check ` +
    `my ${topic}?"\\nassistant: "I'll use the ${topic.replace(/ /g, "-")}-${i} agent."\\n` +
    `<commentary>\\nThe request is about ${topic}.\\n</commentary>\\n</example>`;
  const listTools = next() < 0.4;
  const tools = some(next, CLAUDE_TOOLS, 2 + Math.floor(next() * 5));
  const lines = [
    "---",
    `name: claude-${i}`,
    next() < 0.7
      ? `description: Use this agent when the user needs help with ${topic}. Examples:${
        example.repeat(1 + Math.floor(next() * 3))
      }`
      : `description: "Specialist in ${topic}; use it for reviews and fixes."`,
    ...(listTools ? ["tools:", ...tools.map((t) => `  - ${t}`)] : [`tools: ${tools.join(", ")}`]),
    `model: ${pick(next, CLAUDE_MODELS)}`,
    "color: blue",
    "---",
    "",
    prompt(topic, next),
  ];
  return lines.join("\n") + "\n";
}

function codexAgent(i: number, next: () => number): string {
  const topic = pick(next, TOPICS);
  return [
    `name = "codex-${i}"`,
    `description = "Works on ${topic}: finds problems and proposes fixes."`,
    `model = "${pick(next, CODEX_MODELS)}"`,
    `model_reasoning_effort = "${pick(next, ["low", "medium", "high"])}"`,
    ...(next() < 0.5 ? ['sandbox_mode = "read-only"'] : []),
    'developer_instructions = """',
    prompt(topic, next),
    '"""',
  ].join("\n") + "\n";
}

function geminiAgent(i: number, next: () => number): string {
  const topic = pick(next, TOPICS);
  return [
    "---",
    `name: gemini-${i}`,
    `description: Investigates ${topic} across the codebase and reports with file references.`,
    "kind: local",
    "tools:",
    ...some(next, GEMINI_TOOLS, 3).map((t) => `  - ${t}`),
    `model: ${pick(next, GEMINI_MODELS)}`,
    "max_turns: 15",
    "---",
    "",
    prompt(topic, next),
  ].join("\n") + "\n";
}

/** Writes the tree: project and user folders of each family; returns HOME, cwd and the file count. */
export function makeCollectionTree(): { home: string; cwd: string; files: number } {
  const root = mkdtempSync(join(scratchDir(), "collections-"));
  const home = join(root, "home");
  const cwd = join(root, "work", "project");
  const next = rng(16);
  let files = 0;
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
    files++;
  };
  // Roughly the mix seen in public collections: Claude agents most, then Codex, then Gemini.
  for (let i = 0; i < 640; i++) {
    const dir = i % 2 === 0 ? join(cwd, ".claude", "agents") : join(home, ".claude", "agents");
    write(dir, `claude-${i}.md`, claudeAgent(i, next));
  }
  for (let i = 0; i < 260; i++) {
    const dir = i % 2 === 0 ? join(cwd, ".codex", "agents") : join(home, ".codex", "agents");
    write(dir, `codex-${i}.toml`, codexAgent(i, next));
  }
  for (let i = 0; i < 100; i++) {
    const dir = i % 2 === 0 ? join(cwd, ".gemini", "agents") : join(home, ".gemini", "agents");
    write(dir, `gemini-${i}.md`, geminiAgent(i, next));
  }
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  writeFileSync(
    join(home, ".xcsh", "agent", "config.yml"),
    "models:\n  default: ollama/qwen3:8b\n",
  );
  return { home, cwd, files };
}

export async function benchCollections(): Promise<void> {
  requireXcsh();
  const tree = makeCollectionTree();
  // The definition cache trusts a file only once it has not changed for
  // SETTLE_MS: measured sooner, "warm" runs would parse every file again.
  await new Promise((r) => setTimeout(r, SETTLE_MS + 100));
  const cacheRoot = mkdtempSync(join(scratchDir(), "collections-cache-"));
  const env = cleanEnv({ HOME: tree.home, XCSH_CACHE_DIR: join(cacheRoot, "warm") });
  const list = (e: Record<string, string>) =>
    timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env: e });
  const listed = JSON.parse(list(env).stdout) as { agents: unknown[] };

  const warm: number[] = [];
  for (let i = 0; i < 25; i++) warm.push(list(env).ms);

  // A first run ever: an empty cache folder each time, against the cache off,
  // interleaved so the machine's load falls on both alike.
  const empty: number[] = [];
  const off: number[] = [];
  const offEnv = { ...env, XCSH_CACHE: "off" };
  for (let i = 0; i < 15; i++) {
    const fresh = { ...env, XCSH_CACHE_DIR: join(cacheRoot, `first-${i}`) };
    empty.push(list(fresh).ms);
    off.push(list(offEnv).ms);
  }
  limitRow(
    "collections",
    `xcsh agents --json, warm, ${tree.files} real-shaped files`,
    median(warm),
    100,
    "ms",
  );
  row(
    "collections",
    "  first run with an empty definition cache (vs XCSH_CACHE=off)",
    median(empty),
    median(off),
    "ms",
    1.1,
  );
  details.collections = {
    files: tree.files,
    agentsListed: listed.agents.length,
    warmMs: warm,
    emptyCacheMs: empty,
    cacheOffMs: off,
  };
}
