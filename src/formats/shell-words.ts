/**
 * What simple commands a shell command line runs, as lists of words, for
 * matching permission rules: only a safe subset of shell syntax is
 * understood, and anything outside it makes the whole line "unsafe" (the
 * caller then refuses it where a rule applies).
 *
 * Understood: words with single quotes, double quotes (without `$` or a
 * backtick inside) and backslash escapes; the separators `;`, `&`, `&&`,
 * `||`, `|`, `|&` and newlines; parentheses as subshells (their commands are
 * listed like the others); leading variable assignments (`FOO=1 cmd`,
 * reported per command); and the redirections `N>&M`, `N<&M` and `>
 * /dev/null`. Unsafe: `$` expansions and command substitution (`$(…)`,
 * backticks), process substitution, here-documents, other redirections
 * (they write or read files), brace expansion (`{a,b}`, `{1..3}`), a glob
 * or `~` in a command's name, braces as a command, unbalanced quotes or
 * parentheses. As in the shell, only spaces and tabs separate words: any
 * other character (a carriage return, a form feed, a Unicode space) is part
 * of the word it stands in. Every line gets an answer: each step of the
 * reading takes at least one character. Pure.
 *
 * @example
 * ```ts
 * shellCommands("git status && (rm -rf x)");
 * // { ok: true, commands: [{ assignments: [], words: ["git", "status"] }, { assignments: [], words: ["rm", "-rf", "x"] }] }
 * shellCommands("git status $(rm x)"); // { ok: false, reason: "command substitution ($(…) or backticks)" }
 * ```
 *
 * @module
 */

/** One simple command: its leading `NAME=value` assignments and its words. */
export interface SimpleCommand {
  assignments: string[];
  words: string[];
}

export type ShellParse =
  | { ok: true; commands: SimpleCommand[] }
  | { ok: false; reason: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const GLOB_CHARS = /[*?[\]]/;

type Token = { kind: "word"; text: string; quoted: boolean } | { kind: "sep" } | {
  kind: "open";
} | { kind: "close" };

function unsafe(reason: string): ShellParse {
  return { ok: false, reason };
}

/** Splits `line` into words and separators, or says why it cannot. */
function tokenize(line: string): Token[] | string {
  const out: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (isBlank(c)) {
      i++;
      continue;
    }
    if (c === "\n" || c === ";") {
      if (line[i + 1] === ";") return "case syntax (;;)";
      out.push({ kind: "sep" });
      i++;
      continue;
    }
    if (c === "&" || c === "|") {
      if (c === "&" && line[i + 1] === ">") return "a redirection to a file";
      i += line[i + 1] === c || (c === "|" && line[i + 1] === "&") ? 2 : 1;
      out.push({ kind: "sep" });
      continue;
    }
    if (c === "(") {
      out.push({ kind: "open" });
      i++;
      continue;
    }
    if (c === ")") {
      out.push({ kind: "close" });
      i++;
      continue;
    }
    if (c === "#") {
      // A comment runs to the end of the line.
      while (i < n && line[i] !== "\n") i++;
      continue;
    }
    if (c === "`") return "command substitution ($(…) or backticks)";
    // A redirection: optional fd digits, then < or >.
    const redirect = /^(\d*)(>>|>\||>&|<&|<<|<>|<|>)/.exec(line.slice(i));
    if (redirect && (redirect[1] !== "" || i === 0 || !isWordChar(line[i - 1]))) {
      const op = redirect[2];
      i += redirect[0].length;
      if (op === "<<") return "a here-document";
      if (line[i] === "(") return "process substitution";
      while (i < n && isBlank(line[i])) i++;
      if (op === ">&" || op === "<&") {
        const fd = /^(\d+|-)/.exec(line.slice(i));
        if (!fd || isWordChar(line[i + fd[0].length] ?? " ")) return "a redirection to a file";
        i += fd[0].length;
        continue;
      }
      if ((op === ">" || op === ">>") && line.startsWith("/dev/null", i)) {
        const after = line[i + "/dev/null".length];
        if (after === undefined || !isWordChar(after)) {
          i += "/dev/null".length;
          continue;
        }
      }
      return op.startsWith("<") ? "a redirection from a file" : "a redirection to a file";
    }
    // A word: every character left is one (see isWordChar), so it takes at
    // least one; the check after the loop keeps that true if the classes
    // above ever drift apart.
    const start = i;
    let text = "";
    let quoted = false;
    /** The word's unquoted characters, for brace expansion. */
    let bare = "";
    while (i < n && isWordChar(line[i])) {
      const ch = line[i];
      if (ch === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return "an unterminated quote";
        text += line.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (ch === '"') {
        let j = i + 1;
        while (j < n && line[j] !== '"') {
          if (line[j] === "$" || line[j] === "`") {
            return line[j] === "`" || line[j + 1] === "("
              ? "command substitution ($(…) or backticks)"
              : "a variable expansion ($…)";
          }
          if (line[j] === "\\" && j + 1 < n) {
            const next = line[j + 1];
            text += /["\\$`\n]/.test(next) ? (next === "\n" ? "" : next) : "\\" + next;
            j += 2;
            continue;
          }
          text += line[j];
          j++;
        }
        if (j >= n) return "an unterminated quote";
        quoted = true;
        i = j + 1;
      } else if (ch === "\\") {
        if (i + 1 >= n) return "a trailing backslash";
        if (line[i + 1] !== "\n") text += line[i + 1];
        quoted = true;
        i += 2;
      } else if (ch === "$") {
        return line[i + 1] === "("
          ? "command substitution ($(…) or backticks)"
          : "a variable expansion ($…)";
      } else if (ch === "`") {
        return "command substitution ($(…) or backticks)";
      } else if ((ch === "<" || ch === ">") && line[i + 1] === "(") {
        return "process substitution";
      } else if (ch === "<" || ch === ">") {
        return "a redirection to a file";
      } else {
        text += ch;
        bare += ch;
        i++;
      }
    }
    if (i === start) return `an unexpected character (U+${codePoint(c)})`;
    // `{rm,-rf,x}` expands to `rm -rf x`: the words are not what they read.
    if (/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(bare)) return "brace expansion";
    out.push({ kind: "word", text, quoted });
  }
  return out;
}

/**
 * A blank between words. Like the shell, only space and tab: a carriage
 * return, form feed, vertical tab or a Unicode space is part of a word
 * (`ls\r` runs a command named `ls\r`).
 */
function isBlank(c: string): boolean {
  return c === " " || c === "\t";
}

/** Part of a word: anything but a blank, a newline or one of `;&|()`. */
function isWordChar(c: string): boolean {
  return !isBlank(c) && !/[\n;&|()]/.test(c);
}

function codePoint(c: string): string {
  return (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
}

/**
 * The simple commands `line` runs, in order, or why it is outside the
 * subset this module reads.
 */
export function shellCommands(line: string): ShellParse {
  const tokens = tokenize(line);
  if (typeof tokens === "string") return unsafe(tokens);
  const commands: SimpleCommand[] = [];
  let depth = 0;
  let current: SimpleCommand | undefined;
  const end = () => {
    if (current && current.words.length > 0) commands.push(current);
    else if (current && current.assignments.length > 0) {
      // `FOO=1` alone sets a variable the next command may read.
      commands.push(current);
    }
    current = undefined;
  };
  for (const t of tokens) {
    if (t.kind === "sep") end();
    else if (t.kind === "open") {
      if (current) return unsafe("a parenthesis inside a command");
      depth++;
    } else if (t.kind === "close") {
      if (depth === 0) return unsafe("an unbalanced parenthesis");
      end();
      depth--;
    } else {
      current ??= { assignments: [], words: [] };
      if (current.words.length === 0 && !t.quoted && ASSIGNMENT.test(t.text)) {
        current.assignments.push(t.text);
        continue;
      }
      if (current.words.length === 0) {
        if (!t.quoted && GLOB_CHARS.test(t.text)) return unsafe("a pattern as a command name");
        if (!t.quoted && t.text.startsWith("~")) return unsafe("a ~ in a command name");
        if (!t.quoted && (t.text === "{" || t.text === "}")) return unsafe("a { … } group");
      }
      current.words.push(t.text);
    }
  }
  if (depth !== 0) return unsafe("an unbalanced parenthesis");
  end();
  return { ok: true, commands };
}
