/**
 * The flags and help of `xcsh run`, apart from the command itself so that
 * `run --background` can read them without loading the task runner.
 *
 * @module
 */

import { BUDGET_FLAG_SPECS, BUDGET_HELP } from "./budget-flags.ts";

export const RUN_HELP = `Usage:
  xcsh run AGENT [ASSIGNMENT...]          run one task (assignment from args, or stdin)
  xcsh run AGENT --task ID=ASSIGNMENT...  run several tasks in parallel
  xcsh run --resume SESSION [FOLLOW-UP]   continue a session with a follow-up assignment

Flags:
  --task ID=ASSIGNMENT   one task (repeat for several; ids unique, ignoring case)
  --agents JSON          agents for this run, in Claude Code's shape:
                         '{"NAME": {"description": "...", "prompt": "...", "tools": [...]}}'
                         (they win over agent files of the same name)
  --writes GLOB          the task's write lane, relative to the project root (repeat for
                         several globs; with --task: --writes ID=GLOB). write and edit
                         refuse other paths; tasks whose lanes overlap run one after the other
  --context TEXT         shared background given to every task
  --schema JSON|@FILE    output schema (JSON Schema or JTD) when the agent has none
  --plan                 plan mode: read-only tools, no delegation
  --model PROVIDER/MODEL model for this run (overrides config and agent)
  --sandbox MODE         bash sandbox: workspace-write (default where bubblewrap
                         works), read-only or off (overrides agent and config)
  --timeout SECONDS      per-task time limit (default: agent, then config, then 600)
  --cwd DIR              run as if started in DIR
  --isolation MODE       worktree: each task works in a fresh git worktree; none: here
  --launcher NAME        start the children through task.launchers.NAME (local: here)
  --accept CHECK|@FILE   an acceptance check the parent runs after the child submits
                         (repeat for several): 'cmd: npm test', 'file: PATH [~ REGEX]',
                         'scope: GLOB...', 'changed: GLOB...', 'result: /PTR == JSON'
                         or 'result: /PTR ~ REGEX'; @FILE: a JSON list of checks
  --accept-retries N     rounds a child whose checks failed is sent back (default 1)
  --resume SESSION       continue that session (same agent, model and folder;
                         --model moves it to another model)
  --background           start detached, print the run id and exit (see 'xcsh tasks')
  --output-format FORMAT text (default), json (one document at the end) or stream-json
                         (JSON Lines as the run goes: events, each task's result, the run's)
  --json                 the same as --output-format json
  --max-turns N          stop a task after N model calls (status max_turns)
${BUDGET_HELP}  --dry-run              resolve, guard and print the child envelopes, their models, the
                         instruction files they would hold, their lanes and order; no model call
  --verbose              print every warning about agent files (default: one summary line)

Exit codes: 0 every task succeeded, 1 a task failed, was rejected by its checks, was
cancelled or was stopped by the budget, 2 usage or guard error.
`;

export const RUN_FLAGS = {
  task: { type: "string", multiple: true },
  writes: { type: "string", multiple: true },
  agents: { type: "string" },
  context: { type: "string" },
  schema: { type: "string" },
  plan: { type: "boolean" },
  model: { type: "string" },
  sandbox: { type: "string" },
  timeout: { type: "string" },
  cwd: { type: "string" },
  isolation: { type: "string" },
  launcher: { type: "string" },
  accept: { type: "string", multiple: true },
  "accept-retries": { type: "string" },
  resume: { type: "string" },
  background: { type: "boolean" },
  json: { type: "boolean" },
  "output-format": { type: "string" },
  "max-turns": { type: "string" },
  ...BUDGET_FLAG_SPECS,
  "dry-run": { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;
