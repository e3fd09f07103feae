/**
 * The "tokens" section: what each bundled agent's first request costs before
 * the assignment, in tokens. The request is not rebuilt here: `dist/xcsh run
 * <agent>` sends it to the local model server on the Anthropic wire (the
 * provider whose prompt cache the fixed prefix feeds), and the row counts what
 * arrived: the system prompt's text plus each tool's name, description and
 * input schema as JSON (wire-only flags such as `cache_control` and
 * `eager_input_streaming` left out). The task runs in an empty folder outside
 * git with no instruction files, so the environment block is as short as it
 * gets; the output schema counts where the agent has one.
 *
 * Tokens are counted with js-tiktoken's `o200k_base` (pinned in
 * package.json) as a stand-in: Anthropic publishes no tokenizer, and its
 * counts run a little higher than o200k's on English prose.
 *
 * Targets: `explore` and `quick_task` ≤ 2 000, every other agent ≤ 3 000.
 *
 * @module
 */
import { getEncoding } from "js-tiktoken";
import { type RecordedRequest, startModelServer } from "../../tests/support/model-server.ts";
import { anthropicWorld, requireXcsh, timedAsync, XCSH } from "../measure.ts";
import { details, limitRow, notes } from "../report.ts";

const SECTION = "tokens";

/** The bundled agents and each one's limit. */
const LIMITS: Record<string, number> = {
  explore: 2000,
  plan: 3000,
  designer: 3000,
  reviewer: 3000,
  task: 3000,
  quick_task: 2000,
};

/** What one first request holds before the assignment, in tokens. */
export interface FixedTokens {
  system: number;
  tools: number;
  /** Tokens per tool, by name. */
  perTool: Record<string, number>;
}

/** Counts the system prompt and tool schemas of an Anthropic request body. */
export function fixedTokens(
  body: RecordedRequest["body"],
  count: (text: string) => number,
): FixedTokens {
  const system = typeof body.system === "string"
    ? body.system
    : (body.system ?? []).map((s: { text: string }) => s.text).join("\n\n");
  const perTool: Record<string, number> = {};
  for (const t of body.tools ?? []) {
    const { name, description, input_schema } = t;
    perTool[name] = count(JSON.stringify({ name, description, input_schema }));
  }
  return {
    system: count(system),
    tools: Object.values(perTool).reduce((a, b) => a + b, 0),
    perTool,
  };
}

export async function benchPromptTokens(): Promise<void> {
  requireXcsh();
  const encoder = getEncoding("o200k_base");
  const count = (text: string) => encoder.encode(text).length;
  // One answer ends every task at once: only the first request is looked at.
  const server = await startModelServer({
    respond: () => ({
      toolCalls: [{ name: "submit_result", args: { result: { error: "counted" } } }],
    }),
  });
  try {
    const { cwd, env } = anthropicWorld("prompt-tokens", server.url);
    const counted: Record<string, FixedTokens> = {};
    for (const [agent, limit] of Object.entries(LIMITS)) {
      const before = server.requests.length;
      const args = ["run", agent, "Say where main is.", "--model", "anthropic/claude-sonnet-4-5"];
      const r = await timedAsync(XCSH, [...args, "--json"], { cwd, env });
      const request = server.requests[before];
      // A request the strict server refused (no usage) is not one a provider would take.
      if (!request?.usage) {
        throw new Error(`xcsh run ${agent}: no request answered: ${r.stderr.slice(-2000)}`);
      }
      const fixed = fixedTokens(request.body, count);
      counted[agent] = fixed;
      limitRow(
        SECTION,
        `${agent}: system prompt + tool schemas, first request`,
        fixed.system + fixed.tools,
        limit,
        "tokens",
      );
    }
    details.promptTokens = { tokenizer: "js-tiktoken o200k_base", agents: counted };
    notes.push(
      "tokens: counted with js-tiktoken's o200k_base (a stand-in; Anthropic publishes no " +
        "tokenizer) over the Anthropic request `dist/xcsh run` sends: system text plus each " +
        "tool's name, description and input schema.",
    );
  } finally {
    await server.close();
  }
}
