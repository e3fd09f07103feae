/**
 * `xcsh -p` / `--print`: one task run the way a script written for Claude
 * Code's `claude -p` expects. Claude's flags are read (print-flags.ts),
 * turned into a run of `xcsh run`'s runner (the agent edits of
 * print-agent.ts, the prompt of print-prompt.ts) and printed in Claude's
 * shapes (print-presenter.ts). `--continue` picks the newest session of
 * this folder.
 *
 * @module
 */
import process from "node:process";
import { homeDirectory } from "../fs/home.ts";
import { writeErr, writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK, UsageError } from "./errors.ts";
import { PRINT_FLAGS, PRINT_HELP, readPrintFlags, runArgs } from "./print-flags.ts";
import { editAgent, readAgentEdits } from "./print-agent.ts";
import { printPrompt } from "./print-prompt.ts";
import { PrintPresenter } from "./print-presenter.ts";
import { latestSessionIn } from "./latest-session.ts";
import { readStdinCapped } from "./stdin-assignment.ts";
import { dataDirectory, sessionsDirectory } from "../sessions/paths.ts";
import { readSchemaFlag, runWith } from "./run.ts";

/** `--continue`: the newest session of this folder. */
function latestSession(cwd: string): string {
  const data = dataDirectory(process.env, homeDirectory());
  const id = data ? latestSessionIn(sessionsDirectory(data), cwd) : undefined;
  if (id === undefined) {
    throw new UsageError(
      "--continue: no session was started in this folder",
      "Start one with 'xcsh -p PROMPT' (its session_id is in the json output).",
    );
  }
  return id;
}

export async function printCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("-p", args, PRINT_FLAGS);
  if (values.help) {
    writeOut(PRINT_HELP);
    return EXIT_OK;
  }
  const { plan, notes } = readPrintFlags(values, positionals);
  for (const note of notes) writeErr(`xcsh: ${note}\n`);
  const edits = readAgentEdits(plan);
  // Read here too, so that a bad schema is named as this command's flag.
  if (plan.schema !== undefined) await readSchemaFlag(plan.schema, "--json-schema");
  const env = discoveryEnv();
  const resume = plan.resume ?? (plan.continueLatest ? latestSession(env.cwd) : undefined);
  const stdin = readStdinCapped();
  if (!stdin.ok) throw new UsageError(`-p: ${stdin.message}`);
  const prompt = printPrompt(plan.words, stdin.text);
  if (prompt === "") {
    throw new UsageError(
      "-p: no prompt: give it as an argument or on stdin",
      "Run 'xcsh -p --help' for usage.",
    );
  }
  const presenter = new PrintPresenter({
    format: plan.format,
    partial: plan.partial,
    cwd: env.cwd,
    agent: plan.agent,
  });
  const changes = edits.tools || edits.deny.length > 0 || edits.disallowedTools.length > 0 ||
    edits.disallowedAgents.length > 0 || edits.systemPrompt !== undefined ||
    edits.appendSystemPrompt !== undefined;
  return await runWith(runArgs(plan, resume), {
    presenter,
    prompt,
    ...(changes ? { editAgent: (a) => editAgent(a, edits) } : {}),
  });
}
