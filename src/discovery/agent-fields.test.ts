// Unit tests for parseAgentFields (every frontmatter rule) and
// parseAgent (whole Markdown files at the three levels).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  type AgentFields,
  type AgentOrigin,
  AgentParsingError,
  parseAgent as parseAgentOnDemand,
  parseAgentFields,
  parseThinkingLevel,
  splitCsv,
} from "./agent-fields.ts";
import { loadParsers, parsedNow } from "../formats/full-parsers.ts";

// These tests call the parsers synchronously; discovery loads them on demand.
await loadParsers();

/** parseAgent with the parsers loaded above. */
const parseAgent = (...a: Parameters<typeof parseAgentOnDemand>) =>
  parsedNow(parseAgentOnDemand(...a));

const FILE = "/home/u/.claude/agents/helper.md";
const BASE = { name: "helper", description: "Helps." } as const;

interface FieldRow {
  name: string;
  fm: Record<string, unknown>;
  /** The whole expected value (name and description from BASE are added). */
  value?: Omit<AgentFields, "name" | "description">;
  /** For invalid input: the field named by the error and a regex for its message. */
  error?: { field: string; message: RegExp };
  /** Fields named by the warnings, in order. */
  warnings?: string[];
}

const fieldRows: FieldRow[] = [
  // Isolation (Claude Code's field)
  { name: "isolation: worktree", fm: { isolation: "worktree" }, value: { isolation: "worktree" } },
  { name: "isolation: none", fm: { isolation: "none" }, value: { isolation: "none" } },
  {
    name: "isolation: box is ignored",
    fm: { isolation: "box" },
    value: {},
    warnings: ["isolation"],
  },
  // Required fields
  { name: "name and description only", fm: {}, value: {} },
  { name: "name is trimmed", fm: { name: "  helper  " }, value: {} },
  {
    name: "missing name",
    fm: { name: undefined },
    error: { field: "name", message: /missing required field 'name'/ },
  },
  {
    name: "name: 123",
    fm: { name: 123 },
    error: { field: "name", message: /'name' must be a non-empty string, not number 123/ },
  },
  {
    name: "empty name",
    fm: { name: "" },
    error: { field: "name", message: /'name' must be a non-empty string/ },
  },
  {
    name: "blank name",
    fm: { name: "   " },
    error: { field: "name", message: /'name' must be a non-empty string/ },
  },
  {
    name: "name with a space",
    fm: { name: "my helper" },
    error: { field: "name", message: /may hold only letters, digits/ },
  },
  {
    name: "name with a comma",
    fm: { name: "a,b" },
    error: { field: "name", message: /may hold only letters, digits/ },
  },
  ...[
    "rev$(touch${IFS}x)",
    "rev`id`",
    "rev;id",
    "rev|id",
    "rev'x",
    'rev"x',
    "-rev",
    ".rev",
    "rev/x",
    "rev\\x",
    "r&v",
    "r>v",
  ]
    .map((n): FieldRow => ({
      name: `name ${JSON.stringify(n)}`,
      fm: { name: n },
      error: { field: "name", message: /may hold only letters, digits, '\.', '_', ':' and '-'/ },
    })),
  {
    name: "a name over 128 characters",
    fm: { name: "a".repeat(129) },
    error: { field: "name", message: /129 characters long, over the limit of 128/ },
  },
  {
    name: "spawns entries no agent could be named are dropped",
    fm: { spawns: ["explore", "x$(id)", "plugin:rev"] },
    value: { spawns: ["explore", "plugin:rev"] },
    warnings: ["spawns"],
  },
  {
    name: "missing description",
    fm: { description: null },
    error: { field: "description", message: /missing required field 'description'/ },
  },
  {
    name: "description: 42",
    fm: { description: 42 },
    error: { field: "description", message: /non-empty string, not number 42/ },
  },
  {
    name: "description as a list",
    fm: { description: ["a"] },
    error: { field: "description", message: /not a list/ },
  },
  // tools
  {
    name: "tools: 42",
    fm: { tools: 42 },
    error: { field: "tools", message: /'tools' must be .* not number 42/ },
  },
  {
    name: "tools as a mapping",
    fm: { tools: { read: true } },
    error: { field: "tools", message: /not a mapping/ },
  },
  {
    name: "tools list with a non-string",
    fm: { tools: ["read", 5] },
    error: { field: "tools", message: /list of strings/ },
  },
  // An empty list means every tool, with a note saying so.
  { name: "tools: [] means all tools (absent)", fm: { tools: [] }, value: {}, warnings: ["tools"] },
  { name: 'tools: "" means all tools (absent)', fm: { tools: "" }, value: {}, warnings: ["tools"] },
  {
    name: 'tools: " , " means all tools (absent)',
    fm: { tools: " , " },
    value: {},
    warnings: ["tools"],
  },
  { name: "tools: (null) is absent, no note", fm: { tools: null }, value: {} },
  {
    name: 'tools: "Read, Grep" (Claude names, CSV)',
    fm: { tools: "Read, Grep" },
    value: { tools: ["read", "grep", "submit_result"] },
  },
  {
    name: "tools as an array of canonical names",
    fm: { tools: ["read", "edit"] },
    value: { tools: ["read", "edit", "submit_result"] },
  },
  {
    name: "submit_result listed is kept once, in place",
    fm: { tools: ["submit_result", "read", "submit_result"] },
    value: { tools: ["submit_result", "read"] },
  },
  {
    name: "submit_result alone",
    fm: { tools: "submit_result" },
    value: { tools: ["submit_result"] },
  },
  {
    name: "every Claude tool name maps to ours (Task/Agent → task, so spawns *)",
    fm: { tools: "Read, Grep, Glob, LS, Bash, Edit, MultiEdit, Write, Task, Agent" },
    value: {
      tools: ["read", "grep", "find", "ls", "bash", "edit", "write", "task", "submit_result"],
      spawns: "*",
    },
  },
  {
    name: "every Gemini tool name maps to ours",
    fm: {
      tools: [
        "read_file",
        "grep_search",
        "glob",
        "list_directory",
        "run_shell_command",
        "replace",
        "write_file",
      ],
    },
    value: { tools: ["read", "grep", "find", "ls", "bash", "edit", "write", "submit_result"] },
  },
  {
    name: "unknown tool names are kept out and listed in unknownTools",
    fm: { tools: "Read, NotebookEdit, Frob, NotebookEdit" },
    value: { tools: ["read", "submit_result"], unknownTools: ["NotebookEdit", "Frob"] },
  },
  {
    name: "web, checklist and MCP tool names are kept",
    fm: { tools: "Read, WebFetch, TodoWrite, WebSearch, mcp__github__search, mcp__fs__*" },
    value: {
      tools: [
        "read",
        "web_fetch",
        "todo",
        "web_search",
        "mcp__github__search",
        "mcp__fs__*",
        "submit_result",
      ],
    },
  },
  {
    name: "mcpServers: names and inline definitions (Claude Code's list)",
    fm: {
      mcpServers: ["github", { fs: { type: "stdio", command: "npx", args: ["-y", "srv"] } }],
    },
    value: {
      mcpServers: [
        { name: "github" },
        { name: "fs", definition: { type: "stdio", command: "npx", args: ["-y", "srv"], env: {} } },
      ],
    },
  },
  {
    name: "mcp-servers: Copilot CLI's mapping",
    fm: {
      "mcp-servers": { api: { type: "local", command: "api-mcp", env: { PORT: 3 } } },
    },
    value: {
      mcpServers: [
        {
          name: "api",
          definition: { type: "stdio", command: "api-mcp", args: [], env: { PORT: "3" } },
        },
      ],
    },
  },
  {
    name: "prototype keys are unknown tools, not aliases",
    fm: { tools: ["constructor", "__proto__", "read"] },
    value: { tools: ["read", "submit_result"], unknownTools: ["constructor", "__proto__"] },
  },
  // restricting fields
  {
    name: "disallowedTools removes Claude and MCP names, as CSV",
    fm: { tools: "Read, Write, Bash", disallowedTools: "Bash, mcp__srv__*" },
    value: {
      tools: ["read", "write", "bash", "submit_result"],
      disallowedTools: ["bash", "mcp__srv__*"],
    },
  },
  {
    name: "disallowedTools as a list, without tools",
    fm: { disallowedTools: ["Write", "Edit"] },
    value: { disallowedTools: ["write", "edit"] },
  },
  {
    name: "disallowed_tools is the same key",
    fm: { disallowed_tools: "Bash" },
    value: { disallowedTools: ["bash"] },
  },
  {
    name: "disallowedTools naming no tool: a warning, nothing removed",
    fm: { disallowedTools: "Bash, Frobnicate" },
    value: { disallowedTools: ["bash"] },
    warnings: ["disallowedTools"],
  },
  {
    name: "Agent(a, b) is task with those spawns, split outside parentheses",
    fm: { tools: "Read, Agent(explore, reviewer)" },
    value: { tools: ["read", "task", "submit_result"], spawns: ["explore", "reviewer"] },
  },
  {
    name: "Task(x) is the older spelling; bare Agent spawns any",
    fm: { tools: ["Task(explore)"] },
    value: { tools: ["task", "submit_result"], spawns: ["explore"] },
  },
  {
    name: "bare Agent spawns any",
    fm: { tools: "Agent" },
    value: { tools: ["task", "submit_result"], spawns: "*" },
  },
  {
    name: "an explicit spawns wins over Agent(…)",
    fm: { tools: "Agent(a)", spawns: "b" },
    value: { tools: ["task", "submit_result"], spawns: ["b"] },
  },
  {
    name: "Agent(x) in disallowedTools keeps it from being spawned",
    fm: { tools: "Agent", disallowedTools: "Agent(plan)" },
    value: { tools: ["task", "submit_result"], spawns: "*", disallowedAgents: ["plan"] },
  },
  {
    name: "Bash(…) rules grant bash restricted to them",
    fm: { tools: "Read, Bash(git status:*), Bash(npm test)" },
    value: {
      tools: ["read", "bash", "submit_result"],
      permissions: {
        allow: [
          { text: "Bash(git status:*)", family: "bash", tool: "bash", pattern: "git status:*" },
          { text: "Bash(npm test)", family: "bash", tool: "bash", pattern: "npm test" },
        ],
        deny: [],
      },
    },
  },
  {
    name: "a bare tool next to its rule is unrestricted",
    fm: { tools: "Bash, Bash(git status:*)" },
    value: { tools: ["bash", "submit_result"] },
  },
  {
    name: "Read, Edit and WebFetch rules; deny rules in disallowedTools",
    fm: {
      tools: "Read(./src/**), Edit(docs/**), WebFetch(domain:example.com)",
      disallowedTools: "Bash(rm:*)",
    },
    value: {
      tools: ["read", "edit", "web_fetch", "submit_result"],
      permissions: {
        allow: [
          { text: "Read(./src/**)", family: "read", tool: "read", pattern: "./src/**" },
          { text: "Edit(docs/**)", family: "edit", tool: "edit", pattern: "docs/**" },
          {
            text: "WebFetch(domain:example.com)",
            family: "web_fetch",
            tool: "web_fetch",
            pattern: "domain:example.com",
          },
        ],
        deny: [{ text: "Bash(rm:*)", family: "bash", pattern: "rm:*" }],
      },
    },
  },
  {
    name: "Gemini: * is every tool; mcp_* and mcp_srv_* are MCP wildcards",
    fm: { tools: ["*"] },
    value: {},
  },
  {
    name: "Gemini MCP wildcards",
    fm: { tools: ["read_file", "mcp_*", "mcp_github_*"] },
    value: { tools: ["read", "mcp__*", "mcp__github__*", "submit_result"] },
  },
  {
    name: "unbalanced parentheses: an error",
    fm: { tools: "Read, Bash(git status" },
    error: { field: "tools", message: /unbalanced parentheses/ },
  },
  {
    name: "an empty rule: an error",
    fm: { tools: ["Bash()"] },
    error: { field: "tools", message: /empty pattern/ },
  },
  {
    name: "a broken deny rule is an error too (it must not grant by failing)",
    fm: { disallowedTools: "Bash(rm:*" },
    error: { field: "disallowedTools", message: /unbalanced parentheses/ },
  },
  {
    name: "a rule for a tool that takes none",
    fm: { tools: "WebSearch(x)" },
    error: { field: "tools", message: /takes no rule/ },
  },
  {
    name: "a WebFetch rule needs domain:",
    fm: { tools: "WebFetch(example.com)" },
    error: { field: "tools", message: /domain:<host>/ },
  },
  {
    name: ":* only at the end",
    fm: { tools: "Bash(git:* status)" },
    error: { field: "tools", message: /may only end/ },
  },
  // spawns
  { name: 'spawns: "" is absent', fm: { spawns: "" }, value: {} },
  { name: "spawns: [] is absent", fm: { spawns: [] }, value: {} },
  { name: 'spawns: "*"', fm: { spawns: "*" }, value: { spawns: "*" } },
  {
    name: "spawns as CSV",
    fm: { spawns: "explore, plan" },
    value: { spawns: ["explore", "plan"] },
  },
  {
    name: "spawns as an array, duplicates dropped",
    fm: { spawns: ["explore", "plan", "explore"] },
    value: { spawns: ["explore", "plan"] },
  },
  {
    name: "a '*' in a spawns list means any",
    fm: { spawns: ["explore", "*"] },
    value: {
      spawns: "*",
    },
  },
  {
    name: "spawns names are case-sensitive",
    fm: { spawns: "Task, task" },
    value: { spawns: ["Task", "task"] },
  },
  {
    name: "spawns: 3",
    fm: { spawns: 3 },
    error: { field: "spawns", message: /'spawns' must be/ },
  },
  {
    name: "tools with task and no spawns → spawns *",
    fm: { tools: "read, task" },
    value: { tools: ["read", "task", "submit_result"], spawns: "*" },
  },
  {
    name: 'tools with task and spawns: "" → spawns * (empty is absent)',
    fm: { tools: "read, task", spawns: "" },
    value: { tools: ["read", "task", "submit_result"], spawns: "*" },
  },
  {
    name: "tools with task and explicit spawns keep the list",
    fm: { tools: ["task"], spawns: ["explore"] },
    value: { tools: ["task", "submit_result"], spawns: ["explore"] },
  },
  {
    name: "no tools (all tools) does not imply spawns",
    fm: { tools: [] },
    value: {},
    warnings: ["tools"],
  },
  // model
  { name: "model as a string", fm: { model: "xcsh/smol" }, value: { model: ["xcsh/smol"] } },
  {
    name: "model as CSV keeps order",
    fm: { model: "anthropic/claude-sonnet-4-5, xcsh/default" },
    value: { model: ["anthropic/claude-sonnet-4-5", "xcsh/default"] },
  },
  {
    name: "model as an array",
    fm: { model: ["xcsh/plan", "xcsh/slow"] },
    value: { model: ["xcsh/plan", "xcsh/slow"] },
  },
  { name: 'model: "" is absent', fm: { model: "" }, value: {} },
  { name: "model: 7", fm: { model: 7 }, error: { field: "model", message: /'model' must be/ } },
  // thinking level
  {
    name: "thinking-level: HIGH → high",
    fm: { "thinking-level": "HIGH" },
    value: { thinkingLevel: "high" },
  },
  {
    name: "thinkingLevel: minimal",
    fm: { thinkingLevel: "minimal" },
    value: {
      thinkingLevel: "minimal",
    },
  },
  { name: "thinking: low", fm: { thinking: "low" }, value: { thinkingLevel: "low" } },
  {
    name: "thinking_level with spaces and mixed case",
    fm: { thinking_level: " XHigh " },
    value: { thinkingLevel: "xhigh" },
  },
  { name: "thinkingLevel: off", fm: { thinkingLevel: "off" }, value: { thinkingLevel: "off" } },
  {
    name: "thinkingLevel: ultra is dropped with a warning",
    fm: { thinkingLevel: "ultra" },
    value: {},
    warnings: ["thinkingLevel"],
  },
  {
    name: "thinking-level: 3 is dropped with a warning",
    fm: { "thinking-level": 3 },
    value: {},
    warnings: ["thinking-level"],
  },
  {
    name: "thinkingLevel wins over thinking",
    fm: { thinkingLevel: "high", thinking: "low" },
    value: { thinkingLevel: "high" },
  },
  // output
  {
    name: "output as an object is passed through",
    fm: { output: { properties: { n: { type: "int32" } } } },
    value: { output: { properties: { n: { type: "int32" } } } },
  },
  {
    name: "output as a JSON string is parsed",
    fm: { output: '{"type":"object","required":["a"]}' },
    value: { output: { type: "object", required: ["a"] } },
  },
  {
    name: "output as invalid JSON is an error naming output",
    fm: { output: "{type: object" },
    error: { field: "output", message: /'output' is a string but not valid JSON/ },
  },
  {
    name: "output: 5 is an error naming output",
    fm: { output: 5 },
    error: { field: "output", message: /'output' must be a schema object or a JSON string/ },
  },
  { name: 'output: "" is absent', fm: { output: "" }, value: {} },
  // maxTurns
  { name: "maxTurns: 10", fm: { maxTurns: 10 }, value: { maxTurns: 10 } },
  { name: "max_turns (Gemini)", fm: { max_turns: 12 }, value: { maxTurns: 12 } },
  { name: 'maxTurns: "7" (fallback string)', fm: { maxTurns: "7" }, value: { maxTurns: 7 } },
  {
    name: "maxTurns: 0 is dropped with a warning",
    fm: { maxTurns: 0 },
    value: {},
    warnings: ["maxTurns"],
  },
  {
    name: "maxTurns: 2.5 is dropped with a warning",
    fm: { maxTurns: 2.5 },
    value: {},
    warnings: ["maxTurns"],
  },
  {
    name: "max_turns: lots is dropped with a warning",
    fm: { max_turns: "lots" },
    value: {},
    warnings: ["max_turns"],
  },
  // timeout
  { name: "timeout: 90 (seconds)", fm: { timeout: 90 }, value: { timeout: 90 } },
  { name: 'timeout: "30"', fm: { timeout: "30" }, value: { timeout: 30 } },
  { name: "timeout_mins: 5 → 300 s (Gemini)", fm: { timeout_mins: 5 }, value: { timeout: 300 } },
  { name: 'timeout_mins: "0.5" → 30 s', fm: { timeout_mins: "0.5" }, value: { timeout: 30 } },
  {
    name: "timeout wins over timeout_mins",
    fm: { timeout: 20, timeout_mins: 5 },
    value: { timeout: 20 },
  },
  {
    name: "timeout: -1 is dropped with a warning",
    fm: { timeout: -1 },
    value: {},
    warnings: ["timeout"],
  },
  {
    name: "timeout_mins: never is dropped with a warning",
    fm: { timeout_mins: "never" },
    value: {},
    warnings: ["timeout_mins"],
  },
  // recursive
  { name: "recursive: true", fm: { recursive: true }, value: { recursive: true } },
  { name: "recursive: false", fm: { recursive: false }, value: { recursive: false } },
  { name: 'recursive: "true"', fm: { recursive: "true" }, value: { recursive: true } },
  { name: 'recursive: "false"', fm: { recursive: "false" }, value: { recursive: false } },
  {
    name: 'recursive: "yes" is dropped with a warning',
    fm: { recursive: "yes" },
    value: {},
    warnings: ["recursive"],
  },
  {
    name: "recursive: 1 is dropped with a warning",
    fm: { recursive: 1 },
    value: {},
    warnings: ["recursive"],
  },
  // instruction files opt-out
  { name: "omitClaudeMd: true", fm: { omitClaudeMd: true }, value: { omitContextFiles: true } },
  { name: 'omitClaudeMd: "true"', fm: { omitClaudeMd: "true" }, value: { omitContextFiles: true } },
  { name: "omitClaudeMd: false keeps them", fm: { omitClaudeMd: false }, value: {} },
  { name: "context: false", fm: { context: false }, value: { omitContextFiles: true } },
  { name: 'context: "false"', fm: { context: "false" }, value: { omitContextFiles: true } },
  { name: "context: true keeps them", fm: { context: true }, value: {} },
  {
    name: "either opt-out is enough",
    fm: { omitClaudeMd: false, context: false },
    value: { omitContextFiles: true },
  },
  {
    name: 'omitClaudeMd: "yes" is dropped with a warning',
    fm: { omitClaudeMd: "yes" },
    value: {},
    warnings: ["omitClaudeMd"],
  },
  {
    name: "context: 0 is dropped with a warning",
    fm: { context: 0 },
    value: {},
    warnings: ["context"],
  },
  // sandbox
  { name: "sandbox: read-only", fm: { sandbox: "read-only" }, value: { sandbox: "read-only" } },
  { name: "sandbox: off", fm: { sandbox: "off" }, value: { sandbox: "off" } },
  {
    name: "sandbox_mode: danger-full-access → off (Codex)",
    fm: { sandbox_mode: "danger-full-access" },
    value: { sandbox: "off" },
  },
  {
    name: "sandbox: readonly is an error naming the accepted modes",
    fm: { sandbox: "readonly" },
    error: {
      field: "sandbox",
      message: /'sandbox' must be one of read-only, workspace-write, off/,
    },
  },
  // MCP server declarations that cannot be used: dropped with a warning naming the field
  { name: "mcpServers: 5", fm: { mcpServers: 5 }, value: {}, warnings: ["mcpServers"] },
  {
    name: "mcpServers: an sse server",
    fm: { mcpServers: [{ fs: { type: "sse", url: "http://127.0.0.1:1/sse" } }] },
    value: {},
    warnings: ["mcpServers[0].fs.type"],
  },
  {
    name: "mcpServers: a name with a space",
    fm: { mcpServers: ["my server"] },
    value: {},
    warnings: ["mcpServers[0]"],
  },
  {
    name: "mcp-servers: a definition without command or url",
    fm: { "mcp-servers": { api: { args: ["x"] } } },
    value: {},
    warnings: ["mcp-servers.api"],
  },
  // unknown keys
  {
    name: "display-only keys are silent",
    fm: { color: "blue", category: "x", display_name: "X", nickname_candidates: ["a"] },
    value: {},
  },
  {
    name: "an unknown key is named with the nearest known key",
    fm: { dissallowedTools: "Bash", "x-custom": [1] },
    value: {},
    warnings: ["dissallowedTools"],
  },
  {
    name: "keys xcsh does not use are listed, not warned",
    fm: { initialPrompt: "hi", hooks: {}, memory: "user", background: true, skills: ["a"] },
    value: { ignoredFields: ["initialPrompt"], skills: ["a"], memory: "user", background: true },
  },
  {
    name: "memory: an unknown scope is dropped with a warning",
    fm: { memory: "team" },
    value: {},
    warnings: ["memory"],
  },
  {
    name: "permissionMode: plan is plan mode",
    fm: { permissionMode: "plan" },
    value: { planMode: true },
  },
  {
    name: "permissionMode: the headless ones change nothing",
    fm: { permissionMode: "acceptEdits" },
    value: {},
  },
  {
    name: "permissionMode: bypassPermissions loosens nothing, and says so",
    fm: { permissionMode: "bypassPermissions" },
    value: {},
    warnings: ["permissionMode"],
  },
  {
    name: "permissionMode: an unknown value",
    fm: { permissionMode: "yolo" },
    value: {},
    warnings: ["permissionMode"],
  },
  {
    name: "effort is the thinking level",
    fm: { effort: "high" },
    value: { thinkingLevel: "high" },
  },
  { name: "effort: max is xhigh", fm: { effort: "max" }, value: { thinkingLevel: "xhigh" } },
  {
    name: "thinkingLevel wins over effort",
    fm: { effort: "high", thinkingLevel: "low" },
    value: { thinkingLevel: "low" },
  },
  { name: "effort: an unknown value", fm: { effort: "huge" }, value: {}, warnings: ["effort"] },
  {
    name: "Gemini sampling: temperature, top_p, top_k",
    fm: { temperature: 0.2, top_p: "0.9", top_k: 40 },
    value: { temperature: 0.2, topP: 0.9, topK: 40 },
  },
  {
    name: "sampling out of range is dropped",
    fm: { temperature: 7, top_k: 0.5 },
    value: {},
    warnings: ["temperature", "top_k"],
  },
  // Codex's model_verbosity: the three values; anything else is dropped with a warning.
  { name: "model_verbosity: low", fm: { model_verbosity: "low" }, value: { verbosity: "low" } },
  { name: "model_verbosity: High", fm: { model_verbosity: " High" }, value: { verbosity: "high" } },
  {
    name: "model_verbosity: an unknown value is dropped",
    fm: { model_verbosity: "loud" },
    value: {},
    warnings: ["model_verbosity"],
  },
  {
    name: "model_verbosity: not a string is dropped",
    fm: { model_verbosity: 2 },
    value: {},
    warnings: ["model_verbosity"],
  },
  { name: "kind: local", fm: { kind: "local" }, value: {} },
  {
    name: "kind: remote reads its card URL",
    fm: { kind: "remote", agent_card_url: "https://x/card" },
    value: { remote: { cardUrl: "https://x/card" } },
  },
  {
    name: "kind: remote reads an inline card and its auth",
    fm: {
      kind: "remote",
      agent_card_json: '{"name":"a"}',
      auth: { type: "http", scheme: "Bearer", token: "$TOKEN" },
    },
    value: {
      remote: {
        cardJson: '{"name":"a"}',
        auth: { type: "http", scheme: "Bearer", token: "$TOKEN" },
      },
    },
  },
  {
    name: "kind: remote without a card is refused",
    fm: { kind: "remote" },
    error: { field: "agent_card_url", message: /needs 'agent_card_url' or 'agent_card_json'/ },
  },
  {
    name: "kind: remote with an unknown auth type is refused",
    fm: { kind: "remote", agent_card_url: "https://x/card", auth: { type: "magic" } },
    error: { field: "auth.type", message: /must be apiKey, http, google-credentials or oauth/ },
  },
  {
    name: "kind: remote with a Bearer scheme and no token is refused",
    fm: {
      kind: "remote",
      agent_card_url: "https://x/card",
      auth: { type: "http", scheme: "Bearer" },
    },
    error: { field: "auth.token", message: /'auth.token' is required/ },
  },
  {
    name: "kind: remote with oauth is listed but cannot run",
    fm: { kind: "remote", agent_card_url: "https://x/card", auth: { type: "oauth" } },
    value: {
      remote: { cardUrl: "https://x/card" },
      notRunnable: "its auth type 'oauth' is not supported by xcsh (it sends apiKey and http " +
        "credentials; google-credentials and oauth are not supported)",
    },
  },
];

describe("parseAgentFields", () => {
  for (const row of fieldRows) {
    test(row.name, () => {
      const r = parseAgentFields({ ...BASE, ...row.fm }, { file: FILE });
      if (row.error) {
        assert.equal(r.ok, false, JSON.stringify(r));
        if (r.ok) return;
        assert.equal(r.error.level, "error");
        assert.equal(r.error.file, FILE);
        assert.equal(r.error.field, row.error.field);
        assert.match(r.error.message, row.error.message);
      } else {
        assert.equal(r.ok, true, JSON.stringify(r));
        if (!r.ok) return;
        assert.deepEqual(r.value, { ...BASE, ...row.value });
      }
      assert.deepEqual(r.warnings.map((w) => w.field), row.warnings ?? []);
      for (const w of r.warnings) {
        assert.equal(w.level, "warning");
        assert.equal(w.file, FILE);
      }
    });
  }

  test("writes: one glob or a list; commas stay in a glob; a bad one refuses the file", () => {
    const one = parseAgentFields({ ...BASE, writes: "src/{a,b}/**" }, { file: FILE });
    assert.ok(one.ok);
    assert.deepEqual(one.value.writes, ["src/{a,b}/**"]);
    const list = parseAgentFields({ ...BASE, writes: ["src/**", " docs/ "] }, { file: FILE });
    assert.ok(list.ok);
    assert.deepEqual(list.value.writes, ["src/**", "docs/"]);
    for (
      const [writes, message] of [
        ["../x/**", /'writes': '\.\.\/x\/\*\*' leaves the project/],
        [["/etc/**"], /is not relative to the project/],
        ["src/[z-a]", /is no valid glob/],
        [[1], /'writes' must be a glob or a list of globs/],
        [[], /a lane needs at least one glob/],
      ] as const
    ) {
      const r = parseAgentFields({ ...BASE, writes }, { file: FILE });
      assert.equal(r.ok, false, JSON.stringify(writes));
      if (r.ok) continue;
      assert.equal(r.error.field, "writes");
      assert.match(r.error.message, message);
    }
  });

  test("the ecosystems' own names are agent names", () => {
    for (
      const name of [
        "code-reviewer",
        "toolkit:code-reviewer",
        "pr_explorer",
        "v1.2",
        "a".repeat(128),
      ]
    ) {
      const r = parseAgentFields({ ...BASE, name }, { file: FILE });
      assert.ok(r.ok, name);
      assert.equal(r.value.name, name);
    }
  });

  test("the thinking-level warning names the value and the accepted levels", () => {
    const r = parseAgentFields({ ...BASE, thinkingLevel: "ultra" }, { file: FILE });
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0].message, /"ultra"/);
    assert.match(r.warnings[0].message, /off, minimal, low, medium, high, xhigh/);
  });

  test("the model_verbosity warning names the file, the field and the value", () => {
    for (
      const [value, shown] of [["loud", 'string "loud"'], [["low"], "a list"], [3, "number 3"]]
    ) {
      const r = parseAgentFields({ ...BASE, model_verbosity: value }, { file: FILE });
      assert.ok(r.ok);
      assert.equal(r.value.verbosity, undefined);
      assert.deepEqual(r.warnings, [{
        level: "warning",
        file: FILE,
        field: "model_verbosity",
        message: `'model_verbosity' must be low, medium or high, not ${shown}; ignored`,
      }]);
    }
  });

  test("submit_result is appended exactly once whatever the input", () => {
    for (const tools of ["read", "read, submit_result", ["submit_result"], "SUBMIT_RESULT, bash"]) {
      const r = parseAgentFields({ ...BASE, tools }, { file: FILE });
      assert.ok(r.ok);
      assert.equal(r.value.tools?.filter((t) => t === "submit_result").length, 1, String(tools));
    }
  });
});

describe("splitCsv and parseThinkingLevel", () => {
  const csv: [string, string[]][] = [
    ["a,b", ["a", "b"]],
    [" a , , b ,", ["a", "b"]],
    ["", []],
  ];
  for (const [input, expect] of csv) {
    test(`splitCsv(${JSON.stringify(input)})`, () => assert.deepEqual(splitCsv(input), expect));
  }
  const levels: [unknown, string | undefined][] = [
    ["Medium", "medium"],
    ["none", undefined],
    [2, undefined],
    [undefined, undefined],
  ];
  for (const [input, expect] of levels) {
    test(`parseThinkingLevel(${JSON.stringify(input)})`, () => {
      assert.equal(parseThinkingLevel(input), expect);
    });
  }
});

const ORIGIN: AgentOrigin = { file: FILE, source: "user", family: "claude" };

const MiB = 1024 * 1024;

function bomb(): string {
  const lines = ["name: bomb", "description: d", 'a: &a ["lol","lol","lol","lol","lol"]'];
  let prev = "a";
  for (let i = 1; i <= 9; i++) {
    lines.push(`l${i}: &l${i} [${Array(9).fill(`*${prev}`).join(",")}]`);
    prev = `l${i}`;
  }
  return `---\n${lines.join("\n")}\n---\nBody`;
}

interface FileRow {
  name: string;
  text: string;
  /** Expected fields of the agent (subset) when it loads. */
  agent?: Record<string, unknown>;
  /** Regex for the error message when it does not. */
  error?: RegExp;
  /** Regexes for the warnings at level warn, in order. */
  warnings?: RegExp[];
}

const fileRows: FileRow[] = [
  {
    name: "a complete Claude agent",
    text: [
      "---",
      "name: reviewer2",
      'description: "Reviews code"',
      "tools: Read, Grep, Glob",
      "model: opus",
      "color: red",
      "---",
      "",
      "You review code.",
      "",
    ].join("\n"),
    agent: {
      name: "reviewer2",
      description: "Reviews code",
      tools: ["read", "grep", "find", "submit_result"],
      model: ["opus"],
      systemPrompt: "You review code.",
      source: "user",
      family: "claude",
      filePath: FILE,
    },
  },
  {
    name: "CRLF and BOM",
    text: "\uFEFF---\r\nname: crlf\r\ndescription: d\r\n---\r\nLine 1\r\nLine 2\r\n",
    agent: { name: "crlf", description: "d", systemPrompt: "Line 1\nLine 2" },
  },
  {
    name: "unquoted description with ': ' loads through the fallback silently",
    text: [
      "---",
      "name: helper",
      "description: Use this agent when: the user asks for help. Examples: none",
      "tools: Read, Grep",
      "maxTurns: 5",
      "recursive: true",
      "thinking-level: High",
      "---",
      "Body",
    ].join("\n"),
    agent: {
      name: "helper",
      description: "Use this agent when: the user asks for help. Examples: none",
      tools: ["read", "grep", "submit_result"],
      maxTurns: 5,
      recursive: true,
      thinkingLevel: "high",
      systemPrompt: "Body",
    },
    warnings: [],
  },
  {
    name: "no frontmatter",
    text: "# Just Markdown\n",
    error: /no frontmatter/,
  },
  {
    name: "unterminated ---",
    text: "---\nname: x\ndescription: y\nbody\n",
    error: /not closed/,
  },
  {
    name: "name: 123",
    text: "---\nname: 123\ndescription: d\n---\n",
    error: /'name' must be a non-empty string/,
  },
  {
    name: "empty name",
    text: '---\nname: ""\ndescription: d\n---\n',
    error: /'name' must be a non-empty string/,
  },
  {
    name: "tools: 42",
    text: "---\nname: x\ndescription: d\ntools: 42\n---\n",
    error: /'tools' must be/,
  },
  {
    name: "output as invalid JSON names output",
    text: "---\nname: x\ndescription: d\noutput: '{\"type\": '\n---\n",
    error: /'output' is a string but not valid JSON/,
  },
  {
    name: "output as a JSON string",
    text: `---\nname: x\ndescription: d\noutput: '{"type":"object"}'\n---\n`,
    agent: { output: { type: "object" } },
  },
  {
    name: "output as a YAML object",
    text: "---\nname: x\ndescription: d\noutput:\n  properties:\n    a: { type: string }\n---\n",
    agent: { output: { properties: { a: { type: "string" } } } },
  },
  {
    name: "thinkingLevel: ultra loads without it, with a warning",
    text: "---\nname: x\ndescription: d\nthinkingLevel: ultra\n---\n",
    agent: { name: "x", thinkingLevel: undefined },
    warnings: [/unknown thinking level "ultra"/],
  },
  {
    name: "Gemini agent with timeout_mins and max_turns",
    text: [
      "---",
      "name: gem",
      "description: d",
      "tools: [read_file, run_shell_command]",
      "timeout_mins: 2",
      "max_turns: 9",
      "---",
      "",
    ].join("\n"),
    agent: { tools: ["read", "bash", "submit_result"], timeout: 120, maxTurns: 9 },
  },
  {
    name: "alias bomb: loads through the fallback, the aliases never expanded",
    text: bomb(),
    agent: { name: "bomb", description: "d", systemPrompt: "Body" },
    // The anchors' keys are no agent keys: one more warning names them.
    warnings: [/alias/i, /unknown keys 'a', 'l1', 'l2', 'l3', 'l4', 5 more ignored/],
  },
  {
    name: "5 MiB body is kept",
    text: `---\nname: big\ndescription: d\n---\n${"b".repeat(5 * MiB)}`,
    agent: { name: "big", systemPrompt: "b".repeat(5 * MiB) },
  },
  {
    name: "5 MiB frontmatter block is refused",
    text: `---\nname: big\ndescription: ${"d".repeat(5 * MiB)}\n---\nBody`,
    error: /byte limit/,
  },
];

describe("parseAgent (level warn)", () => {
  for (const row of fileRows) {
    test(row.name, () => {
      const r = parseAgent(row.text, ORIGIN, "warn");
      if (row.error) {
        assert.equal(r.ok, false);
        if (r.ok) return;
        assert.equal(r.error.file, FILE);
        assert.match(r.error.message, row.error);
      } else {
        assert.equal(r.ok, true, JSON.stringify(!r.ok && r.error));
        if (!r.ok) return;
        for (const [k, v] of Object.entries(row.agent ?? {})) {
          assert.deepEqual((r.value as unknown as Record<string, unknown>)[k], v, k);
        }
        assert.equal(r.value.source, "user");
        assert.equal(r.value.family, "claude");
        const expected = row.warnings ?? [];
        assert.equal(r.warnings.length, expected.length, JSON.stringify(r.warnings));
        r.warnings.forEach((w, i) => {
          assert.equal(w.file, FILE);
          assert.match(w.message, expected[i]);
        });
      }
    });
  }
});

describe("parseAgent (level off)", () => {
  for (const row of fileRows) {
    test(`${row.name}: no warnings`, () => {
      const r = parseAgent(row.text, ORIGIN, "off");
      assert.equal(r.ok, row.error === undefined);
      assert.deepEqual(r.warnings, []);
    });
  }

  test("a failing file reports no warnings either", () => {
    const text = "---\nname: x\ndescription: d\nthinkingLevel: ultra\noutput: '{'\n---\n";
    const warn = parseAgent(text, ORIGIN, "warn");
    assert.equal(warn.ok, false);
    assert.equal(warn.warnings.length, 1, "level warn does report the thinking level");
    const off = parseAgent(text, ORIGIN, "off");
    assert.equal(off.ok, false);
    assert.deepEqual(off.warnings, []);
  });
});

describe("parseAgent (level fatal)", () => {
  for (const row of fileRows) {
    if (row.error || row.warnings) {
      test(`${row.name}: throws AgentParsingError naming the file`, () => {
        assert.throws(
          () => parseAgent(row.text, ORIGIN, "fatal"),
          (err: unknown) => {
            assert.ok(err instanceof AgentParsingError, `${err}`);
            assert.equal(err.file, FILE);
            assert.ok(err.message.startsWith(`${FILE}: `), err.message);
            return true;
          },
        );
      });
    } else {
      test(`${row.name}: loads`, () => {
        const r = parseAgent(row.text, ORIGIN, "fatal");
        assert.equal(r.ok, true);
        assert.deepEqual(r.warnings, []);
      });
    }
  }

  test("the error names the field", () => {
    assert.throws(
      () => parseAgent("---\nname: x\ndescription: d\ntools: 42\n---\n", ORIGIN, "fatal"),
      (err: unknown) => err instanceof AgentParsingError && err.field === "tools",
    );
  });
});

test("parseAgent copies the origin's plugin id", () => {
  const r = parseAgent("---\nname: p\ndescription: d\n---\nB", {
    file: "/plugins/x/agents/p.md",
    source: "user",
    family: "plugin",
    plugin: "x@market",
  }, "warn");
  assert.ok(r.ok);
  assert.equal(r.value.plugin, "x@market");
  assert.equal(r.value.family, "plugin");
  assert.equal(r.value.filePath, "/plugins/x/agents/p.md");
});

describe("an empty tools list never loosens a Claude Code file", () => {
  for (const family of ["claude", "plugin"] as const) {
    for (const tools of [[], ""]) {
      test(`${family}: tools: ${JSON.stringify(tools)} gives only submit_result, with a note`, () => {
        const r = parseAgentFields({ name: "a", description: "d", tools }, {
          file: "a.md",
          family,
        });
        assert.ok(r.ok);
        assert.deepEqual(r.value.tools, ["submit_result"]);
        assert.match(r.warnings[0].message, /in a Claude Code file means no tools/);
      });
    }
  }
  for (const family of ["xcsh", "codex", "gemini"] as const) {
    test(`${family}: tools: [] is absent (every tool), with a note`, () => {
      const r = parseAgentFields({ name: "a", description: "d", tools: [] }, {
        file: "a.md",
        family,
      });
      assert.ok(r.ok);
      assert.equal(r.value.tools, undefined);
      assert.match(r.warnings[0].message, /gives the agent every tool/);
    });
  }
});
