/**
 * What a model pattern from an agent file means.
 *
 * `default`, `inherit`, `pi/default` and `xcsh/default` mean "the parent's
 * model"; `pi/<role>` and `xcsh/<role>` name a role from config; Claude's
 * `sonnet`, `opus` and `haiku` name the roles `default`, `slow` and `smol`
 * unless config maps them; anything else is a `provider/model` id (or a bare
 * model name, left for the provider resolver to judge). Pure.
 *
 * @example
 * ```ts
 * classifyModelPattern("xcsh/smol"); // { kind: "role", role: "smol" }
 * classifyModelPattern("opus");      // { kind: "role", role: "slow" }
 * classifyModelPattern("openai/gpt-5"); // { kind: "id", id: "openai/gpt-5" }
 * ```
 *
 * @module
 */

export type ModelPattern =
  | { kind: "inherit" }
  | { kind: "role"; role: string }
  | { kind: "id"; id: string };

/** Claude's model family names and the role each stands for by default. */
export const CLAUDE_MODEL_ROLES: Readonly<Record<string, string>> = {
  sonnet: "default",
  opus: "slow",
  haiku: "smol",
};

const INHERIT = new Set(["default", "inherit", "pi/default", "xcsh/default"]);

/**
 * Classifies one pattern. `aliases` (from config) may remap the Claude names,
 * e.g. `{ opus: "anthropic/claude-opus-4-5" }` or `{ haiku: "xcsh/smol" }`.
 */
export function classifyModelPattern(
  pattern: string,
  aliases: Readonly<Record<string, string>> = {},
): ModelPattern {
  const p = pattern.trim();
  const lower = p.toLowerCase();
  if (INHERIT.has(lower)) return { kind: "inherit" };
  const roleMatch = /^(?:pi|xcsh)\/([A-Za-z0-9_-]+)$/i.exec(p);
  if (roleMatch) return { kind: "role", role: roleMatch[1] };
  // Own keys only: "constructor" or "__proto__" must not reach Object.prototype.
  if (Object.hasOwn(aliases, lower)) return classifyModelPattern(aliases[lower], {});
  if (Object.hasOwn(CLAUDE_MODEL_ROLES, lower)) {
    return { kind: "role", role: CLAUDE_MODEL_ROLES[lower] };
  }
  return { kind: "id", id: p };
}
