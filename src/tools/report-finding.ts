/**
 * The `report_finding` tool: records one review finding. The child returns
 * the findings in the result's data when the agent has no output schema;
 * with a schema they are the agent's notes and it reports them itself.
 *
 * @module
 */
import type { Finding, ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export const reportFindingTool: ToolSpec = {
  name: "report_finding",
  description: "Record one confirmed finding (a defect, risk or notable fact) with its location " +
    "and priority. Call once per finding.",
  readOnly: TOOL_READ_ONLY.report_finding,
  inputSchema: {
    type: "object",
    properties: {
      title: { type: "string", minLength: 1, description: "One-line summary." },
      body: { type: "string", minLength: 1, description: "What is wrong, why, and how to fix it." },
      priority: {
        type: "integer",
        minimum: 0,
        maximum: 3,
        description: "0 blocking, 1 serious, 2 moderate, 3 nit.",
      },
      confidence: { type: "number", minimum: 0, maximum: 1 },
      file_path: { type: "string" },
      line_start: { type: "integer", minimum: 1 },
      line_end: { type: "integer", minimum: 1 },
    },
    required: ["title", "body"],
    additionalProperties: false,
  },
  run(args: Finding, ctx) {
    ctx.findings.push({ ...args });
    const n = ctx.findings.length;
    return Promise.resolve({
      ok: true,
      output: `Finding ${n} recorded.`,
      summary: `#${n} ${args.title.slice(0, 80)}`,
    });
  },
};
