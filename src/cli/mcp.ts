/**
 * `xcsh mcp`: starts the MCP stdio server (see `src/mcp/server.ts`).
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK } from "./errors.ts";

const HELP = `Usage: xcsh mcp [--cwd DIR] [--verbose]

Serves MCP over stdio with two tools: 'task' (run an agent on one or more
assignments) and 'agents' (list the agents available now). Stdout carries
JSON-RPC only; logs go to stderr. Register it with, e.g.:

  claude mcp add xcsh -- xcsh mcp

Warnings about agent files are summed up in one line on stderr; --verbose
(or XCSH_VERBOSE=1) logs them all.
`;

export async function mcpCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("mcp", args, {
    cwd: { type: "string" },
    verbose: { type: "boolean", short: "v" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const env = discoveryEnv(values.cwd);
  const { serveMcp } = await import("../mcp/server.ts");
  return await serveMcp(env, { verbose: values.verbose === true });
}
