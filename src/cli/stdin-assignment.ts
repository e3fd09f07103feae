/**
 * What `xcsh run AGENT …` takes as its assignment when stdin has something
 * too: the words, then stdin in a fenced block (as Codex appends piped
 * input), so `git diff | xcsh run reviewer "review this"` sends both; `-`
 * as the only word means stdin alone. Stdin is read up to
 * {@link MAX_STDIN_BYTES} (over it: an error, never a silent cut), so that
 * the task envelope's own 16 MiB limit, checked later, is the one a user
 * meets with its own message; and it must be text: a NUL byte or bytes
 * that are not UTF-8 are refused. Pure but for {@link readStdinCapped}.
 *
 * @example
 * ```ts
 * withStdin(["review", "this"], "diff --git a b\n");
 * // "review this\n\n```stdin\ndiff --git a b\n```"
 * withStdin(["-"], "just this"); // "just this"
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { fstatSync, readSync } from "node:fs";

/** The most stdin that `xcsh run` reads (the envelope holding it is capped at 16 MiB). */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** The assignment from the words and what stdin held (`""`: nothing). */
export function withStdin(words: readonly string[], stdin: string): string {
  if (words.length === 1 && words[0] === "-") return stdin;
  const prompt = words.join(" ");
  if (stdin.trim() === "") return prompt;
  if (prompt.trim() === "") return stdin;
  // A fence longer than any run of backticks inside, so the block cannot end early.
  const longest = Math.max(2, ...[...stdin.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${prompt}\n\n${fence}stdin\n${stdin.endsWith("\n") ? stdin : stdin + "\n"}${fence}`;
}

/** Why `bytes` is not text stdin, or undefined. */
export function notText(bytes: Uint8Array): string | undefined {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `stdin is binary (a NUL byte at offset ${nul}); pass text`;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "stdin is not UTF-8 text; pass text";
  }
  return undefined;
}

/**
 * Reads stdin to its end, at most the cap. A terminal, `/dev/null` or any
 * other device is not read. Reads are plain blocking ones on descriptor 0:
 * a stream over stdin would cost every run milliseconds to set up.
 */
export function readStdinCapped(
  cap = MAX_STDIN_BYTES,
): { ok: true; text: string } | { ok: false; message: string } {
  let kind;
  try {
    kind = fstatSync(0);
  } catch {
    return { ok: true, text: "" }; // no stdin at all
  }
  if (kind.isCharacterDevice() || kind.isDirectory()) return { ok: true, text: "" };
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        // A descriptor left non-blocking by whoever started us: wait for data.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (code === "EOF") break;
      return { ok: false, message: `stdin cannot be read (${code ?? (err as Error).message})` };
    }
    if (n === 0) break;
    size += n;
    if (size > cap) {
      return {
        ok: false,
        message: `stdin is over ${cap / 1024 / 1024} MiB, the most xcsh run reads; ` +
          `write it to a file in the project and name the file in the assignment`,
      };
    }
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  const bytes = Buffer.concat(chunks);
  const why = notText(bytes);
  return why ? { ok: false, message: why } : { ok: true, text: bytes.toString("utf8") };
}
