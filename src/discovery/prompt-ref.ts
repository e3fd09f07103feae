/**
 * Where an agent's prompt sits in its file, so that the definition cache
 * keeps a reference to the text instead of the text itself.
 *
 * Prompt bodies are most of a definition file; a cache file holding them is
 * several times larger, and writing it cost a first run more than the
 * parsing it saves later. A parse kept with a reference has an empty
 * `systemPrompt` and `promptAt: [start, end]`, the prompt's place in the
 * file's decoded text. It is only ever completed from text read from a
 * descriptor whose signature is the one the parse was made from (the
 * signature covers device, inode, size and both times), so the prompt is the
 * one the file held; a prompt that is not a plain slice of its file (a TOML
 * string with escapes) is kept whole. Pure.
 *
 * @example
 * ```ts
 * declare const parse: PromptParse; // an agent file's parse
 * declare const text: string; // the file's text
 * const kept = packPrompt(withPromptAt(parse, text)); // what the cache file holds
 * fillPrompt(kept, text);                            // the parse again, prompt included
 * ```
 *
 * @module
 */
import type { AgentDefinition, Diagnostic } from "../types.ts";

/** One file's parse: its agent if it gave one, and its warnings. */
export interface PromptParse {
  agent?: AgentDefinition;
  warnings: Diagnostic[];
  /** Where the agent's prompt is in the file's text, when it is a plain slice of it. */
  promptAt?: [number, number];
}

/** `r` with the place of its prompt in `text`, when the prompt is a slice of it. */
export function withPromptAt<P extends PromptParse>(r: P, text: string): P {
  const prompt = r.agent?.systemPrompt;
  if (!prompt) return r;
  // A Markdown body is the end of the file, trimmed: look there first
  // (measuring the trimmed length without copying the text).
  let end = text.length;
  while (end > 0 && isTrimmedSpace(text.charCodeAt(end - 1))) end--;
  let start = end - prompt.length;
  if (start < 0 || !text.startsWith(prompt, start)) start = text.lastIndexOf(prompt);
  if (start < 0) return r;
  return { ...r, promptAt: [start, start + prompt.length] };
}

/** Whether `c` is one of the characters `String.prototype.trimEnd` removes. */
function isTrimmedSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** What the cache file keeps of `r`: the prompt left out where its place is known. */
export function packPrompt<P extends PromptParse>(r: P): P {
  if (!r.promptAt || !r.agent || r.agent.systemPrompt === "") return r;
  return { ...r, agent: { ...r.agent, systemPrompt: "" } };
}

/** True when `r`'s prompt was left out and must be taken from its file. */
export function lacksPrompt(r: PromptParse): boolean {
  return r.promptAt !== undefined && r.agent !== undefined && r.agent.systemPrompt === "";
}

/** Whether `v` is absent or a valid `promptAt`. */
export function isPromptAt(v: unknown): boolean {
  return v === undefined ||
    (Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && Number.isInteger(v[1]) &&
      v[0] >= 0 && v[1] > v[0]);
}

/**
 * `r` complete, its prompt taken from `text` (the file in the state `r` was
 * parsed from) when it was left out; undefined when `text` cannot hold it.
 * The prompt is put back in place, so the agent keeps its key order.
 */
export function fillPrompt<P extends PromptParse>(r: P, text: string): P | undefined {
  if (!lacksPrompt(r)) return r;
  const [start, end] = r.promptAt!;
  if (end > text.length) return undefined;
  const agent = { ...r.agent!, systemPrompt: text.slice(start, end) };
  return { ...r, agent };
}
