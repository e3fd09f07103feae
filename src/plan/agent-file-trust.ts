/**
 * Whether a project's agent file is trusted: `xcsh trust` recorded it with
 * the content it has now, for the project it is found in. Only then do its
 * own settings that start programs (hooks, MCP servers, check commands, a
 * remote agent's credentials) or loosen the sandbox apply; a file added or
 * changed since needs trusting again. A user's file is not a project's: it
 * needs no trust and this answers false for it.
 *
 * @module
 */
import { isTrusted, trustStoreFor } from "../config/trust-store.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import { MAX_AGENT_FILE_BYTES } from "../discovery/read-files.ts";
import { readCappedSync } from "../fs/file-safety.ts";
import type { AgentDefinition } from "../types.ts";

/**
 * Whether a project agent file was trusted with `xcsh trust` with the
 * content it has now, for the project it is found in (its own settings that
 * start programs or loosen the sandbox then apply). Reads the file and the
 * trust store of `env`; never throws.
 */
export function agentFileTrusted(
  agent: AgentDefinition,
  env: Pick<DiscoveryEnv, "env" | "home">,
): boolean {
  if (agent.source !== "project" || !agent.filePath) return false;
  const r = readCappedSync(agent.filePath, MAX_AGENT_FILE_BYTES);
  return r.ok && isTrusted(agent.filePath, r.bytes, trustStoreFor(env.env, env.home));
}
