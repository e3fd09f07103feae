/**
 * The "loop" section: how one child's agent loop spends its time, against
 * the local model server. Each row is one function below; `benchLoop` runs
 * them in turn, so a new row is a new function and one line there.
 *
 * - cached share: a scripted 10-turn task (nine `read` calls, then
 *   `submit_result`) through `xcsh run` on the Anthropic wire, against the
 *   model server in its computed-cache mode, which reads and writes the
 *   prefixes the requests' `cache_control` breakpoints mark, as Anthropic
 *   does. The figure is cacheRead / input over the whole task, from `--json`
 *   usage. Target ≥ 80 %.
 * - cached share across compactions: the same measure over a 50-turn task
 *   (49 `read` calls of a 1 000-token file, then `submit_result`) whose
 *   configured window (40 000 tokens) makes the conversation compact a few
 *   times (`child/compaction.ts`); the summary calls count too. A compaction
 *   keeps the system prompt and tools byte-identical, so their cached prefix
 *   survives it; only the summary and the kept turns are written afresh.
 *   Target ≥ 80 %.
 * - siblings' cached share: a fan-out of 8 `quick_task` tasks through `xcsh
 *   run` on the Anthropic wire, against the computed-cache server, whose
 *   answers each start after 300 ms (a real API's time to first token; a
 *   cache entry is readable only once its answer starts). The figure is cacheRead
 *   / input over the 2nd–8th tasks' first requests: the prefix the first
 *   task wrote is read by the others (`runner/admission/prefix-sharing.ts`). Target
 *   ≥ 90 %.
 * - concurrent tasks: a turn of four `task` calls whose sub-agents' model
 *   answers take 200, 400, 600 and 800 ms. The turn's wall time (first
 *   `tool_start` to last `tool_end`, timed as the child's events arrive) is
 *   compared with the slowest call run alone in its own turn, measured the
 *   same way. Target ≤ 1.2×: the calls overlap instead of adding up.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type RecordedRequest,
  startModelServer,
  type Turn,
} from "../../tests/support/model-server.ts";
import { anthropicWorld, cleanEnv, requireXcsh, timedAsync, tmp, XCSH } from "../measure.ts";
import { agentSetOf, planText, userConfig } from "../../tests/support/plan.ts";
import { details, floorRow, log, median, row } from "../report.ts";

const SECTION = "loop";

/** A HOME whose config points at `url`, and a project holding `agents`. */
export function loopWorld(
  name: string,
  url: string,
  agents: Record<string, string>,
): { home: string; cwd: string } {
  const base = tmp(name);
  const home = join(base, "home");
  const cwd = join(base, "work");
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  mkdirSync(join(cwd, ".xcsh", "agents"), { recursive: true });
  writeFileSync(
    join(home, ".xcsh", "agent", "config.yml"),
    `providers: { local: { type: openai-compatible, baseURL: "${url}/v1" } }\n` +
      `models: { default: local/mock }\n`,
  );
  for (const [file, text] of Object.entries(agents)) {
    writeFileSync(join(cwd, ".xcsh", "agents", `${file}.md`), text);
  }
  return { home, cwd };
}

/** One child's events, each with the time (ms) its line arrived. */
export type TimedEvent = { at: number; event: Record<string, unknown> };

/** Runs `xcsh __child` on `envelope`, timing each event line as it arrives. */
export function runChildTimed(
  envelope: unknown,
  home: string,
  cwd: string,
): Promise<TimedEvent[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(XCSH, ["__child"], {
      cwd,
      env: cleanEnv({ HOME: home }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const events: TimedEvent[] = [];
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const at = performance.now();
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.trim() !== "") events.push({ at, event: JSON.parse(line) });
      }
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const result = events.at(-1)?.event;
      if (code !== 0 || result?.type !== "result" || result.status !== "ok") {
        reject(new Error(`xcsh __child exited ${code}: ${stderr.slice(-2000)}`));
      } else resolve(events);
    });
    child.stdin.end(JSON.stringify(envelope));
  });
}

/** Model calls of the cached-share row. */
const CACHE_TURNS = 10;

async function cachedShare(): Promise<void> {
  const server = await startModelServer({
    cache: "computed",
    respond: (_req, i) =>
      i < CACHE_TURNS - 1
        ? { toolCalls: [{ name: "read", args: { path: "notes.md" } }] }
        : { toolCalls: [{ name: "submit_result", args: { result: { data: { done: true } } } }] },
  });
  try {
    const { cwd, env } = anthropicWorld("loop-cache", server.url);
    // A file of a few hundred tokens, so each turn adds a realistic tool result.
    const lines = Array.from({ length: 40 }, (_, i) => `- note ${i}: the loop reads this file.`);
    writeFileSync(join(cwd, "notes.md"), lines.join("\n") + "\n");
    const args = [
      "run",
      "task",
      "Read notes.md ten times.",
      "--model",
      "anthropic/claude-sonnet-4-5",
    ];
    const r = await timedAsync(XCSH, [...args, "--json"], { cwd, env });
    if (r.code !== 0) throw new Error(`xcsh run exited ${r.code}: ${r.stderr.slice(-2000)}`);
    const usage = JSON.parse(r.stdout).results[0].usage;
    if (server.requests.length !== CACHE_TURNS) {
      throw new Error(`expected ${CACHE_TURNS} model calls, saw ${server.requests.length}`);
    }
    const share = (100 * usage.cacheRead) / usage.input;
    floorRow(
      SECTION,
      `cached share of input tokens, ${CACHE_TURNS}-turn Anthropic task`,
      share,
      80,
      "%",
    );
    details.loopCachedShare = {
      usage,
      perTurn: server.requests.map((q) => q.usage),
      breakpoints: server.requests.map((q) =>
        (JSON.stringify(q.body).match(/"cache_control"/g) ?? []).length
      ),
    };
  } finally {
    await server.close();
  }
}

/** Model turns of the compaction row (summary calls not counted). */
const LONG_TURNS = 50;

async function compactedShare(): Promise<void> {
  let turns = 0;
  const server = await startModelServer({
    cache: "computed",
    respond: (req) => {
      if (req.raw.includes("The conversation is about to pass your context window")) {
        return { text: `Summary: notes.md was read ${turns} times; keep reading it.` };
      }
      turns++;
      return turns < LONG_TURNS
        ? { toolCalls: [{ name: "read", args: { path: "notes.md" } }] }
        : { toolCalls: [{ name: "submit_result", args: { result: { data: { done: true } } } }] };
    },
  });
  try {
    const { cwd, env } = anthropicWorld(
      "loop-compact",
      server.url,
      "providers: { anthropic: { contextWindow: 40000 } }\n",
    );
    const lines = Array.from({ length: 100 }, (_, i) => `- note ${i}: the long loop reads this.`);
    writeFileSync(join(cwd, "notes.md"), lines.join("\n") + "\n");
    const args = [
      "run",
      "task",
      "Read notes.md 49 times.",
      "--model",
      "anthropic/claude-sonnet-4-5",
    ];
    const r = await timedAsync(XCSH, [...args, "--json"], { cwd, env });
    if (r.code !== 0) throw new Error(`xcsh run exited ${r.code}: ${r.stderr.slice(-2000)}`);
    const usage = JSON.parse(r.stdout).results[0].usage;
    const summaries = server.requests.length - LONG_TURNS;
    if (turns !== LONG_TURNS || summaries < 1) {
      throw new Error(
        `expected ${LONG_TURNS} turns and a compaction, saw ${turns} and ${summaries}`,
      );
    }
    const share = (100 * usage.cacheRead) / usage.input;
    floorRow(
      SECTION,
      `cached share of input tokens, ${LONG_TURNS}-turn task with ${summaries} compactions`,
      share,
      80,
      "%",
    );
    details.loopCompactedShare = { usage, summaries, perTurn: server.requests.map((q) => q.usage) };
  } finally {
    await server.close();
  }
}

/** Tasks of the siblings' cached-share row. */
const SIBLINGS = 8;
/** How long each answer of that row takes to start, ms. */
const SIBLING_TTFT_MS = 300;

async function siblingsShare(): Promise<void> {
  const server = await startModelServer({
    cache: "computed",
    respond: () => ({ text: "done", delayMs: SIBLING_TTFT_MS }),
  });
  try {
    const { cwd, env } = anthropicWorld("loop-siblings", server.url);
    const args = [
      "run",
      "quick_task",
      ...Array.from({ length: SIBLINGS }, (_, i) => `--task=t${i}=Say ok ${i}.`),
      "--model",
      "anthropic/claude-sonnet-4-5",
      "--json",
    ];
    const r = await timedAsync(XCSH, args, { cwd, env });
    if (r.code !== 0) throw new Error(`xcsh run exited ${r.code}: ${r.stderr.slice(-2000)}`);
    if (server.requests.length !== SIBLINGS) {
      throw new Error(`expected ${SIBLINGS} model calls, saw ${server.requests.length}`);
    }
    const later = server.requests.slice(1).map((q) => q.usage!);
    const read = later.reduce((n, u) => n + u.cacheRead, 0);
    const input = later.reduce((n, u) => n + u.input, 0);
    floorRow(
      SECTION,
      `cached share of the 2nd–${SIBLINGS}th siblings' first requests, Anthropic fan-out`,
      (100 * read) / input,
      90,
      "%",
    );
    details.loopSiblingsShare = { wallMs: r.ms, perTask: server.requests.map((q) => q.usage) };
  } finally {
    await server.close();
  }
}

/** The answers' delays of the concurrent-tasks row, ms. */
const DELAYS = [200, 400, 600, 800];
const ROUNDS = 5;

/** Wall time from the first tool_start to the last tool_end. */
function toolSpan(events: readonly TimedEvent[]): number {
  const starts = events.filter((e) => e.event.type === "tool_start").map((e) => e.at);
  const ends = events.filter((e) => e.event.type === "tool_end").map((e) => e.at);
  return Math.max(...ends) - Math.min(...starts);
}

async function concurrentTasks(): Promise<void> {
  // The boss's assignment lists the delays its task calls ask for; each
  // helper's assignment is its delay.
  const respond = (req: RecordedRequest): Turn => {
    const messages = req.body.messages as { role: string; content: unknown }[];
    const assignment = String(messages.find((m) => m.role === "user")?.content ?? "");
    const tools = (req.body.tools ?? []) as { function?: { name?: string } }[];
    if (!tools.some((t) => t.function?.name === "task")) {
      return { text: "done", delayMs: Number(assignment) };
    }
    if (messages.at(-1)?.role === "tool") return { text: "all done" };
    return {
      toolCalls: assignment.split(",").map((ms, i) => ({
        name: "task",
        args: { agent: "helper", tasks: [{ id: `t${i}`, assignment: ms }] },
      })),
    };
  };
  const server = await startModelServer({ respond });
  try {
    const { home, cwd } = loopWorld("loop-concurrent", server.url, {
      helper: "---\nname: helper\ndescription: waits\ntools: read\n---\nAnswer.\n",
    });
    const agentSet = await agentSetOf(cwd, home);
    const envelope = (assignment: string) =>
      JSON.parse(planText({
        id: "boss",
        agent: {
          name: "boss",
          description: "delegates",
          systemPrompt: "Delegate.",
          tools: ["task", "submit_result"],
          spawns: ["helper"],
        },
        assignment,
        cwd,
        model: "local/mock",
        config: userConfig(home),
        agentSet,
      }));
    const slowest = String(Math.max(...DELAYS));
    await runChildTimed(envelope(slowest), home, cwd); // warm-up
    const alone: number[] = [];
    const together: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      alone.push(toolSpan(await runChildTimed(envelope(slowest), home, cwd)));
      together.push(toolSpan(await runChildTimed(envelope(DELAYS.join(",")), home, cwd)));
    }
    details.loopConcurrentTasks = { delaysMs: DELAYS, aloneMs: alone, togetherMs: together };
    log(
      `concurrent tasks: alone ${alone.map((x) => x.toFixed(0)).join(" ")} ms; ` +
        `four together ${together.map((x) => x.toFixed(0)).join(" ")} ms`,
    );
    row(
      SECTION,
      `a turn of ${DELAYS.length} concurrent task calls vs the slowest alone`,
      median(together),
      median(alone),
      "ms",
      1.2,
    );
  } finally {
    await server.close();
  }
}

/** Every row of the section, in order. */
const ROWS: (() => Promise<void>)[] = [
  cachedShare,
  compactedShare,
  siblingsShare,
  concurrentTasks,
];

export async function benchLoop(): Promise<void> {
  requireXcsh();
  for (const measure of ROWS) await measure();
}
