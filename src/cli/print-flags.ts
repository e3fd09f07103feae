/**
 * `xcsh -p` / `--print`'s flags, as Claude Code's headless mode spells
 * them: which are read, which are accepted with a note because they mean
 * nothing here, and what a run asks for once they are read (a
 * {@link PrintPlan}). Bad values are a {@link UsageError} naming the flag.
 * Pure.
 *
 * @example
 * ```ts
 * readPrintFlags({ "output-format": "json", "max-budget-usd": "2" }, ["hi"]);
 * // { ok, plan: { words: ["hi"], format: "json", budgetUSD: 2, … }, notes: [] }
 * ```
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import type { FlagSpec, FlagValues } from "./args.ts";
import { type OutputFormat, outputFormat } from "./output-format.ts";

export const PRINT_HELP = `Usage:
  xcsh -p [FLAGS] [PROMPT]       run one task and print its result (prompt from the
                                 argument, stdin, or both), as Claude Code's 'claude -p'

Flags (Claude Code's names):
  --output-format FORMAT   text (default), json (one result object) or stream-json
                           (JSON Lines: system/init, assistant, user, result)
  --json-schema JSON       the result must match this JSON Schema (structured_output)
  --agent NAME             the agent to run (default: task)
  --agents JSON            agents for this run: '{"NAME": {"description", "prompt", "tools"}}'
  --model PROVIDER/MODEL   the model for this run
  --max-turns N            stop after N model calls (subtype error_max_turns)
  --max-budget-usd USD     no model call that could take the run past USD (subtype error_max_budget_usd)
  --budget-unpriced-free   under --max-budget-usd, count a model with no known price as free
  -r, --resume SESSION     continue that session (its id is the result's session_id)
  -c, --continue           continue the most recent session started in this folder
  --allowedTools LIST      the tools the agent may use (permission rules such as
                           'Bash(git diff *)'; read-only tools stay available)
  --disallowedTools LIST   tools and rules taken away
  --system-prompt TEXT     replaces the agent's system prompt
  --append-system-prompt TEXT  added to the end of the agent's system prompt
  --permission-mode MODE   plan: read-only plan mode; the others are accepted
  --include-partial-messages  stream text as it arrives (stream_event records)
  --verbose                print every warning about agent files

Accepted, with a note that they do nothing here: ${
  "--dangerously-skip-permissions, --allow-dangerously-skip-permissions, --mcp-config,\n" +
  "  --strict-mcp-config, --permission-prompt-tool, --add-dir, --settings, --setting-sources,\n" +
  "  --fallback-model, --input-format text, --debug, --ide, --replay-user-messages,\n" +
  "  --no-session-persistence, --fork-session, --session-id, --betas"
}.

Exit codes: 0 success, 1 the task failed, 2 usage error.
`;

/** Flags with no meaning for xcsh: accepted, one note each on stderr. */
const NOTED = {
  "dangerously-skip-permissions": { type: "boolean" },
  "allow-dangerously-skip-permissions": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
  "strict-mcp-config": { type: "boolean" },
  "permission-prompt-tool": { type: "string" },
  "add-dir": { type: "string", multiple: true },
  settings: { type: "string" },
  "setting-sources": { type: "string" },
  "fallback-model": { type: "string" },
  "input-format": { type: "string" },
  debug: { type: "boolean", short: "d" },
  ide: { type: "boolean" },
  "replay-user-messages": { type: "boolean" },
  "no-session-persistence": { type: "boolean" },
  "fork-session": { type: "boolean" },
  "session-id": { type: "string" },
  betas: { type: "string", multiple: true },
} as const satisfies FlagSpec;

export const PRINT_FLAGS = {
  print: { type: "boolean", short: "p" },
  "output-format": { type: "string" },
  "json-schema": { type: "string" },
  agent: { type: "string" },
  agents: { type: "string" },
  model: { type: "string" },
  "max-turns": { type: "string" },
  "max-budget-usd": { type: "string" },
  "budget-unpriced-free": { type: "boolean" },
  resume: { type: "string", short: "r" },
  continue: { type: "boolean", short: "c" },
  allowedTools: { type: "string", multiple: true },
  "allowed-tools": { type: "string", multiple: true },
  disallowedTools: { type: "string", multiple: true },
  "disallowed-tools": { type: "string", multiple: true },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "permission-mode": { type: "string" },
  "include-partial-messages": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...NOTED,
} as const satisfies FlagSpec;

/** Claude Code's permission modes; only `plan` changes anything here. */
export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "bypassPermissions",
  "dontAsk",
  "auto",
] as const;

/** What `xcsh -p` asks of a run. */
export interface PrintPlan {
  /** The prompt's words (joined with stdin by print-prompt.ts). */
  words: string[];
  format: OutputFormat;
  agent: string;
  agents?: string;
  schema?: string;
  model?: string;
  maxTurns?: string;
  budgetUSD?: number;
  /** `--budget-unpriced-free`: a model with no price counts as free under the budget. */
  unpricedFree?: true;
  resume?: string;
  continueLatest: boolean;
  /** `--allowedTools` / `--disallowedTools` entries, comma lists kept whole. */
  allowed: string[];
  disallowed: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  plan: boolean;
  partial: boolean;
  verbose: boolean;
}

/** Reads `--max-budget-usd`: a positive number of dollars. */
export function parseBudget(value: string): number {
  const n = Number(value.trim());
  if (!/^\d*\.?\d+$/.test(value.trim()) || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(
      `--max-budget-usd: expected a positive number of US dollars (such as 0.50), got "${value}"`,
    );
  }
  return n;
}

/** The notes for flags that mean nothing here, one line each. */
function notes(values: FlagValues<typeof PRINT_FLAGS>): string[] {
  const out: string[] = [];
  for (const name of Object.keys(NOTED) as (keyof typeof NOTED)[]) {
    if (values[name] === undefined) continue;
    if (name === "input-format") continue;
    const why = name.includes("permissions")
      ? "xcsh asks no permission questions: the agent's tools, rules and sandbox decide"
      : "it has no meaning for xcsh";
    out.push(`--${name} is accepted and ignored: ${why}`);
  }
  const mode = values["permission-mode"];
  if (mode !== undefined && mode !== "plan" && mode !== "default") {
    out.push(
      `--permission-mode ${mode} is accepted and ignored: xcsh asks no permission questions`,
    );
  }
  return out;
}

/** The run `values` and `positionals` ask for, and the notes to print. */
export function readPrintFlags(
  values: FlagValues<typeof PRINT_FLAGS>,
  positionals: readonly string[],
): { plan: PrintPlan; notes: string[] } {
  const format = outputFormat(values["output-format"], undefined);
  if (!format.ok) throw new UsageError(format.message);
  const input = values["input-format"];
  if (input !== undefined && input !== "text") {
    throw new UsageError(`--input-format: only text is read here, got "${input}"`);
  }
  const mode = values["permission-mode"];
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(
      `--permission-mode: expected one of ${PERMISSION_MODES.join(", ")}, got "${mode}"`,
    );
  }
  if (values.resume !== undefined && values.continue) {
    throw new UsageError("--resume and --continue do not go together: give one");
  }
  const plan: PrintPlan = {
    words: [...positionals],
    format: format.value,
    agent: values.agent ?? "task",
    continueLatest: values.continue === true,
    allowed: [...values.allowedTools ?? [], ...values["allowed-tools"] ?? []],
    disallowed: [...values.disallowedTools ?? [], ...values["disallowed-tools"] ?? []],
    plan: mode === "plan",
    partial: values["include-partial-messages"] === true,
    verbose: values.verbose === true,
    ...(values.agents !== undefined ? { agents: values.agents } : {}),
    ...(values["json-schema"] !== undefined ? { schema: values["json-schema"] } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values["max-turns"] !== undefined ? { maxTurns: values["max-turns"] } : {}),
    ...(values["max-budget-usd"] !== undefined
      ? { budgetUSD: parseBudget(values["max-budget-usd"]) }
      : {}),
    ...(values["budget-unpriced-free"] === true ? { unpricedFree: true as const } : {}),
    ...(values.resume !== undefined ? { resume: values.resume } : {}),
    ...(values["system-prompt"] !== undefined ? { systemPrompt: values["system-prompt"] } : {}),
    ...(values["append-system-prompt"] !== undefined
      ? { appendSystemPrompt: values["append-system-prompt"] }
      : {}),
  };
  return { plan, notes: notes(values) };
}

/**
 * The `xcsh run` flags that carry the same meaning (the rest travel as
 * hooks: the prompt, the agent edits, the output).
 */
export function runArgs(plan: PrintPlan, resume: string | undefined): string[] {
  const args: string[] = resume !== undefined ? ["--resume", resume] : [plan.agent];
  if (plan.agents !== undefined) args.push("--agents", plan.agents);
  if (plan.schema !== undefined) args.push("--schema", plan.schema);
  if (plan.model !== undefined) args.push("--model", plan.model);
  if (plan.maxTurns !== undefined) args.push("--max-turns", plan.maxTurns);
  // The run's budget keeps it, before each model call.
  if (plan.budgetUSD !== undefined) args.push("--max-budget-usd", String(plan.budgetUSD));
  if (plan.unpricedFree) args.push("--budget-unpriced-free");
  if (plan.plan && resume === undefined) args.push("--plan");
  if (plan.verbose) args.push("--verbose");
  return args;
}
