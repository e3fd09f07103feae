/**
 * How a parsed glob is matched against a whole string, in time linear in the
 * string's length for a given pattern: no backtracking, so a pattern such as
 * `*a*a*a*a*a*a*a*a*b` against a long name answers at once.
 *
 * Three strategies, chosen once per pattern: a pattern of plain characters
 * (or one `*` before or after them, as in `*.ts`) is compared directly; one of
 * characters, `?`, classes and `*` that can never match a `/` uses the
 * two-pointer wildcard walk (the last `*` absorbs a mismatch; earlier ones
 * never need to move again); anything else (`**`, `{a,b}`, a `/` in the
 * pattern) runs the pattern's automaton with every live state advanced one
 * character at a time, remembering the state sets it meets as a DFA built
 * lazily. All three agree with the anchored regular expression the pattern
 * stands for. Pure.
 *
 * @example
 * ```ts
 * import { parseGlob } from "./glob-syntax.ts";
 *
 * const m = compileNodes(parseGlob("*.ts"));
 * m("a.ts");   // true
 * m("a/b.ts"); // false: `*` never matches `/`
 * ```
 *
 * @module
 */
import type { CharNode, GlobNode } from "./glob-syntax.ts";

const SLASH = 47;

/** True for the code units `.` in a regular expression does not match. */
function isLineTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function charTest(n: CharNode): (c: number) => boolean {
  if (n.t === "lit") {
    const want = n.c;
    return (c) => c === want;
  }
  if (n.t === "any") return (c) => c !== SLASH;
  return n.test;
}

/** A counter of the steps a matcher took, for tests that prove linear time. */
export interface StepCounter {
  steps: number;
}

/** Only characters, `?`, classes and `*`, none able to match `/`? */
function isSimple(nodes: readonly GlobNode[]): boolean {
  return nodes.every((n) =>
    n.t === "star" || n.t === "any" || (n.t === "lit" && n.c !== SLASH) ||
    (n.t === "class" && !n.slash)
  );
}

/**
 * Two-pointer wildcard match for a simple pattern: characters advance both
 * sides; on a mismatch the last `*` takes one more character. Since no node
 * matches `/`, a string holding one never matches.
 */
function twoPointer(nodes: readonly GlobNode[], counter?: StepCounter): (s: string) => boolean {
  const tests = nodes.map((n) => n.t === "star" ? undefined : charTest(n as CharNode));
  const m = nodes.length;
  return (s) => {
    const n = s.length;
    let p = 0;
    let i = 0;
    let starP = -1;
    let starI = 0;
    while (i < n) {
      if (counter) counter.steps++;
      const c = s.charCodeAt(i);
      if (c === SLASH) return false;
      if (p < m) {
        const t = tests[p];
        if (t === undefined) {
          starP = p++;
          starI = i;
          continue;
        }
        if (t(c)) {
          p++;
          i++;
          continue;
        }
      }
      if (starP < 0) return false;
      p = starP + 1;
      i = ++starI;
    }
    while (p < m && tests[p] === undefined) p++;
    return p === m;
  };
}

// The automaton's instructions.
const CHAR = 0; // arg: index into tests
const SPLIT = 1; // arg: first branch (pc + 1 is the other)
const JMP = 2; // arg: target
const MATCH = 3;

interface Program {
  op: number[];
  arg: number[];
  tests: ((c: number) => boolean)[];
}

function emit(p: Program, op: number, arg = 0): number {
  p.op.push(op);
  p.arg.push(arg);
  return p.op.length - 1;
}

/** A loop `(test)*`: SPLIT to the body or past it. */
function loop(p: Program, body: () => void): void {
  const top = emit(p, SPLIT);
  body();
  emit(p, JMP, top);
  p.arg[top] = p.op.length; // SPLIT: arg = exit, pc + 1 = body
}

function compileSeq(p: Program, nodes: readonly GlobNode[]): void {
  const char = (t: (c: number) => boolean) => emit(p, CHAR, p.tests.push(t) - 1);
  const notSlash = (c: number) => c !== SLASH;
  for (const n of nodes) {
    if (n.t === "star") loop(p, () => char(notSlash));
    else if (n.t === "all") loop(p, () => char((c) => !isLineTerminator(c)));
    else if (n.t === "dirs") {
      loop(p, () => {
        loop(p, () => char(notSlash));
        char((c) => c === SLASH);
      });
    } else if (n.t === "alt") {
      const jumps: number[] = [];
      n.alts.forEach((alt, k) => {
        const last = k === n.alts.length - 1;
        const split = last ? -1 : emit(p, SPLIT);
        compileSeq(p, alt);
        if (!last) {
          jumps.push(emit(p, JMP));
          p.arg[split] = p.op.length;
        }
      });
      for (const j of jumps) p.arg[j] = p.op.length;
    } else char(charTest(n));
  }
}

/** DFA states one matcher builds before it keeps to the plain simulation. */
const MAX_DFA_STATES = 4096;

/** Does the state list hold the final state? */
function accepts(op: readonly number[], list: Int32Array, len: number): boolean {
  for (let k = 0; k < len; k++) if (op[list[k]] === MATCH) return true;
  return false;
}

/**
 * The pattern's automaton, simulated one character at a time with every live
 * state advanced together: O(string × pattern). Each set of live states met
 * is remembered with its transitions for ASCII characters (a DFA built
 * lazily), so a matcher used on many paths soon costs one table look-up per
 * character; past `maxStates` sets it keeps to the simulation.
 */
function automaton(
  nodes: readonly GlobNode[],
  counter?: StepCounter,
  maxStates = MAX_DFA_STATES,
): (s: string) => boolean {
  const p: Program = { op: [], arg: [], tests: [] };
  compileSeq(p, nodes);
  emit(p, MATCH);
  const size = p.op.length;
  const { op, arg, tests } = p;
  // Reused across calls (a matcher never runs inside itself).
  let cur = new Int32Array(size);
  let next = new Int32Array(size);
  const seen = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size * 2 + 2);
  let gen = 0;
  const newGeneration = () => {
    if (++gen > 0x3fffffff) {
      seen.fill(-1);
      gen = 1;
    }
  };
  // Adds `pc` and every state reachable from it without reading a character.
  const add = (list: Int32Array, len: number, pc: number): number => {
    let sp = 0;
    stack[sp++] = pc;
    while (sp > 0) {
      const at = stack[--sp];
      if (seen[at] === gen) continue;
      seen[at] = gen;
      if (counter) counter.steps++;
      const o = op[at];
      if (o === JMP) stack[sp++] = arg[at];
      else if (o === SPLIT) {
        stack[sp++] = arg[at];
        stack[sp++] = at + 1;
      } else list[len++] = at;
    }
    return len;
  };
  // The states after reading `c` in the states `from`, into `into`.
  const step = (from: Int32Array, fromLen: number, c: number, into: Int32Array): number => {
    newGeneration();
    let len = 0;
    for (let k = 0; k < fromLen; k++) {
      const at = from[k];
      if (counter) counter.steps++;
      if (op[at] === CHAR && tests[arg[at]](c)) len = add(into, len, at + 1);
    }
    return len;
  };
  const simulate = (s: string): boolean => {
    newGeneration();
    let len = add(cur, 0, 0);
    for (let i = 0; i < s.length && len > 0; i++) {
      len = step(cur, len, s.charCodeAt(i), next);
      [cur, next] = [next, cur];
    }
    return accepts(op, cur, len);
  };

  interface DfaState {
    pcs: Int32Array;
    accept: boolean;
    /** The next state for each ASCII character, -1 until computed. */
    ascii: Int32Array;
  }
  const states: DfaState[] = [];
  const ids = new Map<string, number>();
  /** The id of the state set `list[0, len)`, or -1 when there are too many. */
  const intern = (list: Int32Array, len: number): number => {
    const pcs = list.slice(0, len).sort();
    const key = pcs.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      if (states.length >= maxStates) return -1;
      id = states.length;
      states.push({ pcs, accept: accepts(op, pcs, len), ascii: new Int32Array(128).fill(-1) });
      ids.set(key, id);
    }
    return id;
  };
  newGeneration();
  const start = intern(cur, add(cur, 0, 0));
  let tooMany = start === -1;
  return (s) => {
    if (tooMany) return simulate(s);
    let id = start;
    for (let i = 0; i < s.length; i++) {
      const state = states[id];
      if (state.pcs.length === 0) return false;
      const c = s.charCodeAt(i);
      if (counter) counter.steps++;
      let to = c < 128 ? state.ascii[c] : -1;
      if (to === -1) {
        to = intern(next, step(state.pcs, state.pcs.length, c, next));
        if (to === -1) {
          tooMany = true;
          return simulate(s);
        }
        if (c < 128) state.ascii[c] = to;
      }
      id = to;
    }
    return states[id].accept;
  };
}

/**
 * A matcher for the whole string: true when the pattern matches all of it.
 * `counter`, when given, counts the steps taken, and `maxDfaStates` bounds
 * the automaton's remembered states (both for tests).
 */
export function compileNodes(
  nodes: readonly GlobNode[],
  counter?: StepCounter,
  maxDfaStates = MAX_DFA_STATES,
): (s: string) => boolean {
  if (nodes.every((n) => n.t === "lit")) {
    const want = String.fromCharCode(...nodes.map((n) => (n as { c: number }).c));
    return (s) => s === want;
  }
  if (isSimple(nodes)) {
    // `*.ts`, `README*`, `*test*`: a literal end, start or middle.
    const lits = (from: number, to: number) =>
      nodes.slice(from, to).every((n) => n.t === "lit")
        ? String.fromCharCode(...nodes.slice(from, to).map((n) => (n as { c: number }).c))
        : undefined;
    const last = nodes.length - 1;
    const starFirst = nodes[0]?.t === "star";
    const starLast = nodes[last]?.t === "star";
    const noSlash = (s: string) => s.indexOf("/") === -1;
    if (starFirst && !starLast) {
      const end = lits(1, nodes.length);
      if (end !== undefined) return (s) => s.endsWith(end) && noSlash(s);
    }
    if (starLast && !starFirst) {
      const begin = lits(0, last);
      if (begin !== undefined) return (s) => s.startsWith(begin) && noSlash(s);
    }
    if (starFirst && starLast && last > 0) {
      const mid = lits(1, last);
      if (mid !== undefined) return (s) => s.includes(mid) && noSlash(s);
    }
    return twoPointer(nodes, counter);
  }
  return automaton(nodes, counter, maxDfaStates);
}

/** True when no node can match a `/` (so matching a base name suffices). */
export function neverMatchesSlash(nodes: readonly GlobNode[]): boolean {
  return isSimple(nodes);
}
