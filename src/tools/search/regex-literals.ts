/**
 * Which literal text every match of a regular expression must contain: for
 * each top-level alternative, its longest run of plain characters that no
 * quantifier makes optional. A search reads a file's bytes for these first
 * and runs the expression only on the lines that hold one. Conservative: a
 * construct it does not understand ends the run, and an alternative without
 * a run means there is no filter (undefined). Sources are read as
 * `new RegExp(source)` reads them, without the `u` flag. Pure.
 *
 * @example
 * ```ts
 * requiredLiterals("function\\s+(\\w+)"); // ["function"]
 * requiredLiterals("TODO|FIXME");         // ["TODO", "FIXME"]
 * requiredLiterals("colou?r");            // ["colo"]
 * requiredLiterals("\\d+");               // undefined
 * ```
 *
 * @module
 */

/** Index just past the class that opens at `i` (`[`). */
function classEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "]") return j + 1;
  }
  return s.length;
}

/** Index just past the group that opens at `i` (`(`). */
function groupEnd(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "[") j = classEnd(s, j) - 1;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j + 1;
  }
  return s.length;
}

/** The top-level alternatives of a source. */
function alternatives(s: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "[") j = classEnd(s, j) - 1;
    else if (c === "(") j = groupEnd(s, j) - 1;
    else if (c === "|") {
      out.push(s.slice(from, j));
      from = j + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** Escapes that stand for one character class or assertion and nothing more. */
const SHORT_ESCAPES = new Set(["b", "B", "d", "D", "w", "W", "s", "S", "n", "r", "v", "f"]);

/** The longest required run of plain characters in one alternative. */
function longestRun(s: string): string {
  let best = "";
  let run = "";
  let lastWasChar = false;
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
    lastWasChar = false;
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") {
      const d = s[i + 1];
      if (d === undefined) break;
      if (d === "t") {
        run += "\t";
        lastWasChar = true;
        i += 2;
      } else if (/[A-Za-z0-9]/.test(d)) {
        end();
        i += 2;
        // \x41, \u0041, \cA, \1, \k<name>: the characters after belong to the escape.
        if (!SHORT_ESCAPES.has(d)) { while (i < s.length && /[\w<>{},]/.test(s[i])) i++; }
      } else {
        run += d;
        lastWasChar = true;
        i += 2;
      }
      continue;
    }
    if (c === "?" || c === "*" || c === "{") {
      // The atom before may be absent: it leaves the run.
      if (lastWasChar) run = run.slice(0, -1);
      end();
      const q = c === "{" ? /^\{\d+(?:,\d*)?\}/.exec(s.slice(i)) : null;
      i += q ? q[0].length : 1;
      if (s[i] === "?") i++;
      continue;
    }
    if (c === "+") {
      end();
      i++;
      if (s[i] === "?") i++;
      continue;
    }
    if (c === "[") {
      end();
      i = classEnd(s, i);
      continue;
    }
    if (c === "(") {
      end();
      i = groupEnd(s, i);
      continue;
    }
    if ("^$.|)]}".includes(c)) {
      end();
      i++;
      continue;
    }
    run += c;
    lastWasChar = true;
    i++;
  }
  end();
  return best;
}

/** Code units a byte search cannot stand for: surrogates and U+FFFD. */
const UNSAFE = /[\ud800-\udfff\ufffd]/;

/**
 * The literals one of which every match contains, or undefined when some
 * alternative has none.
 */
export function requiredLiterals(source: string): string[] | undefined {
  const out: string[] = [];
  for (const alt of alternatives(source)) {
    const lit = longestRun(alt);
    if (lit === "" || UNSAFE.test(lit)) return undefined;
    out.push(lit);
  }
  return out;
}
