/**
 * How xcsh's tools look to a Claude Code hook: the tool's name
 * (`bash` → `Bash`, an MCP tool keeps `mcp__server__tool`), its input with
 * Claude Code's argument names (`path` → `file_path`, `all` →
 * `replace_all`, a `bash` timeout in milliseconds), an `updatedInput`
 * answer mapped back to xcsh's names, and the result as Claude Code's
 * per-tool `tool_response`. One table, {@link SHAPES}, states every
 * tool's mapping. Pure.
 *
 * @example
 * ```ts
 * claudeToolInput("edit", { path: "a.ts", old_string: "x", new_string: "y", all: true });
 * // { file_path: "a.ts", old_string: "x", new_string: "y", replace_all: true }
 * xcshToolInput("read", { file_path: "a.ts", offset: 3, limit: 2 });
 * // { path: "a.ts", start_line: 3, end_line: 4 }
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

type Input = Record<string, unknown>;

interface Shape {
  /** Claude Code's tool name. */
  name: string;
  /** Other names a matcher may use for it (Claude Code renamed `Task` to `Agent`). */
  aliases?: readonly string[];
  toClaude: (x: Input) => Input;
  toXcsh: (c: Input) => Input;
  response: (x: Input, output: string, ok: boolean) => Input;
}

/** `o` without its undefined values. */
function defined(o: Input): Input {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const lines = (s: string) => s.split("\n").filter((l) => l !== "");
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/** xcsh tool → its Claude Code shape. */
const SHAPES: Readonly<Record<string, Shape>> = {
  bash: {
    name: "Bash",
    toClaude: (x) =>
      defined({
        command: x.command,
        description: x.description ?? "",
        timeout: num(x.timeout) !== undefined ? (x.timeout as number) * 1000 : undefined,
      }),
    toXcsh: (c) =>
      defined({
        command: c.command,
        timeout: num(c.timeout) !== undefined ? (c.timeout as number) / 1000 : undefined,
      }),
    response: (_x, out, ok) => ({
      stdout: ok ? out : "",
      stderr: ok ? "" : out,
      interrupted: false,
      isImage: false,
    }),
  },
  read: {
    name: "Read",
    toClaude: (x) => {
      const start = num(x.start_line), end = num(x.end_line);
      return defined({
        file_path: x.path,
        offset: start,
        limit: end !== undefined ? end - (start ?? 1) + 1 : undefined,
      });
    },
    toXcsh: (c) => {
      const offset = num(c.offset), limit = num(c.limit);
      return defined({
        path: c.file_path,
        start_line: offset,
        end_line: limit !== undefined ? (offset ?? 1) + limit - 1 : undefined,
      });
    },
    response: (x, out) => ({
      type: "text",
      file: { filePath: x.path, content: out, numLines: lines(out).length },
    }),
  },
  write: {
    name: "Write",
    toClaude: (x) => defined({ file_path: x.path, content: x.content }),
    toXcsh: (c) => defined({ path: c.file_path, content: c.content }),
    response: (x) => ({ type: "create", filePath: x.path, content: x.content }),
  },
  edit: {
    name: "Edit",
    toClaude: (x) =>
      defined({
        file_path: x.path,
        old_string: x.old_string,
        new_string: x.new_string,
        replace_all: x.all ?? false,
      }),
    toXcsh: (c) =>
      defined({
        path: c.file_path,
        old_string: c.old_string,
        new_string: c.new_string,
        all: c.replace_all,
      }),
    response: (x) => ({
      filePath: x.path,
      oldString: x.old_string,
      newString: x.new_string,
      replaceAll: x.all ?? false,
    }),
  },
  find: {
    name: "Glob",
    toClaude: (x) => defined({ pattern: x.pattern, path: x.path }),
    toXcsh: (c) => defined({ pattern: c.pattern, path: c.path }),
    response: (_x, out) => ({ filenames: lines(out), numFiles: lines(out).length }),
  },
  grep: {
    name: "Grep",
    toClaude: (x) =>
      defined({
        pattern: x.pattern,
        path: x.path,
        glob: x.glob,
        output_mode: "content",
        "-n": true,
        "-i": x.ignore_case,
        head_limit: x.max_results,
      }),
    toXcsh: (c) =>
      defined({
        pattern: c.pattern,
        path: c.path,
        glob: c.glob,
        ignore_case: c["-i"],
        max_results: c.head_limit,
      }),
    response: (_x, out) => ({
      mode: "content",
      content: out,
      numLines: lines(out).length,
    }),
  },
  ls: {
    name: "LS",
    toClaude: (x) => defined({ path: x.path }),
    toXcsh: (c) => defined({ path: c.path }),
    response: (_x, out) => ({ output: out }),
  },
  web_fetch: {
    name: "WebFetch",
    toClaude: (x) => defined({ url: x.url, prompt: "", start: x.start }),
    toXcsh: (c) => defined({ url: c.url, start: c.start }),
    response: (x, out) => ({ url: x.url, result: out }),
  },
  web_search: {
    name: "WebSearch",
    toClaude: (x) => ({ ...x }),
    toXcsh: (c) => ({ ...c }),
    response: (x, out) => ({ query: x.query, results: out }),
  },
  task: {
    name: "Task",
    aliases: ["Agent"],
    toClaude: (x) => {
      const tasks = Array.isArray(x.tasks) ? x.tasks.filter(isRecord) : [];
      return defined({
        subagent_type: x.agent,
        description: tasks[0]?.description ?? tasks[0]?.id,
        prompt: tasks.map((t) => t.assignment).join("\n\n"),
        ...x,
      });
    },
    // The call's own fields are in the input too; Claude Code's are dropped.
    toXcsh: ({ subagent_type: _s, description: _d, prompt: _p, ...c }) => c,
    response: (_x, out) => ({ content: [{ type: "text", text: out }] }),
  },
  todo: {
    name: "TodoWrite",
    toClaude: (x) => ({ ...x }),
    toXcsh: (c) => ({ ...c }),
    response: (_x, out) => ({ output: out }),
  },
  skill: {
    name: "Skill",
    toClaude: (x) => defined({ skill: x.name }),
    toXcsh: (c) => defined({ name: c.skill }),
    response: (_x, out) => ({ output: out }),
  },
};

/** Claude Code's name of xcsh's tool `tool` (an MCP tool and an unknown one keep theirs). Pure. */
export function claudeToolName(tool: string): string {
  return Object.hasOwn(SHAPES, tool) ? SHAPES[tool].name : tool;
}

/** Every name a matcher may select `tool` by: Claude Code's name and its aliases. Pure. */
export function matchableNames(tool: string): readonly string[] {
  if (!Object.hasOwn(SHAPES, tool)) return [tool];
  return [SHAPES[tool].name, ...(SHAPES[tool].aliases ?? [])];
}

/** `input` of xcsh's `tool` with Claude Code's argument names. Pure. */
export function claudeToolInput(tool: string, input: unknown): unknown {
  if (!Object.hasOwn(SHAPES, tool) || !isRecord(input)) return input;
  return SHAPES[tool].toClaude(input);
}

/** A hook's `updatedInput` (Claude Code's names) as xcsh's `tool` takes it. Pure. */
export function xcshToolInput(tool: string, updated: Input): Input {
  if (!Object.hasOwn(SHAPES, tool)) return updated;
  return SHAPES[tool].toXcsh(updated);
}

/** The `tool_response` a Claude Code hook reads for a call of `tool`. Pure. */
export function claudeToolResponse(
  tool: string,
  input: unknown,
  outcome: { ok: boolean; output: string },
): unknown {
  if (!Object.hasOwn(SHAPES, tool)) {
    // MCP tools: Claude Code passes the server's content list.
    return [{ type: "text", text: outcome.output }];
  }
  return SHAPES[tool].response(isRecord(input) ? input : {}, outcome.output, outcome.ok);
}
