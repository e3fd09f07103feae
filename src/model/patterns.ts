/**
 * What a model pattern from an agent file means.
 *
 * `default`, `inherit`, `pi/default` and `xcsh/default` mean "the parent's
 * model"; `pi/<role>` and `xcsh/<role>` name a role from config; Claude's
 * `sonnet`, `opus` and `haiku` name a tier (resolved through config, then
 * Anthropic's current model of the tier) unless `models.aliases` maps them;
 * anything else is a `provider/model` id (or a bare model id, whose provider
 * the resolver infers from its family). Pure.
 *
 * @example
 * ```ts
 * classifyModelPattern("xcsh/smol"); // { kind: "role", role: "smol" }
 * classifyModelPattern("opus");      // { kind: "tier", tier: "opus" }
 * classifyModelPattern("openai/gpt-5"); // { kind: "id", id: "openai/gpt-5" }
 * ```
 *
 * @module
 */
import { CLAUDE_TIERS } from "./claude-tiers.ts";

export type ModelPattern =
  | { kind: "inherit" }
  | { kind: "role"; role: string }
  | { kind: "tier"; tier: string }
  | { kind: "id"; id: string };

/** Claude's model family names and the role each stands for when config sets it. */
export const CLAUDE_MODEL_ROLES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CLAUDE_TIERS).map(([tier, t]) => [tier, t.role]),
);

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
  if (Object.hasOwn(CLAUDE_TIERS, lower)) return { kind: "tier", tier: lower };
  return { kind: "id", id: p };
}
