/**
 * Which hooks a child runs: its agent's own, unless they come from a
 * repository the user has not trusted or from a plugin (hooks start
 * programs; one warning says how to allow them), and those of the Claude
 * Code settings files and plugins, handed down by the top-level run or read
 * once per call. The user's own files (and `--agents`) keep their hooks.
 *
 * @module
 */
import { readSettingsHooks } from "../config/settings-hooks.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { PluginListing } from "../discovery/plugins.ts";
import type { AgentDefinition, AgentHooks, Diagnostic } from "../types.ts";
import { agentFileTrusted } from "./agent-file-trust.ts";

/** `agent` without its hooks when they may not run, and the warning that says so. */
export function trustedHooks(
  agent: AgentDefinition,
  env: DiscoveryEnv,
): { agent: AgentDefinition; warning?: Diagnostic } {
  if (!agent.hooks) return { agent };
  const plugin = agent.family === "plugin";
  if (!plugin && (agent.source !== "project" || agentFileTrusted(agent, env))) {
    return { agent };
  }
  const { hooks: _dropped, ...rest } = agent;
  return {
    agent: rest,
    warning: {
      level: "warning",
      file: agent.filePath,
      field: "hooks",
      message: plugin
        ? "a plugin agent's hooks are not run (as in Claude Code): define hooks in your own " +
          "agent files or config"
        : "the hooks of this project's agent file are not run: the project is not " +
          "trusted (run 'xcsh trust' in it to allow them)",
    },
  };
}

/**
 * The settings files' hooks, as a function that reads them on first need
 * (once; warnings said then): `handedDown` when the caller has them
 * already; `plugins` is discovery's reading of the settings, reused.
 */
export function settingsHooksOnce(
  handedDown: AgentHooks | undefined,
  env: DiscoveryEnv,
  plugins: PluginListing | undefined,
  onWarnings?: (warnings: Diagnostic[]) => void,
): () => AgentHooks {
  let read: AgentHooks | undefined = handedDown;
  return () => {
    if (!read) {
      const found = readSettingsHooks(env, undefined, plugins);
      if (found.warnings.length > 0) onWarnings?.(found.warnings);
      read = found.hooks;
    }
    return read;
  };
}
