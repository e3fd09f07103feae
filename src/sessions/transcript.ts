/**
 * A session as a person reads it: the header (agent, model, folder,
 * worktree), the assignment, each tool call with its arguments and the
 * summary it ended with, follow-up assignments of resumes, and each result.
 * Pure: records in, lines out, so that `xcsh logs -f` can print a file as it
 * grows, record by record.
 *
 * @example
 * ```ts
 * transcriptLines({
 *   type: "event",
 *   event: { type: "tool_end", id: "a", callId: "c1", tool: "read", ok: true, summary: "12 lines" },
 * });
 * // ["  ✓ read: 12 lines"]
 * ```
 *
 * @module
 */
import { oneLine } from "../text/labels.ts";
import type { SessionRecord } from "./store.ts";

function indent(text: string, prefix = "  "): string[] {
  return text.trimEnd().split("\n").map((l) => prefix + l);
}

/** The lines one record adds to the transcript. */
export function transcriptLines(record: SessionRecord): string[] {
  switch (record.type) {
    case "session": {
      const e = record.envelope;
      const out = [
        `session ${record.id} · agent ${record.agent} · model ${record.model ?? "(default)"}`,
        `started ${record.created} in ${record.cwd}`,
      ];
      if (record.worktree) {
        out.push(`worktree ${record.worktree.path} (branch ${record.worktree.branch})`);
      }
      out.push("", "## assignment", ...indent(e.assignment));
      if (e.context) out.push("", "## context", ...indent(e.context));
      return out;
    }
    case "resume":
      return [
        "",
        `## follow-up (${record.at})`,
        ...(record.worktree
          ? [`in worktree ${record.worktree.path} (branch ${record.worktree.branch})`]
          : []),
        ...indent(record.assignment),
      ];
    case "event": {
      const e = record.event;
      if (e.type === "tool_start") return [`- ${e.tool} ${oneLine(e.args, 200)}`];
      if (e.type === "tool_end") {
        return [`  ${e.ok ? "✓" : "✗"} ${e.tool}: ${oneLine(e.summary, 200)}`];
      }
      return [];
    }
    case "message":
      return [];
    case "result": {
      const r = record.result;
      const out = ["", `## result: ${r.status}`];
      if (r.data !== undefined) out.push(...indent(JSON.stringify(r.data, null, 2)));
      else if (r.text) out.push(...indent(r.text));
      if (r.error && r.status !== "ok") out.push(`  error: ${r.error}`);
      if (r.worktree) {
        out.push(
          `  changes kept in ${r.worktree.path} (branch ${r.worktree.branch}): ${
            r.worktree.changed.join(", ")
          }`,
        );
      }
      return out;
    }
  }
}
