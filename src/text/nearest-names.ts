/**
 * Which known names are nearest to one that was asked for: a name equal but
 * for case first, then names that contain it or that it contains, then the
 * rest by edit distance (Levenshtein, case-insensitive); ties keep the
 * list's order. Names too far off to be a plausible typo are left out, so
 * an unrelated request gets no suggestions rather than noise. Also decides
 * how a message about an unknown name lists the known ones: all of them
 * when they are few, else the nearest few and how to see all, so the
 * message stays short (under 1 KB) however many there are. Pure.
 *
 * @example
 * ```ts
 * nearestNames("reviwer", ["explore", "reviewer", "plan"]); // ["reviewer"]
 * namesTail("x", ["a", "b"], "agents", "…"); // "Available: a, b"
 * ```
 *
 * @module
 */

/**
 * Levenshtein distance of two strings; above `max` the answer is `max + 1`
 * (only the band of cells within `max` of the diagonal is computed).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = Math.min(max, Math.max(a.length, b.length)) + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => Math.min(j, over));
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(over);
    cur[0] = Math.min(i, over);
    const from = Math.max(1, i - over);
    const to = Math.min(b.length, i + over);
    let best = cur[0];
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost, over);
      if (cur[j] < best) best = cur[j];
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return Math.min(prev[b.length], max + 1);
}

/** The largest edit distance still taken for a typo of a name of this length. */
function typoBudget(length: number): number {
  return Math.max(1, Math.min(4, Math.floor(length / 3)));
}

/**
 * How near `name` is to `wanted` (lower is nearer), or undefined when it is
 * no plausible match. Case-insensitive.
 */
export function nameDistance(wanted: string, name: string): number | undefined {
  return distanceLower(wanted.toLowerCase(), name.toLowerCase());
}

function distanceLower(w: string, n: string): number | undefined {
  if (w === n) return 0;
  if (w.length >= 2 && (n.includes(w) || (n.length >= 3 && w.includes(n)))) return 1;
  const budget = typoBudget(w.length);
  const d = editDistance(w, n, budget);
  return d <= budget ? 1 + d : undefined;
}

/** Up to `count` names nearest to `wanted`, nearest first. */
export function nearestNames(wanted: string, names: readonly string[], count = 5): string[] {
  const w = wanted.toLowerCase();
  return names
    .map((name, index) => ({ name, index, d: distanceLower(w, name.toLowerCase()) }))
    .filter((c): c is { name: string; index: number; d: number } => c.d !== undefined)
    .sort((x, y) => x.d - y.d || x.index - y.index)
    .slice(0, count)
    .map((c) => c.name);
}

/** Up to this many names, a message lists them all. */
export const MAX_LISTED_NAMES = 12;
/** Suggestions given when the list is longer. */
export const MAX_SUGGESTIONS = 5;
/** The longest name a message shows (longer ones are cut). */
const MAX_NAME_SHOWN = 80;

/** A name as a message shows it: cut at {@link MAX_NAME_SHOWN} characters. */
export function shownName(name: string): string {
  return name.length > MAX_NAME_SHOWN ? name.slice(0, MAX_NAME_SHOWN - 1) + "…" : name;
}

/**
 * The known names, as the end of a message about an unknown `wanted`:
 * `Available: a, b` (at most {@link MAX_LISTED_NAMES}; `label` names the
 * list), else the nearest
 * few with the count of `noun` and `listHint` (how to see them all).
 */
export function namesTail(
  wanted: string,
  names: readonly string[],
  noun: string,
  listHint: string,
  label = "Available",
): string {
  if (names.length <= MAX_LISTED_NAMES) {
    return `${label}: ${names.length ? names.map(shownName).join(", ") : "none"}`;
  }
  const near = nearestNames(wanted, names, MAX_SUGGESTIONS).map(shownName);
  const count = `${names.length} ${noun}; ${listHint}`;
  return near.length
    ? `Nearest: ${near.join(", ")} (of ${count})`
    : `No similar name among ${count}`;
}
