/**
 * How much of the skill catalogue a child's system prompt lists, as Claude
 * Code budgets its own: the listing gets about 1 % of the model's context
 * window in characters (4 characters a token: 8 000 characters at 200 000
 * tokens), each entry (name and description) cut at 1 536 characters. When
 * every entry fits, all are listed with their descriptions; when not, the
 * first in precedence order keep their descriptions within three quarters of
 * the budget, the next are listed by name only within the rest, and any
 * beyond are not listed at all (the `skill` tool's `query` finds them). The
 * parent decides the budget (it knows the model); the child lists. Pure.
 *
 * @example
 * ```ts
 * skillBudget(200_000); // 8000
 * skillListing([{ name: "pdf", description: "Reads PDFs" }], 8000);
 * // { described: [{ name: "pdf", description: "Reads PDFs" }], named: [], omitted: 0 }
 * ```
 *
 * @module
 */

/** Characters of one entry (`name: description`), at most: Claude Code's cap. */
export const SKILL_ENTRY_CAP = 1536;
/** The window assumed when the model's is unknown (tokens): smaller than most current models'. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** The listing's share of the window. */
const SHARE = 0.01;
const CHARS_PER_TOKEN = 4;
/** No budget is smaller than this (characters), whatever the window. */
const MIN_BUDGET = 1_000;

/**
 * The listing's budget in characters for a window of `window` tokens
 * (unknown: {@link DEFAULT_CONTEXT_WINDOW}); `override`, a positive whole
 * number of characters (Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`), wins.
 */
export function skillBudget(window: number | undefined, override?: string): number {
  if (override !== undefined && /^\s*\d+\s*$/.test(override) && Number(override) > 0) {
    return Number(override);
  }
  const tokens = window !== undefined && window > 0 ? window : DEFAULT_CONTEXT_WINDOW;
  return Math.max(MIN_BUDGET, Math.floor(tokens * SHARE * CHARS_PER_TOKEN));
}

export interface SkillListing {
  /** Listed with their descriptions (each cut to fit {@link SKILL_ENTRY_CAP}). */
  described: { name: string; description: string }[];
  /** Listed by name only. */
  named: string[];
  /** Not listed at all. */
  omitted: number;
}

/** The line of a described entry. */
export function describedLine(s: { name: string; description: string }): string {
  return `- ${s.name}: ${s.description}`;
}

/** The line of a named entry. */
export function namedLine(name: string): string {
  return `- ${name}`;
}

/** `s` with its description on one line, the entry cut at {@link SKILL_ENTRY_CAP}. */
function capped(s: { name: string; description: string }): { name: string; description: string } {
  const description = s.description.replace(/\s+/g, " ").trim();
  const room = Math.max(0, SKILL_ENTRY_CAP - s.name.length - 2);
  return {
    name: s.name,
    description: description.length <= room ? description : `${description.slice(0, room - 1)}…`,
  };
}

/** Which of `skills` (in precedence order) the prompt lists, and how, within `budget` characters. */
export function skillListing(
  skills: readonly { name: string; description: string }[],
  budget: number,
): SkillListing {
  const entries = skills.map(capped);
  const size = (line: string) => line.length + 1;
  const all = entries.reduce((n, e) => n + size(describedLine(e)), 0);
  if (all <= budget) return { described: entries, named: [], omitted: 0 };
  const described: SkillListing["described"] = [];
  const named: string[] = [];
  let used = 0;
  let i = 0;
  for (; i < entries.length; i++) {
    const n = size(describedLine(entries[i]));
    if (used + n > budget * 0.75) break;
    described.push(entries[i]);
    used += n;
  }
  for (; i < entries.length; i++) {
    const n = size(namedLine(entries[i].name));
    if (used + n > budget) break;
    named.push(entries[i].name);
    used += n;
  }
  return { described, named, omitted: entries.length - i };
}
