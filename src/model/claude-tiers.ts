/**
 * What Claude's tier names (`sonnet`, `opus`, `haiku`) mean when config says
 * nothing about them: Anthropic's newest model of that tier, as listed by the
 * installed `@ai-sdk/anthropic` package (a test checks each id against the
 * package's model list, so an upgrade of the package shows when to move them),
 * and the config role each tier stands for. Pure data.
 *
 * @example
 * ```ts
 * CLAUDE_TIERS.sonnet; // { role: "default", model: "claude-sonnet-5-5" }
 * ```
 *
 * @module
 */

/** A Claude tier: the config role that may stand for it, and Anthropic's current model. */
export interface ClaudeTier {
  role: string;
  model: string;
}

export const CLAUDE_TIERS: Readonly<Record<string, ClaudeTier>> = {
  sonnet: { role: "default", model: "claude-sonnet-5-5" },
  opus: { role: "slow", model: "claude-opus-5-5" },
  haiku: { role: "smol", model: "claude-haiku-5-5" },
};
