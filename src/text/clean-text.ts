/**
 * What of a string may reach a terminal: text from files, models and tools
 * loses control characters (C0 except newline and tab, DEL, C1), whole
 * escape sequences (CSI, OSC such as clipboard writes, DCS and the like) and
 * bidirectional overrides, which can make text read differently from what it
 * is. Also decides which characters make a name unacceptable: controls and
 * the invisible ones (zero-width, bidi marks, soft hyphen, BOM). Pure.
 *
 * @example
 * ```ts
 * cleanText("ok\u001b]52;c;ZXZpbA==\u0007 done"); // "ok done"
 * cleanText("a\u202Eb");                          // "ab"
 * invisibleIn("ex\u200Bplore");                   // "U+200B"
 * showInvisible("ex\u200Bplore");                 // "ex<U+200B>plore"
 * ```
 *
 * @module
 */

/** ESC-introduced sequences: OSC/DCS/SOS/PM/APC strings, CSI, and two-character escapes. */
const ESCAPES = new RegExp(
  [
    // String sequences end with BEL or ST (ESC \); unterminated ones run to the end.
    "\\u001b[\\]PX^_][\\s\\S]*?(?:\\u0007|\\u001b\\\\|$)",
    // The same introduced by the 8-bit C1 codes.
    "[\\u009d\\u0090\\u0098\\u009e\\u009f][\\s\\S]*?(?:\\u0007|\\u009c|$)",
    // CSI: ESC [ or 0x9B, parameters, intermediates, final byte.
    "(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?",
    // Any other escape: ESC plus one character.
    "\\u001b[\\s\\S]?",
  ].join("|"),
  "g",
);

/** Controls other than tab and newline, DEL, C1, and bidi embeddings, overrides and isolates. */
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Characters that are invisible or reorder text: never part of a name. */
const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]/;

/** Removes escape sequences, control characters and bidi overrides. */
export function cleanText(text: string): string {
  CONTROLS.lastIndex = 0;
  if (!CONTROLS.test(text)) return text;
  CONTROLS.lastIndex = 0;
  return text.replace(ESCAPES, "").replace(CONTROLS, "");
}

/** `name` with each control or invisible character written as `<U+XXXX>`. */
export function showInvisible(name: string): string {
  return name.replace(new RegExp(INVISIBLE.source, "g"), (c) => `<${codePoint(c)}>`);
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The first control or invisible character in `name` as `U+XXXX`, or undefined. */
export function invisibleIn(name: string): string | undefined {
  const m = INVISIBLE.exec(name);
  return m ? codePoint(m[0]) : undefined;
}
