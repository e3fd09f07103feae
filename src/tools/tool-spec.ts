/**
 * The contract every child tool implements: a name, a description and a JSON
 * Schema for its arguments (sent to the model), and a `run` that never throws
 * for a user-level problem but answers `{ ok: false, output }` so the model
 * can read what went wrong and try again.
 *
 * @module
 */
import type { NetReach, PermissionRules, SkillRef, TaskRequest, TaskResult } from "../types.ts";
import type { ConfinedFolder } from "../fs/confined-folder.ts";

/** A JSON Schema object describing a tool's arguments. */
export type JsonSchemaObject = Record<string, unknown> & { type: "object" };

/** One finding recorded by `report_finding`. */
export interface Finding {
  title: string;
  body: string;
  priority?: number;
  confidence?: number;
  file_path?: string;
  line_start?: number;
  line_end?: number;
}

/**
 * Runs sub-tasks for the `task` tool. The parent-side runner implements it;
 * the signal aborts every task it started.
 *
 * @example
 * ```ts
 * const runner: TaskRunner = async (req) =>
 *   req.tasks.map((t) => ({ id: t.id, agent: req.agent, status: "ok", text: "done" }));
 * ```
 */
export type TaskRunner = (req: TaskRequest, signal: AbortSignal) => Promise<TaskResult[]>;

/** What a tool may use while it runs. */
export interface ToolContext {
  /** The envelope's working directory; relative paths start here. */
  cwd: string;
  /**
   * The folders the file tools may use: the project root, then
   * `task.additionalDirectories` (absent: the working directory alone).
   */
  roots?: readonly string[];
  /** The sandbox `bash` runs its commands in; absent: unsandboxed. */
  sandbox?: CommandSandbox;
  /** Aborted on timeout, signal or task end. */
  signal: AbortSignal;
  /**
   * `task.webFetchAllow` of the user's config: hosts and ranges `web_fetch`
   * may reach besides public addresses (absent: none).
   */
  fetchAllow?: readonly string[];
  /** Environment for commands (already filtered: see `src/sandbox/command-env.ts`). */
  env: Record<string, string>;
  /** Findings reported so far (`report_finding` appends). */
  findings: Finding[];
  /** Runs delegated tasks (`task` tool). */
  runTask: TaskRunner;
  /** The agent's permission rules, checked before each call (and each `web_fetch` redirect). */
  permissions?: PermissionRules;
  /** The skills the `skill` tool loads. */
  skills?: readonly SkillRef[];
  /**
   * Folders the read tools may also look in (the skills' folders, the task's
   * artifacts folder once a long result was kept there): never written.
   */
  readRoots?: readonly string[];
  /**
   * The folders behind `roots` as checked when the task started (the
   * outermost: a root inside another is not listed again), and the folders
   * inside them no tool writes (skill folders). Each sandboxed command checks
   * them again before it starts; `write` and `edit` refuse the read-only ones.
   */
  folders?: { writable: readonly ConfinedFolder[]; readOnly: readonly ConfinedFolder[] };
  /**
   * The files the task's hooks and MCP servers run (real paths): `write` and
   * `edit` refuse them, as the sandbox binds them read-only for commands.
   */
  programs?: readonly string[];
  /**
   * The task's write lane (`fs/write-lane.ts`): `write` and `edit` change
   * only paths below `root` (the project root, a real path) that match one
   * of `globs`; a sandboxed command gets only their literal prefixes
   * writable. Absent: no lane.
   */
  lane?: { root: string; globs: readonly string[] };
}

/** A working bubblewrap sandbox for `bash` (see `src/sandbox/`). */
export interface CommandSandbox {
  mode: "read-only" | "workspace-write";
  network: boolean;
  /** With network: what commands reach (absent: any public host, through the proxy). */
  reach?: NetReach;
  /** The `bwrap` executable. */
  bwrap: string;
  /** The task's private temporary folder, `/tmp` inside the sandbox. */
  tmp: string;
  /** Files bound read-only over the writable folders (the scripts hooks run). */
  readOnly?: readonly string[];
  /**
   * The command that starts xcsh again inside the sandbox, for the network
   * bridge (`xcsh __netbridge`), and the paths it needs visible there;
   * absent: this program (`selfCommand`).
   */
  bridge?: { command: readonly string[]; needs: readonly string[] };
}

/** What a tool call produced. */
export interface ToolOutcome {
  ok: boolean;
  /** Sent back to the model. */
  output: string;
  /** One short line for the `tool_end` event. */
  summary: string;
  /**
   * The whole output when `output` is a cut of it (a command's long output):
   * kept in the task's artifacts, never sent (see `child/spill.ts`).
   */
  full?: string;
}

/** A tool a child can offer the model. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /**
   * True when a call only looks and changes nothing (files, processes,
   * findings). Consecutive read-only calls of one model turn run side by side.
   */
  readOnly: boolean;
  /**
   * True when calls may run beside other such calls although the tool is not
   * read-only (`task`: each sub-agent is its own process). Default: `readOnly`.
   */
  concurrent?: boolean;
  /** True when the tool checks its own arguments (an MCP server's tool). */
  checksOwnArguments?: boolean;
  // deno-lint-ignore no-explicit-any
  run(args: any, ctx: ToolContext): Promise<ToolOutcome>;
}

/** A failed outcome whose summary is its message. */
export function toolError(message: string): ToolOutcome {
  return { ok: false, output: `Error: ${message}`, summary: message.split("\n")[0].slice(0, 200) };
}
