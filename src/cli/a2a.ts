/**
 * `xcsh a2a`: starts the A2A server (see `src/a2a-serve/a2a-server.ts`).
 * Decides its flags: `--host` (default 127.0.0.1), `--port` (a whole number
 * 0–65535; 0 takes a free port), `--cwd`, `--verbose`.
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK, UsageError } from "./errors.ts";

/** The port taken when `--port` is not given. */
export const DEFAULT_A2A_PORT = 41250;

const HELP = `Usage: xcsh a2a [--host ADDR] [--port N] [--cwd DIR] [--verbose]

Serves every agent xcsh discovers as an A2A (Agent2Agent) agent over HTTP:
JSON-RPC, protocol 1.0 with 0.3 compatibility, streaming by Server-Sent
Events. Each request runs as an xcsh task of that agent, under the same
rules, limits and concurrency cap as 'xcsh run' and 'xcsh mcp'.

  GET  BASE/agents                                   the index of cards
  GET  BASE/agents/NAME/.well-known/agent-card.json  an agent's card
  POST BASE/agents/NAME/                             its JSON-RPC endpoint

The first line on stdout is BASE (e.g. http://127.0.0.1:${DEFAULT_A2A_PORT}); logs go to
stderr. Every request needs 'Authorization: Bearer TOKEN': TOKEN is
XCSH_A2A_TOKEN (16 characters or more) when set, else a random one printed
on stderr.

  --host ADDR   address to listen on (default 127.0.0.1; anything else is
                reachable from other machines, unencrypted)
  --port N      port (default ${DEFAULT_A2A_PORT}; 0 takes a free one)
  --cwd DIR     discover agents as if run from DIR
  --verbose     log every warning about agent files (or XCSH_VERBOSE=1)

Gemini CLI: point a 'kind: remote' agent's agent_card_url at an agent's
card, with http bearer auth set to the token (docs/a2a.md).
`;

/** Reads `--port`: a whole number from 0 to 65535. */
export function readPort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_A2A_PORT;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(
      `a2a: --port must be a whole number from 0 to 65535, not '${value}'`,
      "Run 'xcsh a2a --help' for usage.",
    );
  }
  return Number(value);
}

export async function a2aCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("a2a", args, {
    host: { type: "string" },
    port: { type: "string" },
    cwd: { type: "string" },
    verbose: { type: "boolean", short: "v" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) {
    throw new UsageError(
      `a2a: unexpected argument '${positionals[0]}'`,
      "Run 'xcsh a2a --help' for usage.",
    );
  }
  const port = readPort(values.port);
  const host = values.host ?? "127.0.0.1";
  if (host.trim() === "") {
    throw new UsageError("a2a: --host is empty", "Run 'xcsh a2a --help' for usage.");
  }
  const env = discoveryEnv(values.cwd);
  const { serveA2a } = await import("../a2a-serve/a2a-server.ts");
  return await serveA2a(env, { host, port, verbose: values.verbose === true });
}
