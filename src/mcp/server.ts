/**
 * `xcsh mcp`: the agents, served over MCP on stdio.
 *
 * Decides the tools — `task` (run one agent on one or more assignments, with
 * the same runner, guards and messages as `xcsh run`) and `agents` (pages
 * of the agents discovered right now) — what a call returns (text plus
 * `structuredContent`), progress notifications when the client sent a
 * progress token, and cancellation (a cancelled request ends its children's
 * process trees). The `task` tool supports MCP tasks (spec 2025-11-25): a
 * task-augmented call returns a task handle at once and runs on;
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` (which ends
 * its children) answer from the task store. However many calls run at
 * once, the whole server starts at most `task.maxConcurrency` children at a
 * time (one limiter, sized from the config read at start-up, which a
 * project config may lower but never raise). An unknown tool is a protocol
 * error (`-32602`); malformed lines are answered by the transport. Stdout
 * carries JSON-RPC only; every log goes to stderr.
 *
 * @module
 */
import process from "node:process";
import { writeErr } from "../text/stdio.ts";
import { Server } from "@modelcontextprotocol/sdk/server";
import { LineTransport } from "./stdio-transport.ts";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { readTaskInput, TASK_INPUT_SCHEMA } from "./task-input.ts";
import { AGENTS_TOOL, agentsAnswer, readAgentsInput } from "./agents-tool.ts";
import { CursorSigner } from "./cursor.ts";
import { CancellableTaskStore, DEFAULT_TASK_TTL_MS, TASK_POLL_INTERVAL_MS } from "./task-store.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import { loadConfig } from "../config/load.ts";
import { runId, saveArtifact } from "../runner/artifacts.ts";
import { pathToFileURL } from "node:url";
import { cutToShare, type Kept } from "../tools/result-share.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { type CallerState, readCallerState } from "../protocol/variables.ts";
import { TaskTool } from "../runner/task-runner.ts";
import { runServedCall, type ServedCallContext } from "../runner/served-call.ts";
import { budgetLine } from "../runner/budget/budget-governor.ts";
import { createLimiter } from "../process/concurrency.ts";
import type { Diagnostic, TaskRequest, TaskResult } from "../types.ts";
import type { ChildEvent } from "../protocol/events.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { compactLabel } from "../progress/compact-label.ts";
import { retryLabel } from "../progress/retry-label.ts";
import { RunningTools } from "../progress/running-tools.ts";
import { runLine, RunTally } from "../progress/run-tally.ts";
import { isVerbose, warningSummary } from "../text/warnings.ts";
import pkg from "../../package.json" with { type: "json" };

type ToolResult = {
  content: (
    | { type: "text"; text: string }
    | { type: "resource_link"; uri: string; name: string; mimeType: string; description: string }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** How an MCP client sees every agent: said when an unknown agent's list is cut. */
const LIST_HINT = "the `agents` tool lists them all and finds them by `query`";

function logWarnings(warnings: readonly Diagnostic[]): void {
  for (const w of warnings) writeErr(formatDiagnostic(w) + "\n");
}

function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** The text a client's model reads for one task's outcome. */
export function resultText(r: TaskResult): string {
  const head = `## ${r.id} (${r.agent}): ${r.status}`;
  // A plain cancellation is said by the heading alone (not "cancelled" twice).
  if (r.status === "cancelled" && (r.error ?? "cancelled") === "cancelled") return head;
  const checks = (r.checks ?? []).map((c) =>
    `- ${c.name}: ${c.skipped ? "skipped" : c.ok ? "ok" : "failed"}${
      c.ok ? "" : ` (${c.output.trimEnd().split("\n").pop() ?? ""})`
    }`
  );
  const checked = checks.length > 0
    ? `\nAcceptance checks${r.verified === false ? " (not verified)" : ""}:\n${checks.join("\n")}`
    : "";
  if (r.status !== "ok" && r.status !== "rejected") {
    return `${head}\n${r.error ?? "unknown error"}${checked}`;
  }
  const why = r.status === "rejected" ? `\n${r.error ?? "its checks failed"}` : "";
  const body = typeof r.data === "string"
    ? r.data
    : r.data !== undefined
    ? JSON.stringify(r.data, null, 2)
    : r.text ?? "";
  const kept = r.worktree
    ? `\n(changes kept in worktree ${r.worktree.path}, branch ${r.worktree.branch}: ${
      r.worktree.changed.join(", ")
    })`
    : "";
  const session = r.session ? `\n(session ${r.session})` : "";
  return `${head}${why}\n${body}${checked}${kept}${session}`;
}

/**
 * The most of one task's result a `task` answer carries inline (about
 * 10 000 tokens, under what MCP clients take from one tool result).
 */
export const MCP_INLINE_CHARS = 40_000;

/**
 * The `task` answer for `results`: each result's text inline when it fits;
 * a longer one cut to {@link MCP_INLINE_CHARS} (head and tail) with the
 * whole of it saved by `save` and linked (`resource_link`, a `file://` URI),
 * its structured entry then carrying the cut text and the file
 * (`artifact`) instead of its data.
 */
export async function taskAnswer(
  results: readonly TaskResult[],
  save: (r: TaskResult, text: string) => Promise<string>,
  limit = MCP_INLINE_CHARS,
): Promise<Pick<ToolResult, "content" | "structuredContent">> {
  const texts: string[] = [];
  const links: ToolResult["content"] = [];
  const structured: TaskResult[] = [];
  for (const r of results) {
    const whole = resultText(r);
    if (whole.length <= limit) {
      texts.push(whole);
      structured.push(r);
      continue;
    }
    let kept: Kept;
    try {
      kept = { path: await save(r, whole) };
    } catch (err) {
      kept = { error: (err as Error).message };
    }
    const shown = cutToShare(whole, limit, kept).text;
    texts.push(shown);
    const { data: _data, text: _text, ...rest } = r;
    structured.push({ ...rest, text: shown, ...("path" in kept ? { artifact: kept.path } : {}) });
    if ("path" in kept) {
      links.push({
        type: "resource_link",
        uri: pathToFileURL(kept.path).href,
        name: `${r.id} result`,
        mimeType: "text/plain",
        description: `The whole result of task ${r.id} (${whole.length} characters).`,
      });
    }
  }
  return {
    content: [{ type: "text", text: texts.join("\n\n") }, ...links],
    structuredContent: { results: structured },
  };
}

/** What a server's shutdown needs: a signal ending every task call, and the calls still running. */
export interface McpLifecycle {
  shutdown: AbortSignal;
  running: Set<Promise<unknown>>;
  /** Log every discovery warning (else one summary line, repeated only when it changes). */
  verbose?: boolean;
}

/** Builds the server; `serveMcp()` connects it to stdio. */
export async function createMcpServer(
  env: DiscoveryEnv,
  caller: CallerState,
  { shutdown, running, verbose }: McpLifecycle,
): Promise<Server> {
  let lastSummary: string | undefined;
  const discoveryWarnings = (warnings: readonly Diagnostic[]) => {
    if (verbose || isVerbose(false, env.env)) return logWarnings(warnings);
    const line = warningSummary(warnings, "agent");
    if (line && line !== lastSummary) writeErr(line + "\n");
    if (line) lastSummary = line;
  };
  const startConfig = await loadConfig(env.cwd, env.home);
  logWarnings(startConfig.warnings);
  if (!startConfig.ok) {
    throw new Error(formatDiagnostic(startConfig.error).replace(/^xcsh: error: /, ""));
  }
  const described = await TaskTool.create({
    env,
    config: startConfig.config,
    caller,
    runId: runId(),
    onWarnings: logWarnings,
    onDiscoveryWarnings: discoveryWarnings,
  });

  // One cap for every call of this server: concurrent calls share it.
  const limiter = createLimiter(startConfig.config.task.maxConcurrency);
  const cursors = new CursorSigner();
  const taskStore = new CancellableTaskStore();
  const server = new Server(
    { name: "xcsh", version: pkg.version },
    {
      capabilities: {
        tools: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore,
    },
  );
  server.onclose = () => taskStore.cleanup();

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "task",
        description: described.description,
        inputSchema: TASK_INPUT_SCHEMA,
        outputSchema: {
          type: "object",
          properties: { results: { type: "array", items: { type: "object" } } },
          required: ["results"],
        },
        execution: { taskSupport: "optional" },
      },
      AGENTS_TOOL,
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const { name, arguments: args } = request.params;
    if (name === "agents") {
      const input = readAgentsInput(args ?? {});
      if (typeof input === "string") return errorResult(`Invalid arguments: ${input}`);
      const found = await discoverAgents(env);
      discoveryWarnings(found.warnings);
      const answer = agentsAnswer(found.agents, input, cursors);
      if (!answer.ok) return errorResult(answer.message);
      return {
        content: [{ type: "text", text: answer.text }],
        structuredContent: answer.structured,
      };
    }
    if (name !== "task") {
      // A protocol error (MCP's tools spec); McpError would prefix its own code to the text.
      throw Object.assign(new Error(`Unknown tool "${name}". Tools: task, agents`), {
        code: ErrorCode.InvalidParams,
      });
    }
    const req = readTaskInput(args ?? {});
    if (typeof req === "string") return errorResult(`Invalid arguments: ${req}`);
    const token = extra._meta?.progressToken;
    let progress = 0;
    const calls = new RunningTools();
    // The call's totals, said after each message (done / running / queued / waiting, tokens).
    const tally = new RunTally();
    let lastTotals = "";
    // Notifications still being written: the response waits for them, so a
    // client never sees progress arrive after the result.
    const sending = new Set<Promise<unknown>>();
    const onEvent = (id: string, e: ChildEvent) => {
      if (token === undefined) return;
      tally.event(id, e);
      if (e.type === "result") tally.finish(id);
      let message: string | undefined;
      if (e.type === "waiting") {
        message = e.reason === "queued"
          ? `[${id}] queued`
          : `[${id}] waiting on ${e.provider ?? "the provider"}'s rate limit${
            e.ms ? ` (${(e.ms / 1000).toFixed(1)}s)` : ""
          }`;
      } else if (e.type === "start") {
        message = `[${id}] started on ${e.model}${e.note ? ` (${e.note})` : ""}`;
      } else if (e.type === "retry") message = `[${id}] ${retryLabel(e)}`;
      else if (e.type === "compact") message = `[${id}] ${compactLabel(e)}`;
      else if (e.type === "tool_start") {
        calls.event(id, e);
        message = `[${id}] ${calls.label(id)}`;
      } else if (e.type === "tool_end") calls.event(id, e);
      else if (e.type === "result") message = `[${id}] ${e.status}`;
      const send = (text: string) => {
        progress++;
        const sent = extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, message: text },
        }).catch(() => {});
        sending.add(sent);
        sent.finally(() => sending.delete(sent));
      };
      if (message) send(message);
      // The call's totals, when they change at a call, a wait or an ending.
      if (e.type === "usage" || e.type === "waiting" || e.type === "result") {
        const line = `run: ${runLine(tally.snapshot())}`;
        if (line !== lastTotals) send(line);
        lastTotals = line;
      }
    };
    const run = async (signal: AbortSignal): Promise<ToolResult> => {
      const call = runTaskCall(
        {
          env,
          caller,
          onEvent,
          onDiscoveryWarnings: discoveryWarnings,
          limiter,
          onBudget: (read) => tally.budgetFrom(read),
        },
        req,
        AbortSignal.any([signal, shutdown]),
      );
      running.add(call);
      const result = await call.finally(() => running.delete(call));
      // The response waits for its progress notifications.
      await Promise.allSettled([...sending]);
      return result;
    };
    const asTask = request.params.task;
    if (!asTask || !extra.taskStore) return await run(extra.signal);

    // A task-augmented call: answer with the task now, run on, store the result.
    const store = extra.taskStore;
    const task = await store.createTask({
      ttl: asTask.ttl ?? DEFAULT_TASK_TTL_MS,
      pollInterval: TASK_POLL_INTERVAL_MS,
    });
    const tracked = taskStore.track(task.taskId);
    run(tracked.signal)
      .then((result) =>
        store.storeTaskResult(task.taskId, result.isError ? "failed" : "completed", result)
      )
      // Cancelled meanwhile: the task is already terminal and keeps that status.
      .catch(() => {})
      .finally(tracked.done);
    return { task } as unknown as ToolResult;
  });
  return server;
}

/** One `task` call: the shared served call, the result as MCP content. */
async function runTaskCall(
  ctx: Omit<ServedCallContext, "onWarnings" | "listHint">,
  req: TaskRequest,
  signal: AbortSignal,
): Promise<ToolResult> {
  const outcome = await runServedCall(
    { ...ctx, onWarnings: logWarnings, listHint: LIST_HINT },
    req,
    signal,
  );
  if (!outcome.ok) return errorResult(outcome.message);
  const { results, run, budget } = outcome;
  const answer = await taskAnswer(
    results,
    (r, text) => saveArtifact(ctx.env.home, run, r.id, text),
  );
  if (budget) {
    answer.content = [{ type: "text", text: budgetLine(budget) }, ...answer.content];
    answer.structuredContent = { ...answer.structuredContent, budget };
  }
  return {
    ...answer,
    ...(results.every((r) => r.status !== "ok") ? { isError: true } : {}),
  };
}

/** Runs the MCP server on stdin/stdout until the client disconnects. */
export async function serveMcp(
  env: DiscoveryEnv,
  opts: { verbose?: boolean } = {},
): Promise<number> {
  const caller = readCallerState(process.env);
  if (!caller.ok) throw new Error(caller.message);
  const shutdown = new AbortController();
  const running = new Set<Promise<unknown>>();
  const server = await createMcpServer(env, caller.state, {
    shutdown: shutdown.signal,
    running,
    verbose: opts.verbose,
  });
  const transport = new LineTransport();
  // The client going away or a signal ends the server; running tasks are
  // cancelled and their children's trees ended before the process exits.
  const closed = new Promise<string>((resolve) => {
    transport.onclose = () => resolve("client closed the connection");
    process.stdin.on("end", () => resolve("client closed stdin"));
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.on(signal, () => resolve(signal));
    }
  });
  await server.connect(transport);
  writeErr(`xcsh mcp: serving ${pkg.version} on stdio\n`);
  const why = await closed;
  if (running.size > 0) {
    writeErr(`xcsh mcp: ${why}; cancelling ${running.size} running task call(s)\n`);
  }
  shutdown.abort();
  await Promise.allSettled([...running]);
  await server.close().catch(() => {});
  return 0;
}
