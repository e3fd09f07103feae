/**
 * Which strings can name an agent: letters, digits, `.`, `_`, `:` and `-`,
 * starting with a letter or digit, at most {@link AGENT_NAME_MAX} characters.
 *
 * The ecosystems' own names fit: Claude Code's `code-reviewer` (and a
 * plugin's agents as Claude Code addresses them, `plugin:agent`), Codex's
 * `pr_explorer`, Gemini CLI's `codebase-investigator`. Nothing else does,
 * because a name travels where text is read as more than text: into a
 * launcher's command line (`{agent}`, `{job}`), a memory folder's path, the
 * comma-separated `XCSH_SPAWNS`, and logs. A file whose name falls outside
 * is skipped by discovery with a warning naming it. Pure.
 *
 * @example
 * ```ts
 * agentNameProblem("plugin:code-reviewer"); // undefined
 * agentNameProblem("rev$(id)");
 * // "'name' may hold only letters, digits, '.', '_', ':' and '-', … : \"rev$(id)\""
 * ```
 *
 * @module
 */
import { showInvisible } from "../text/clean-text.ts";

/** The longest agent name. */
export const AGENT_NAME_MAX = 128;

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** Whether `name` can name an agent. */
export function isAgentName(name: string): boolean {
  return name.length <= AGENT_NAME_MAX && AGENT_NAME.test(name);
}

/** Why `name` cannot name an agent (a message naming the `name` field), or `undefined`. */
export function agentNameProblem(name: string): string | undefined {
  if (isAgentName(name)) return undefined;
  const shown = showInvisible(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  return name.length > AGENT_NAME_MAX
    ? `'name' is ${name.length} characters long, over the limit of ${AGENT_NAME_MAX}: "${shown}"`
    : `'name' may hold only letters, digits, '.', '_', ':' and '-', and must start with a ` +
      `letter or digit: "${shown}"`;
}
