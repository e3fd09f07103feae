/**
 * Which model a role means when config names none: with no `models.default`
 * (or no `models.roles.<role>`), the first built-in provider whose key is set
 * — Anthropic, then OpenAI, then Google — supplies its own model for the role.
 * So a user who has only `ANTHROPIC_API_KEY` can run `xcsh run explore …`
 * with no config file at all. The ids are checked against the installed
 * provider packages' model lists by a test. Pure data and one pure function.
 *
 * @example
 * ```ts
 * builtinModel("smol", (p) => p === "anthropic"); // "anthropic/claude-haiku-5-5"
 * builtinModel("default", () => false);           // undefined
 * ```
 *
 * @module
 */
import { CLAUDE_TIERS } from "./claude-tiers.ts";

/** The roles a built-in provider fills, and `default`. */
export type BuiltinRole = "default" | "smol" | "slow" | "plan";

/** Per provider, in the order providers are tried: the model of each role. */
export const BUILTIN_ROLE_MODELS: readonly {
  provider: string;
  models: Readonly<Record<BuiltinRole, string>>;
}[] = [
  {
    provider: "anthropic",
    models: {
      default: CLAUDE_TIERS.sonnet.model,
      smol: CLAUDE_TIERS.haiku.model,
      slow: CLAUDE_TIERS.opus.model,
      plan: CLAUDE_TIERS.opus.model,
    },
  },
  {
    provider: "openai",
    models: { default: "gpt-5.5", smol: "gpt-5.4-mini", slow: "gpt-5.5", plan: "gpt-5.5" },
  },
  {
    provider: "google",
    models: {
      default: "gemini-pro-latest",
      smol: "gemini-flash-latest",
      slow: "gemini-pro-latest",
      plan: "gemini-pro-latest",
    },
  },
];

/** Whether `role` is one the built-in providers fill. */
export function isBuiltinRole(role: string): role is BuiltinRole {
  return role === "default" || role === "smol" || role === "slow" || role === "plan";
}

/**
 * The `provider/model` a built-in provider offers for `role`: the first
 * provider for which `usable` says yes (its key is set), or undefined.
 */
export function builtinModel(
  role: BuiltinRole,
  usable: (provider: string) => boolean,
): string | undefined {
  const found = BUILTIN_ROLE_MODELS.find((p) => usable(p.provider));
  return found ? `${found.provider}/${found.models[role]}` : undefined;
}
