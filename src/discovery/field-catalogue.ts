/**
 * Every frontmatter key the ecosystems write in an agent file, and what xcsh
 * does with it: honoured (read by the reader, which lists its keys beside
 * itself: `HONOURED_FIELDS` of `agent-fields.ts`, passed in here),
 * display-only (cosmetic, never warned), or not used (named by `xcsh agents
 * check` and once in a run's summary, with why). A key in none of these is
 * unknown: usually a typo, named with the nearest known key. Sources: the
 * subagent field lists of Claude Code 2.1, Gemini CLI's `docs/core/subagents.md` and
 * `docs/core/remote-agents.md`, and the Codex custom-agent schema. Pure data
 * and pure functions.
 *
 * @example
 * ```ts
 * const honoured = ["name", "description", "tools", "disallowedTools"];
 * fieldNotes({ name: "a", description: "d", initialPrompt: "hi", dissallowedTools: "Bash" }, honoured);
 * // { ignored: ["initialPrompt"], unknown: [{ key: "dissallowedTools", nearest: "disallowedTools" }] }
 * ```
 *
 * @module
 */

/** Cosmetic keys: shown nowhere, warned about never. */
export const DISPLAY_FIELDS: readonly string[] = [
  "color",
  "category",
  "display_name",
  "nickname_candidates",
  "emoji",
];

/** Keys xcsh reads but does not act on, with why (the text after "not used by xcsh: "). */
export const IGNORED_FIELDS: Readonly<Record<string, string>> = {
  initialPrompt: "a subagent's first message is its assignment",
  approval_policy: "xcsh never asks for approval: tools run within the sandbox",
  model_provider: "the provider comes from the model name and xcsh's config",
  model_reasoning_summary: "not sent to the model",
};

/** Every key some ecosystem writes: the `honoured` ones, display-only and not used. */
function knownFields(honoured: readonly string[]): string[] {
  return [...honoured, ...DISPLAY_FIELDS, ...Object.keys(IGNORED_FIELDS)];
}

/** Edit distance with adjacent transpositions, case-insensitive. */
function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The known key nearest `key` (of the `honoured` ones, display-only and not
 * used), when it is close enough to be a typo.
 */
export function nearestField(key: string, honoured: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of knownFields(honoured)) {
    const dist = distance(key, k);
    if (dist < bestD) {
      best = k;
      bestD = dist;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(key.length / 4)) ? best : undefined;
}

export interface FieldNotes {
  /** Known keys xcsh does not act on, in file order. */
  ignored: string[];
  /** Keys no ecosystem writes, with the nearest known key when there is one. */
  unknown: { key: string; nearest?: string }[];
}

/** What to say about the keys of one file's frontmatter, the reader reading `honoured`. */
export function fieldNotes(fm: Record<string, unknown>, honoured: readonly string[]): FieldNotes {
  const notes: FieldNotes = { ignored: [], unknown: [] };
  for (const key of Object.keys(fm)) {
    if (honoured.includes(key) || DISPLAY_FIELDS.includes(key)) continue;
    if (Object.hasOwn(IGNORED_FIELDS, key)) {
      notes.ignored.push(key);
      continue;
    }
    const nearest = nearestField(key, honoured);
    notes.unknown.push(nearest ? { key, nearest } : { key });
  }
  return notes;
}
