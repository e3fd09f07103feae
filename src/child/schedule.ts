/**
 * Which tool calls of one model turn may run at the same time.
 *
 * Calls keep the order the model gave them. Consecutive calls that may share
 * the moment (read-only tools, `task`, and calls that will only be answered
 * with an error) form one batch and run side by side; any other call (one that
 * changes something: `edit`, `write`, `bash`, `report_finding`, and
 * `submit_result`, which may end the run) waits for every call before it and
 * runs alone. The next batch starts when the previous one has ended. Pure.
 *
 * @example
 * ```ts
 * planBatches(["read", "grep", "edit", "read"], (n) => n !== "edit");
 * // [["read", "grep"], ["edit"], ["read"]]
 * ```
 *
 * @module
 */
import type { ToolSpec } from "../tools/tool-spec.ts";

/** The calls in order, grouped into batches that run one after another. */
export function planBatches<T>(calls: readonly T[], shared: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  let open: T[] | undefined;
  for (const call of calls) {
    if (shared(call)) {
      if (!open) {
        open = [];
        batches.push(open);
      }
      open.push(call);
    } else {
      open = undefined;
      batches.push([call]);
    }
  }
  return batches;
}

/**
 * Whether a call of `spec` may run beside its neighbours: read-only tools,
 * and tools declared `concurrent`. A call of no known tool does nothing but
 * answer an error, so it may too.
 */
export function runsShared(spec: ToolSpec | undefined): boolean {
  if (!spec) return true;
  return spec.concurrent ?? spec.readOnly;
}
