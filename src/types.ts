/**
 * The shared vocabulary of xcsh: what an agent definition is, where it came
 * from, the diagnostics that parsing and discovery produce, the config, and
 * the tasks and results every side of a run shares. The parent–child
 * protocol's own types live beside their code in `protocol/`: the envelope in
 * `envelope.ts`, the events in `events.ts`, the limits in `limits.ts` and the
 * prompt context in `prompt-context.ts`.
 *
 * @module
 */

/** Where an agent definition was found, project, user or built in. */
export type AgentSource = "bundled" | "user" | "project";

/** The ecosystem a definition belongs to (display only; precedence uses order). */
export type AgentFamily = "xcsh" | "claude" | "codex" | "gemini" | "plugin" | "bundled";

/** Reasoning effort levels, from none to the most the provider offers. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ThinkingLevel = typeof THINKING_LEVELS[number];

/** How long an OpenAI model's answers run (Codex's `model_verbosity`), shortest first. */
export const VERBOSITY_LEVELS = ["low", "medium", "high"] as const;
export type Verbosity = typeof VERBOSITY_LEVELS[number];

/**
 * A normalised agent definition, whichever file format it came from.
 *
 * `tools` absent means "all tools"; `spawns` absent means "may spawn nothing"
 * (or, at the top level, whatever the spawn policy allows).
 */
export interface AgentDefinition {
  name: string;
  description: string;
  /** The Markdown body (or Codex `developer_instructions`). */
  systemPrompt: string;
  /** Canonical tool names; `submit_result` is always present when set. */
  tools?: string[];
  /** `"*"` for any agent, or the list of agent names this one may spawn. */
  spawns?: "*" | string[];
  /** Ordered model patterns; the first that resolves wins. */
  model?: string[];
  thinkingLevel?: ThinkingLevel;
  /** Output schema (JTD or JSON Schema), passed through opaquely. */
  output?: unknown;
  maxTurns?: number;
  /** Seconds. */
  timeout?: number;
  /** When true the child may spawn an agent of its own name. */
  recursive?: boolean;
  /** How the agent's `bash` commands are sandboxed (frontmatter `sandbox`). */
  sandbox?: SandboxMode;
  /** The named launcher (`task.launchers`) its children start through (frontmatter `launcher`). */
  launcher?: string;
  source: AgentSource;
  filePath?: string;
  family: AgentFamily;
  /** Claude plugin id (`name@marketplace`) for plugin agents. */
  plugin?: string;
  /** Tool names the file asked for that mean no xcsh tool (they grant nothing). */
  unknownTools?: string[];
  /**
   * True when the agent's prompt gets no instruction files (`omitClaudeMd: true`
   * or `context: false` in its frontmatter); the environment block stays.
   */
  omitContextFiles?: boolean;
  /** `worktree`: every task of this agent runs in a fresh git worktree. */
  isolation?: Isolation;
  /**
   * `writes:` the write lane of its tasks: globs relative to the project
   * root; the file tools refuse any other path (see `fs/write-lane.ts`).
   */
  writes?: string[];
  /**
   * MCP servers the file declares (`mcpServers:` / `mcp-servers:`): a name
   * of a configured server, or a name with an inline definition.
   */
  mcpServers?: McpServerRef[];
  /**
   * Tools taken away after everything else (`disallowedTools`): canonical
   * names and MCP patterns (`mcp__srv__*`); `*` for every MCP tool is
   * `mcp__*`.
   */
  disallowedTools?: string[];
  /** Agents `disallowedTools: Agent(x)` keeps this one from spawning. */
  disallowedAgents?: string[];
  /** Permission rules from `tools` (allow) and `disallowedTools` (deny). */
  permissions?: PermissionRules;
  /** `permissionMode: plan`: the agent always runs in plan mode. */
  planMode?: boolean;
  /** Sampling temperature the file asks for (Gemini `temperature`, …). */
  temperature?: number;
  /** Nucleus sampling (`top_p`). */
  topP?: number;
  /** Top-k sampling (`top_k`). */
  topK?: number;
  /** Codex's `model_verbosity`: how long the answers run, where the model takes it. */
  verbosity?: Verbosity;
  /**
   * Why this agent cannot run (a remote agent's unsupported auth, …):
   * resolving it is refused with this reason.
   */
  notRunnable?: string;
  /** `kind: remote`: the agent runs behind an A2A endpoint (see {@link RemoteAgent}). */
  remote?: RemoteAgent;
  /** `background: true`: `xcsh run` detaches as with `--background`. */
  background?: boolean;
  /** `memory:`: the agent keeps a memory folder of this scope (Claude Code's layout). */
  memory?: "user" | "project" | "local";
  /** Command hooks (`hooks:`), Claude Code's semantics for a subagent's events. */
  hooks?: AgentHooks;
  /** Skills whose instructions are preloaded into the prompt (`skills:`). */
  skills?: string[];
  /** Keys of the file xcsh does not use (named once in a run's summary). */
  ignoredFields?: string[];
  /** Acceptance checks the parent runs after the child submits (`accept:`). */
  accept?: AcceptCheck[];
  /** Rounds a child is sent back for failed checks (`acceptRetries:`, default 1). */
  acceptRetries?: number;
}

/**
 * A Gemini CLI remote agent (`kind: remote`): its A2A Agent Card, by URL
 * (`agent_card_url`) or inline (`agent_card_json`), and the credentials it
 * is sent (`auth`), whose values are `$VAR` references, `!command`s or
 * literals as the file wrote them (resolved when the agent runs).
 */
export interface RemoteAgent {
  cardUrl?: string;
  /** The inline card: a JSON string, or an object. */
  cardJson?: unknown;
  auth?: RemoteAuth;
}

/** The auth types xcsh sends: an API key header, or an HTTP `Authorization` scheme. */
export type RemoteAuth =
  | { type: "apiKey"; key: string; name?: string }
  | {
    type: "http";
    scheme: string;
    token?: string;
    username?: string;
    password?: string;
    value?: string;
  };

/**
 * One acceptance check (`runner/acceptance/`): a command that must exit 0,
 * a file that must exist, the changed files' scope, or a value of the
 * structured result. `name` is what the child and the result are told.
 */
export type AcceptCheck =
  | { kind: "cmd"; name: string; cmd: string; timeout?: number }
  | { kind: "file"; name: string; file: string; matches?: string; schema?: unknown }
  | { kind: "scope"; name: string; globs: string[]; changed?: boolean }
  | { kind: "result"; name: string; pointer: string; equals?: unknown; matches?: string };

/** How one acceptance check went. */
export interface CheckOutcome {
  name: string;
  ok: boolean;
  /** The tail of its output, or why it failed. */
  output: string;
  /** True when it was not run (an untrusted project's command). */
  skipped?: boolean;
}

/**
 * The events a task's hooks run on (`SubagentStop` is read as `Stop`: a task
 * is a subagent, and a hook reads `SubagentStop`).
 */
export type HookEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "Stop"
  | "SubagentStart"
  | "UserPromptSubmit"
  | "SessionStart"
  | "PreCompact";

/** Hooks of one event: those of a matching group run, in order. */
export interface HookGroup {
  /** Where the group was written when not the agent's file (`config`), for warnings. */
  from?: string;
  /** A tool name or regular expression over Claude Code's tool names; absent: every tool. */
  matcher?: string;
  hooks: { command: string; timeout?: number }[];
}

export type AgentHooks = Partial<Record<HookEvent, HookGroup[]>>;

/**
 * One permission rule in Claude Code's syntax (`Bash(git status:*)`,
 * `Read(./src/**)`, `Edit(docs/**)`, `WebFetch(domain:example.com)`).
 */
export interface PermissionRule {
  /** As written in the file. */
  text: string;
  /** What it is about: commands, read paths, edited paths, or fetched domains. */
  family: "bash" | "read" | "edit" | "web_fetch";
  /** Allow rules: the tool the rule grants (`read`, `edit`, `write`, …). */
  tool?: string;
  /** The rule's specifier: a command pattern, a path pattern or a domain. */
  pattern: string;
}

/**
 * Allow rules restrict a tool granted only through them (a tool also listed
 * by its bare name has none); deny rules refuse matching calls of every tool
 * of their family.
 */
export interface PermissionRules {
  allow: PermissionRule[];
  deny: PermissionRule[];
}

/**
 * An Agent Skill (`<folder>/SKILL.md`): what a child is told about it, and
 * where to load it from.
 */
export interface SkillDefinition {
  name: string;
  description: string;
  /** The `SKILL.md` file (absolute). */
  filePath: string;
  source: "user" | "project";
  /** Where it was found: an anchor's folder, `.agents`, or a Claude plugin. */
  family: AgentFamily | "agents";
  plugin?: string;
  license?: string;
  compatibility?: string;
  /** `metadata`: a mapping, kept as written (nested values too). */
  metadata?: Record<string, unknown>;
  /** `allowed-tools`: informative only, a skill grants no tool. */
  allowedTools?: string[];
  /** `disable-model-invocation: true`: not offered to the model, only preloaded by `skills:`. */
  disableModelInvocation?: boolean;
  /** Frontmatter keys outside the specification and Claude Code's (named by `skills check`). */
  unknownKeys?: string[];
}

/** A skill as a child receives it. */
export interface SkillRef {
  name: string;
  description: string;
  filePath: string;
}

/**
 * Which of a server's tools are registered (Codex's `enabled_tools` and
 * `disabled_tools`): only the enabled ones when listed, never the disabled.
 */
export interface McpToolFilter {
  enabledTools?: string[];
  disabledTools?: string[];
}

/** How to reach one MCP server: a command speaking stdio, or an HTTP endpoint. */
export type McpServerDef =
  & (
    | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
    | { type: "http"; url: string; headers: Record<string, string> }
  )
  & McpToolFilter;

/** A server an agent file declares: by name, or by name with its definition. */
export interface McpServerRef {
  name: string;
  definition?: McpServerDef;
}

/** `search:` in config: the provider behind the `web_search` tool. */
export interface SearchConfig {
  provider: "brave" | "tavily";
  /** The variable holding the key (default BRAVE_API_KEY / TAVILY_API_KEY). */
  apiKeyEnv: string;
  /** The API's base URL, without a trailing slash. */
  baseURL: string;
}

/** Where a task works: the caller's checkout, or a fresh git worktree of it. */
export type Isolation = "none" | "worktree";

/** Parse strictness: `fatal` throws, `warn` reports and falls back, `off` is silent. */
export type ParseLevel = "fatal" | "warn" | "off";

/** A problem found in an input, with enough context for a user to act on it. */
export interface Diagnostic {
  level: "warning" | "error";
  /** The file the problem is in, when there is one. */
  file?: string;
  /** The frontmatter key, config key or flag involved, when there is one. */
  field?: string;
  message: string;
}

/** Result of parsing: the value, or an error, plus any warnings on the way. */
export type Parsed<T> =
  | { ok: true; value: T; warnings: Diagnostic[] }
  | { ok: false; error: Diagnostic; warnings: Diagnostic[] };

export interface TokenUsage {
  /** Input tokens, the cached ones included. */
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheRead?: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWrite?: number;
}

/** One task of a `task` call (CLI `--task`, MCP, or the child's `task` tool). */
export interface TaskItem {
  id: string;
  description?: string;
  assignment: string;
  /** The id of a session to continue: its agent, model, folder and conversation. */
  resume?: string;
  /** This task's write lane (globs relative to the project root); absent: the agent's. */
  writes?: string[];
  /** Acceptance checks of this task alone, after the agent's and the call's. */
  accept?: AcceptCheck[];
}

/** A request to run one agent on one or more assignments. */
export interface TaskRequest {
  agent: string;
  tasks: TaskItem[];
  /** This call's budget (MCP); `unpricedFree` counts a model with no price as free. */
  budget?: BudgetSetting & { unpricedFree?: boolean };
  context?: string;
  /** Call-level output schema (used when the agent has none). */
  schema?: unknown;
  planMode?: boolean;
  /** `--model` override. */
  model?: string;
  /** Per-task timeout override, seconds. */
  timeout?: number;
  /** `--max-turns`: model calls a task may make (overrides the agent's `maxTurns`). */
  maxTurns?: number;
  /** `--sandbox` override. */
  sandbox?: SandboxMode;
  /** Overrides the agent's `isolation`. */
  isolation?: Isolation;
  /** A named launcher (`task.launchers`, or `local`) for this call's children. */
  launcher?: string;
  /** Acceptance checks of this call, run after the agent's own. */
  accept?: AcceptCheck[];
  /** Overrides the agent's `acceptRetries`. */
  acceptRetries?: number;
}

/** A kept worktree: where the task's changes are. */
export interface WorktreeInfo {
  path: string;
  branch: string;
  /** Changed files, relative to the worktree (`git status` paths). */
  changed: string[];
}

/** What became of one task. */
export interface TaskResult {
  id: string;
  agent: string;
  /**
   * `max_turns`: the task reached its turn limit without a result;
   * `rejected`: its acceptance checks still failed after the allowed rounds;
   * `stopped`: a hook answered `continue: false` (`error` is its reason).
   */
  status: "ok" | "error" | "cancelled" | "max_turns" | "rejected" | "stopped" | "budget";
  data?: unknown;
  text?: string;
  error?: string;
  usage?: TokenUsage;
  /** The file holding the whole result when an MCP answer carries it cut (`mcp/server.ts`). */
  artifact?: string;
  durationMs?: number;
  /** The session holding this task's conversation (absent when it could not be kept). */
  session?: string;
  /** Present when the task ran isolated and left changes. */
  worktree?: WorktreeInfo;
  /** The `provider/model` the task ran on (absent when no child started). */
  model?: string;
  /** What the call or the agent asked for (`--model`, the agent's `model` list); null: nothing. */
  requestedModel?: string | null;
  /** Set when the model is not the one asked for: why. */
  fallback?: { reason: string };
  /** Model calls made. */
  turns?: number;
  /** What the calls cost at list prices, in US dollars (0 for local models); null: unknown. */
  costUSD?: number | null;
  /** Why `costUSD` is null. */
  costNote?: string;
  /** Each acceptance check of the last round (absent: the task had none). */
  checks?: CheckOutcome[];
  /** False when a check was skipped (an untrusted project's commands): not verified. */
  verified?: boolean;
  /** Rounds the child was sent back for failed checks. */
  acceptRounds?: number;
}

/** `providers.<name>` in config. */
export interface ProviderConfig {
  type: "openai-compatible" | "anthropic" | "openai" | "google";
  baseURL?: string;
  apiKeyEnv?: string;
  /** The models' context window in tokens: one for all, or by model name (`*`: the others). */
  contextWindow?: number | Record<string, number>;
  /** Limits this machine's requests to the provider keeps to before any 429 (per process). */
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  maxConcurrentRequests?: number;
}

/** A launcher (`config/launchers.ts` reads it): its words, and whether its far side is a shell. */
export interface LauncherEntry {
  /** The program and its arguments, placeholders unfilled; `[]`: start the child here. */
  args: string[];
  /** The far side joins the words into a command for a shell (ssh): every value is quoted. */
  shell: boolean;
}

/** A run's limits as set (`config/budget-setting.ts`); each optional. `deadline` is in seconds. */
export interface BudgetSetting {
  usd?: number;
  tokens?: number;
  requests?: number;
  deadline?: number;
}

/** The merged configuration (defaults applied). */
export interface XcshConfig {
  task: {
    maxRecursionDepth: number;
    maxConcurrency: number;
    /** Seconds. */
    timeout: number;
    /** The run's budget; every config file can only lower each limit. */
    budget?: BudgetSetting;
    disabledAgents: string[];
    agentModelOverrides: Record<string, string>;
    /** Absent: the default (`workspace-write` where bubblewrap works). */
    sandbox?: SandboxMode;
    /**
     * False: sandboxed commands get no network; true: any public host,
     * through xcsh's proxy; a reach: what it says (see
     * `src/sandbox/net-policy.ts`).
     */
    sandboxNetwork: boolean | NetReach;
    /** Folders the file tools and sandboxed commands may use besides the project. */
    additionalDirectories: string[];
    /** Days a session is kept after its last change. */
    sessionRetentionDays: number;
    /**
     * Variables commands keep though the default environment policy drops
     * them (names, or prefixes ending in `*`; see
     * `src/sandbox/command-env.ts`). A project config only narrows the
     * user's list.
     */
    allowEnv: string[];
    /**
     * Hosts (`name`, `*.domain`) and addresses or CIDR ranges `web_fetch`
     * may reach although they are not public. Absent: none.
     */
    webFetchAllow?: string[];
    /** What goes before every top-level child command: a launcher, or a name in `launchers`. */
    launcher?: LauncherEntry | string;
    /** Named launchers (`args: []`: start the child locally). */
    launchers?: Record<string, LauncherEntry>;
    /** The xcsh a launcher's far side runs; absent: this executable. */
    launcherBinary?: string;
  };
  models: {
    default?: string;
    roles: Record<string, string>;
    /** Remaps Claude's `sonnet`/`opus`/`haiku`. */
    aliases: Record<string, string>;
  };
  providers: Record<string, ProviderConfig>;
  /** MCP servers by name (`mcpServers` in config). */
  mcpServers: Record<string, McpServerDef>;
  /** The web search provider; absent: no `web_search` tool. */
  search?: SearchConfig;
  /** Hooks every task runs (`hooks:` in config; a project file's only once trusted). */
  hooks?: AgentHooks;
}

/**
 * What sandboxed commands with network reach (`task.sandboxNetwork`; the
 * rule is `src/sandbox/net-policy.ts`'s).
 */
export interface NetReach {
  /** True: the host's own network namespace, no proxy (`sandboxNetwork: host`). */
  host?: boolean;
  /** Allow lists (hosts, `*.domains`, addresses, ranges): every one must open a host. */
  allow?: string[][];
  /** True: only public addresses, whatever the lists open. */
  publicOnly?: boolean;
}

/** How `bash` commands are confined (on Linux through bubblewrap). */
export const SANDBOX_MODES = ["read-only", "workspace-write", "off"] as const;
export type SandboxMode = typeof SANDBOX_MODES[number];

/** The sandbox a child applies to its `bash` commands. */
export interface SandboxSetting {
  mode: SandboxMode;
  /** False: commands get no network (`task.sandboxNetwork: false`). */
  network: boolean;
  /** With network: what commands reach (absent: any public host, through the proxy). */
  reach?: NetReach;
  /**
   * True when the user asked for the mode (`--sandbox`, `task.sandbox`): a
   * sandbox that cannot start fails the task. False for the default and an
   * agent's own choice, which then run commands unsandboxed.
   */
  required: boolean;
}
