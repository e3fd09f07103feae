/**
 * The stream section: a 10-turn task (nine tool calls, then an answer)
 * against the local model server, with `--output-format stream-json`
 * against the same task with `--json`, measured alternately: what writing
 * the run's events as JSON Lines adds to its wall time (target ≤ 5 %).
 *
 * @module
 */
import { startModelServer } from "../../tests/support/model-server.ts";
import { cleanEnv, requireXcsh, timedAsync, XCSH } from "../measure.ts";
import { details, median, row } from "../report.ts";
import { taskHome } from "./tasks.ts";

const TURNS = 10;

export async function benchStream(): Promise<void> {
  requireXcsh();
  const server = await startModelServer({
    respond: (req) => {
      const messages = (req.body as { messages?: { role: string }[] }).messages ?? [];
      const results = messages.filter((m) => m.role === "tool").length;
      return results < TURNS - 1
        ? { toolCalls: [{ name: "ls", args: { path: "." } }] }
        : { text: "done after ten turns" };
    },
  });
  try {
    const { home, cwd } = taskHome("stream", server.url, 8);
    const env = cleanEnv({ HOME: home });
    const run = async (format: string) => {
      const r = await timedAsync(XCSH, ["run", "quick_task", "--output-format", format, "go"], {
        cwd,
        env,
      });
      if (r.code !== 0) throw new Error(`xcsh run (${format}) exited ${r.code}: ${r.stderr}`);
      return r.ms;
    };
    await run("json");
    await run("stream-json");
    const json: number[] = [];
    const stream: number[] = [];
    for (let i = 0; i < 11; i++) {
      json.push(await run("json"));
      stream.push(await run("stream-json"));
    }
    row(
      "stream",
      `${TURNS}-turn task: --output-format stream-json vs --json`,
      median(stream),
      median(json),
      "ms",
      1.05,
    );
    details.stream = { jsonMs: json, streamMs: stream };
  } finally {
    await server.close();
  }
}
