/**
 * The pure steps of a child run that `childMain` takes in order: the tools
 * with their results scrubbed of the run's secret values, the tools telling
 * the caller before each call runs, the
 * sampling settings the envelope sends, the tool context the tools run in,
 * and what a run stopped from outside (timeout, signal) or by an error
 * reports. Pure.
 *
 * @example
 * ```ts
 * stopMessage(new StopReason("timed out after 5 s"), 5000, { model: "m", baseURL: "http://h" });
 * // "timed out after 5 s (limits.timeoutMs 5000; model m at http://h)"
 * ```
 *
 * @module
 */
import { dirname } from "node:path";
import type { Finding, TaskRunner, ToolContext, ToolSpec } from "../tools/tool-spec.ts";
import type { XcshConfig } from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { redactValues } from "../text/redact.ts";
import { displayPath } from "../fs/home.ts";
import { ModelCallError } from "./retries.ts";

/** Why a run was stopped from outside the loop. */
export class StopReason extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StopReason";
  }
}

/** A config warning's or error's file as the child's stderr names it. */
export function displayFile(file: string | undefined, home: string): string {
  return file ? displayPath(file, home) : "config";
}

/**
 * The tools with their results scrubbed of `secrets` before the model sees
 * them (a command's output, a file, an MCP server's answer alike). Only the
 * values go: key shapes stay for the model (a test fixture holding one stays
 * editable) and are hidden from everything shown or written.
 */
export function redactingTools(
  tools: ReadonlyMap<string, ToolSpec>,
  secrets: readonly string[],
): Map<string, ToolSpec> {
  const out = new Map<string, ToolSpec>();
  for (const [name, spec] of tools) {
    out.set(name, {
      ...spec,
      run: async (args, ctx) => {
        const o = await spec.run(args, ctx);
        return {
          ...o,
          output: redactValues(o.output, secrets),
          summary: redactValues(o.summary, secrets),
          ...(o.full !== undefined ? { full: redactValues(o.full, secrets) } : {}),
        };
      },
    });
  }
  return out;
}

/** The tools, each calling `before` first (none: the tools as they are). */
export function announcingTools(
  tools: Map<string, ToolSpec>,
  before: (() => void) | undefined,
): Map<string, ToolSpec> {
  if (!before) return tools;
  const out = new Map<string, ToolSpec>();
  for (const [name, spec] of tools) {
    out.set(name, {
      ...spec,
      run: (args, ctx) => {
        before();
        return spec.run(args, ctx);
      },
    });
  }
  return out;
}

/** The context every tool of the run gets. */
export function toolContextFor(o: {
  envelope: TaskEnvelope;
  config: XcshConfig;
  workspace: {
    roots: string[];
    folders?: ToolContext["folders"];
    programs?: readonly string[];
    sandbox?: ToolContext["sandbox"];
  };
  hasSkillTool: boolean;
  signal: AbortSignal;
  /** The environment commands get, worked out at its first read. */
  commandEnv: () => Record<string, string>;
  findings: Finding[];
  runTask: TaskRunner;
}): ToolContext {
  const { envelope, workspace } = o;
  return {
    cwd: envelope.cwd,
    // The memory folder (`memory:`), the agent's own to write, is among them.
    roots: workspace.roots,
    ...(workspace.folders ? { folders: workspace.folders } : {}),
    ...(workspace.programs?.length ? { programs: workspace.programs } : {}),
    ...(workspace.sandbox ? { sandbox: workspace.sandbox } : {}),
    // The lane the parent decided, relative to the project root.
    ...(envelope.writes && workspace.roots[0]
      ? { lane: { root: workspace.roots[0], globs: envelope.writes } }
      : {}),
    signal: o.signal,
    fetchAllow: o.config.task.webFetchAllow ?? [],
    get env() {
      return o.commandEnv();
    },
    findings: o.findings,
    ...(envelope.agent.permissions ? { permissions: envelope.agent.permissions } : {}),
    ...(o.hasSkillTool && envelope.skills
      ? {
        skills: envelope.skills,
        readRoots: envelope.skills.map((s) => dirname(s.filePath)),
      }
      : {}),
    runTask: o.runTask,
  };
}

/**
 * The error a run reports when its loop threw: the stop's own words (a
 * timeout also names the limit, the model and where it was served), a model
 * call's error, or an internal error.
 */
export function stopMessage(
  reason: unknown,
  timeoutMs: number,
  target: { model: string; baseURL: string },
): string {
  let message: string;
  if (reason instanceof StopReason || reason instanceof ModelCallError) message = reason.message;
  else message = `internal error: ${reason instanceof Error ? reason.message : String(reason)}`;
  if (reason instanceof StopReason && reason.message.startsWith("timed out")) {
    message += ` (limits.timeoutMs ${timeoutMs}; model ${target.model} at ${target.baseURL})`;
  }
  return message;
}
