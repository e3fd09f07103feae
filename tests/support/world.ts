/**
 * Builds small throwaway worlds for end-to-end tests of `xcsh run` and
 * `xcsh mcp`: a HOME with a config pointing at the local model server, a
 * project folder with agents in `.xcsh/agents`, and helpers to read what the
 * children sent and to find processes left behind.
 *
 * @module
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordedRequest, Turn } from "./model-server.ts";

export interface World {
  root: string;
  home: string;
  cwd: string;
  /** Adds (or replaces) a project agent file. */
  addAgent(name: string, markdown: string): void;
  cleanup(): void;
}

/** A config that sends every model call to the local server (OpenAI wire format). */
export function localConfig(url: string, extra = ""): string {
  return `providers:\n  local: { type: openai-compatible, baseURL: "${url}/v1" }\n` +
    `models:\n  default: local/mock-large\n  roles: { smol: local/mock-small, slow: local/mock-large, plan: local/mock-large }\n` +
    extra;
}

/** Creates a world; `agents` maps file names (without `.md`) to Markdown. */
export function makeWorld(config: string, agents: Record<string, string> = {}): World {
  const root = mkdtempSync(join(tmpdir(), "xcsh-world-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  mkdirSync(join(cwd, ".xcsh", "agents"), { recursive: true });
  writeFileSync(join(home, ".xcsh", "agent", "config.yml"), config);
  writeFileSync(join(cwd, "README.md"), "# demo project\n");
  const addAgent = (name: string, markdown: string) =>
    writeFileSync(join(cwd, ".xcsh", "agents", `${name}.md`), markdown);
  for (const [name, md] of Object.entries(agents)) addAgent(name, md);
  return {
    root,
    home,
    cwd,
    addAgent,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Markdown for a test agent. */
export function agentMd(name: string, fields: string, prompt = `You are ${name}.`): string {
  return `---\nname: ${name}\ndescription: Test agent ${name}\n${fields}---\n${prompt}\n`;
}

// deno-lint-ignore no-explicit-any
type Msg = Record<string, any>;

/** Tool names offered in an OpenAI-format request. */
export function offeredTools(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t: Msg) => t.function?.name ?? t.name);
}

/** The system prompt of an OpenAI-format request. */
export function systemPrompt(req: RecordedRequest): string {
  return (req.body.messages ?? []).filter((m: Msg) => m.role === "system")
    .map((m: Msg) => typeof m.content === "string" ? m.content : JSON.stringify(m.content)).join(
      "\n",
    );
}

/** The first user message (the assignment) of an OpenAI-format request. */
export function assignmentOf(req: RecordedRequest): string {
  const m = (req.body.messages ?? []).find((x: Msg) => x.role === "user");
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
}

/** The text of every tool result in the request, joined. */
export function toolResults(req: RecordedRequest): string {
  return (req.body.messages ?? []).filter((m: Msg) => m.role === "tool")
    .map((m: Msg) => typeof m.content === "string" ? m.content : JSON.stringify(m.content)).join(
      "\n",
    );
}

/** True when the request answers a tool call (the model's next turn). */
export function isAfterTool(req: RecordedRequest): boolean {
  return (req.body.messages ?? []).at(-1)?.role === "tool";
}

/** Pids of live processes whose working folder is inside `dir` (Linux). */
export function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(dir + "/")) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Waits (bounded) until no process works inside `dir`; returns the survivors. */
export async function waitForNoProcessesIn(dir: string, maxMs = 10_000): Promise<number[]> {
  const until = Date.now() + maxMs;
  let left = processesIn(dir);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesIn(dir);
  }
  return left;
}

/** Pids of live `xcsh __child` processes working inside `dir`. */
export function childPids(dir: string): number[] {
  return processesIn(dir).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("__child");
    } catch {
      return false;
    }
  });
}

/** Data that satisfies the bundled explore agent's output schema. */
export const EXPLORE_SAMPLE = {
  query: "Where is the title?",
  files: [{ path: "README.md", line_start: 1, line_end: 1, description: "the title" }],
  code: [{
    path: "README.md",
    line_start: 1,
    line_end: 1,
    language: "markdown",
    content: "# demo project",
  }],
  architecture: "One README.",
  start_here: { path: "README.md", reason: "it is the only file" },
};

/**
 * A responder for a chain: a child offered the `task` tool delegates to
 * `agent`; the grandchild (offered none) stalls forever.
 */
export function delegateThenStall(agent: string): (req: RecordedRequest) => Turn {
  return (req) =>
    offeredTools(req).includes("task")
      ? {
        toolCalls: [{
          name: "task",
          args: { agent, tasks: [{ id: "stuck", assignment: "hang" }] },
        }],
      }
      : { fault: "stall" };
}
