/**
 * Where the MCP server keeps task-augmented calls (MCP tasks, spec
 * 2025-11-25): the SDK's in-memory store, plus the one thing it cannot know —
 * that a task moved to `cancelled` (by `tasks/cancel`) must stop its work.
 * Each running call registers an abort controller under its task id.
 *
 * @module
 */
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/experimental/tasks/stores/in-memory.d.ts"
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { Task } from "@modelcontextprotocol/sdk/types.js";

/** How long a finished task's result is kept when the client asks for no ttl. */
export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
/** The polling interval suggested to clients. */
export const TASK_POLL_INTERVAL_MS = 500;

export class CancellableTaskStore extends InMemoryTaskStore {
  private readonly controllers = new Map<string, AbortController>();

  /** A controller aborted when task `taskId` is cancelled; `done()` forgets it. */
  track(taskId: string): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    this.controllers.set(taskId, controller);
    return { signal: controller.signal, done: () => this.controllers.delete(taskId) };
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task["status"],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === "cancelled") this.controllers.get(taskId)?.abort();
  }
}
