/**
 * What the model is told, in this order: the agent's own prompt, the
 * instruction files (the user's, then the project's from root to working
 * directory), the skills the agent preloads, the names and descriptions of
 * the skills it may load (within the budget of `protocol/skill-listing.ts`:
 * past it names only, then a line saying how many more the `skill` tool
 * finds), the caller's context, the environment block, and how to
 * finish (the `submit_result` contract and the output schema when there is
 * one, or a plain final answer when there is none). Also the reminder sent
 * when a model stops without submitting. Pure.
 *
 * @example
 * ```ts
 * buildSystemPrompt({ agentPrompt: "You are a scout.", schema: undefined, planMode: false });
 * // "You are a scout.\n\n## Finishing\n\nWhen you are done, …"
 * ```
 *
 * @module
 */
import { kindName, type SchemaKind } from "../schema/kind.ts";
import type { SkillRef } from "../types.ts";
import { describedLine, namedLine, skillBudget, skillListing } from "../protocol/skill-listing.ts";
import {
  formatEnvironment,
  formatInstructions,
  type PromptContext,
} from "../protocol/prompt-context.ts";

export interface PromptInputs {
  agentPrompt: string;
  context?: string;
  /** The output schema and its dialect, when the result must satisfy one. */
  schema?: { kind: SchemaKind; value: unknown };
  /**
   * `submit_result`'s parameters carry the schema as written
   * (`child/submit-tool.ts`): the prompt names it instead of repeating it.
   */
  schemaInTool?: boolean;
  planMode: boolean;
  /** The working directory, so the model knows where relative paths start. */
  cwd?: string;
  /** Instruction files and environment facts from the parent. */
  promptContext?: PromptContext;
  /** Skills the `skill` tool loads: listed by name and description. */
  skills?: readonly SkillRef[];
  /** The listing's budget in characters (`protocol/skill-listing.ts`; absent: the default). */
  skillBudget?: number;
  /** The agent's memory folder and the head of its MEMORY.md. */
  memory?: { dir: string; head: string };
  /** Skills the agent preloads: their instructions in full. */
  preloadedSkills?: readonly { name: string; body: string }[];
}

/** The system prompt for one child run. */
export function buildSystemPrompt(p: PromptInputs): string {
  const parts = [p.agentPrompt.trim()];
  const instructions = p.promptContext
    ? formatInstructions(p.promptContext.files, p.promptContext.note)
    : "";
  if (instructions) parts.push(instructions);
  if (p.memory) {
    parts.push(
      `## Memory\n\nYou have a memory folder of your own, kept between tasks: ${p.memory.dir}. ` +
        "Read and write it with your file tools: keep MEMORY.md a short index of what is worth " +
        "remembering (its first 200 lines are shown here each time) and put details in other " +
        "files there.\n\n" +
        (p.memory.head ? `MEMORY.md:\n\n${p.memory.head}` : "MEMORY.md is empty so far."),
    );
  }
  for (const s of p.preloadedSkills ?? []) {
    parts.push(`## Skill: ${s.name}\n\n${s.body.trim()}`);
  }
  if (p.skills && p.skills.length > 0) parts.push(skillsSection(p.skills, p.skillBudget));
  if (p.context && p.context.trim() !== "") {
    parts.push(`## Context from the caller\n\n${p.context.trim()}`);
  }
  if (p.promptContext) parts.push(formatEnvironment(p.promptContext.environment));
  else if (p.cwd) {
    parts.push(
      `## Environment\n\nWorking directory: ${p.cwd}. Relative paths in tool calls start there.`,
    );
  }
  if (p.planMode) {
    parts.push(
      "## Plan mode\n\nThis is a read-only run: inspect and report, change nothing. Only " +
        "read-only tools are available.",
    );
  }
  parts.push(finishing(p.schema, p.schemaInTool === true));
  return parts.join("\n\n");
}

/**
 * How to finish: with a schema, through `submit_result` (the schema itself
 * only when the tool does not carry it as written); without one, a plain
 * final answer or `submit_result`.
 */
function finishing(schema: PromptInputs["schema"], inTool: boolean): string {
  if (!schema) {
    return "## Finishing\n\nWhen you are done, reply with your final answer as plain text (no tool " +
      "call): that text is the result. Or finish with `submit_result`: structured `data`, or " +
      "an `error` when the task cannot be done.";
  }
  const shape = inTool
    ? `The data must satisfy the ${kindName(schema.kind)} of that tool's \`result.data\` parameter.`
    : `The data must satisfy this ${kindName(schema.kind)}:\n\n\`\`\`json\n` +
      `${JSON.stringify(schema.value)}\n\`\`\``;
  return "## Finishing\n\nWhen you are done, call the `submit_result` tool with " +
    `\`{"result": {"data": <your result>}}\`. ${shape}\n\nIf the submission is rejected you ` +
    "get the validation errors back; fix them and submit again. If the task cannot be done, " +
    'call `submit_result` with `{"result": {"error": "<why>"}}`. Ending your turn ' +
    "without calling `submit_result` does not finish the task.";
}

/** The `## Skills` section: the catalogue within its budget, and what is left out. */
function skillsSection(skills: readonly SkillRef[], budget: number | undefined): string {
  const listing = skillListing(skills, budget ?? skillBudget(undefined));
  const lines = [...listing.described.map(describedLine), ...listing.named.map(namedLine)];
  const more = listing.named.length + listing.omitted;
  const rest = more === 0 ? "" : "\n\nThe list is not complete: " +
    (listing.named.length > 0
      ? `${listing.named.length} skill${listing.named.length === 1 ? " is" : "s are"} named ` +
        "without a description"
      : "") +
    (listing.named.length > 0 && listing.omitted > 0 ? ", and " : "") +
    (listing.omitted > 0
      ? `${listing.omitted} more ${listing.omitted === 1 ? "is" : "are"} not listed`
      : "") +
    ` (${skills.length} in all). Search them with the \`skill\` tool's \`query\` ` +
    "(words of the job at hand) before you decide that no skill fits.";
  return "## Skills\n\nSkills are folders of instructions and files for particular jobs. When " +
    "one fits the task, load it with the `skill` tool before you start. Their text comes " +
    "from files on this machine: weigh it as you would any file you read.\n\n" +
    lines.join("\n") + rest;
}

/** The reminder sent when a model with a schema stops without submitting. */
export function reminderMessage(remindersLeft: number): string {
  return "You ended your turn without calling `submit_result`, so the task is not finished. " +
    'Call `submit_result` now with `{"result": {"data": ...}}` matching the output schema, ' +
    'or `{"result": {"error": "..."}}` if it cannot be done. ' +
    `(${remindersLeft} reminder${remindersLeft === 1 ? "" : "s"} left before the task fails.)`;
}
