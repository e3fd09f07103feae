/**
 * Turns frontmatter keys into the fields of an {@link AgentDefinition}.
 *
 * Decides every rule of an agent file: which keys are required, the shapes
 * each optional key accepts (strings, CSV, arrays, numbers given as strings by
 * the fallback parser), the aliases other ecosystems use for the same key, and
 * which problems make the file invalid (an error) versus drop one field (a
 * warning). Pure: no I/O.
 *
 * @example
 * ```ts
 * const r = parseAgentFields({ name: "scout", description: "Looks", tools: "Read, Grep" }, { file: "a.md" });
 * // r.ok && r.value.tools → ["read", "grep", "submit_result"]
 * ```
 *
 * @module
 */
import { REMOTE_KEYS, remoteDescription, remoteFields } from "./remote-fields.ts";
import {
  type Frontmatter,
  FrontmatterError,
  type FrontmatterStatus,
  parseFrontmatter,
} from "../formats/frontmatter.ts";
import { isNeedsParser, type NeedsParser } from "../formats/full-parsers.ts";
import { fieldNotes } from "./field-catalogue.ts";
import { parseHooks } from "./hook-config.ts";
import { parseAcceptList, parseAcceptRetries } from "./accept-checks.ts";
import { checkMcpDeclarations } from "./mcp-definition.ts";
import { readToolEntries, splitToolList, type ToolEntries } from "./tool-entries.ts";
import { invisibleIn, showInvisible } from "../text/clean-text.ts";
import { agentNameProblem, isAgentName } from "./agent-name.ts";
import { parseSandboxMode, SANDBOX_CHOICES } from "../sandbox/mode.ts";
import { laneProblem } from "../fs/write-lane.ts";
import {
  type AgentDefinition,
  type AgentFamily,
  type AgentSource,
  type Diagnostic,
  type Parsed,
  type ParseLevel,
  THINKING_LEVELS,
  type ThinkingLevel,
  type Verbosity,
  VERBOSITY_LEVELS,
} from "../types.ts";

/**
 * Every frontmatter key {@link parseAgentFields} reads, in all its
 * spellings (the remote ones `remote-fields.ts` reads with them): `xcsh
 * agents check` calls none of them unknown or not used
 * (`field-catalogue.ts`). A key the reader starts reading goes here too;
 * a test checks the two agree.
 */
export const HONOURED_FIELDS: readonly string[] = [
  "name",
  "description",
  "tools",
  "disallowedTools",
  "disallowed_tools",
  "spawns",
  "model",
  "thinkingLevel",
  "thinking-level",
  "thinking_level",
  "thinking",
  "effort",
  "output",
  "maxTurns",
  "max_turns",
  "max-turns",
  "timeout",
  "timeout_mins",
  "timeout-mins",
  "sandbox",
  "sandbox_mode",
  "mcpServers",
  "mcp-servers",
  "mcp_servers",
  "recursive",
  "omitClaudeMd",
  "context",
  "isolation",
  "writes",
  "launcher",
  "permissionMode",
  "kind",
  ...REMOTE_KEYS,
  "temperature",
  "top_p",
  "top_k",
  "model_verbosity",
  "skills",
  "hooks",
  "accept",
  "acceptRetries",
  "memory",
  "background",
];

/** The parsed fields of an agent, before its origin and prompt are attached. */
export type AgentFields = Omit<
  AgentDefinition,
  "systemPrompt" | "source" | "filePath" | "family" | "plugin"
>;

/** Raised for an invalid agent file where the caller asked for exceptions. */
export class AgentParsingError extends Error {
  constructor(readonly file: string, readonly reason: string, readonly field?: string) {
    super(`${file}: ${reason}`);
    this.name = "AgentParsingError";
  }
}

/** Splits a comma-separated string into trimmed, non-empty parts. */
export function splitCsv(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

type ListResult = { ok: true; list: string[] | undefined } | { ok: false; reason: string };

/** Reads a CSV string or an array of strings; empty means absent. */
function readList(value: unknown, key: string): ListResult {
  if (value === undefined || value === null) return { ok: true, list: undefined };
  let list: string[];
  if (typeof value === "string") list = splitCsv(value);
  else if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === "string")) {
      return {
        ok: false,
        reason: `'${key}' must be a comma-separated string or a list of strings`,
      };
    }
    list = value.map((v) => v.trim()).filter((v) => v !== "");
  } else {
    return {
      ok: false,
      reason: `'${key}' must be a comma-separated string or a list of strings, not ${
        describe(value)
      }`,
    };
  }
  return { ok: true, list: list.length === 0 ? undefined : list };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The first of `keys` present in `fm`, with the key that held it. */
function pick(fm: Record<string, unknown>, keys: readonly string[]): [string, unknown] | undefined {
  for (const k of keys) if (fm[k] !== undefined && fm[k] !== null) return [k, fm[k]];
  return undefined;
}

/** A positive number from a number or numeric string, else `undefined`. */
function positiveNumber(value: unknown): number | undefined {
  const n = typeof value === "number"
    ? value
    : typeof value === "string" && value.trim() !== ""
    ? Number(value)
    : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Parses a thinking level name, case-insensitively. */
export function parseThinkingLevel(value: unknown): ThinkingLevel | undefined {
  if (typeof value !== "string") return undefined;
  const lower = value.trim().toLowerCase();
  return (THINKING_LEVELS as readonly string[]).includes(lower)
    ? lower as ThinkingLevel
    : undefined;
}

export interface FieldContext {
  /** Named in every diagnostic. */
  file: string;
  /** The family of the file: an empty `tools` means no tools in Claude Code's (and plugins'). */
  family?: AgentFamily;
}

/**
 * Validates and normalises the frontmatter keys of one agent.
 *
 * Errors (the agent is invalid): missing or non-string `name`/`description`,
 * a name outside the agent-name rule (`agent-name.ts`: letters, digits,
 * `.`, `_`, `:`, `-`),
 * `tools`/`spawns`/`model` of the wrong type,
 * an `output` string that is not JSON, an unknown `sandbox` mode (an agent
 * must never run looser than its file says). Warnings (the field is dropped):
 * an unknown thinking level, a non-positive `maxTurns`/`timeout`, a
 * `recursive`, `omitClaudeMd` or `context` that is not a boolean, an entry
 * of `spawns` no agent could be named (that entry). `omitClaudeMd: true` or
 * `context: false` keeps the instruction files out of the agent's prompt.
 * A `model_verbosity` other than low, medium or high is a warning too.
 */
export function parseAgentFields(
  fm: Record<string, unknown>,
  ctx: FieldContext,
): Parsed<AgentFields> {
  const warnings: Diagnostic[] = [];
  const fail = (field: string, message: string): Parsed<AgentFields> => ({
    ok: false,
    error: { level: "error", file: ctx.file, field, message },
    warnings,
  });
  const warn = (field: string, message: string) =>
    warnings.push({ level: "warning", file: ctx.file, field, message });

  const requiredString = (key: "name" | "description"): string | Parsed<AgentFields> => {
    const v = fm[key];
    if (v === undefined || v === null) return fail(key, `missing required field '${key}'`);
    if (typeof v !== "string" || v.trim() === "") {
      return fail(key, `'${key}' must be a non-empty string, not ${describe(v)}`);
    }
    return v.trim();
  };
  const name = requiredString("name");
  if (typeof name !== "string") return name;
  const hidden = invisibleIn(name);
  if (hidden) {
    return fail(
      "name",
      `'name' contains an invisible or control character (${hidden}): "${showInvisible(name)}"`,
    );
  }
  const badName = agentNameProblem(name);
  if (badName) return fail("name", badName);
  // A remote agent (Gemini CLI) may leave its description to its card.
  const remoteKind = fm.kind === "remote";
  const remote = remoteKind ? remoteFields(fm) : undefined;
  if (remote && !remote.ok) return fail(remote.field, remote.message);
  const description = remote?.ok && (fm.description === undefined || fm.description === null)
    ? remoteDescription(remote.remote)
    : requiredString("description");
  if (typeof description !== "string") return description;

  const fields: AgentFields = { name, description };

  const tools = readToolField(fm, "tools");
  if (!tools.ok) return fail("tools", tools.reason);
  const emptyTools = !tools.entries && fm.tools !== undefined && fm.tools !== null;
  if (emptyTools && (ctx.family === "claude" || ctx.family === "plugin")) {
    // Claude Code reads an empty list as no tools: a restriction never loosens.
    fields.tools = ["submit_result"];
    warn(
      "tools",
      "'tools' is empty, which in a Claude Code file means no tools: the agent gets only " +
        "submit_result (leave 'tools' out to give it every tool)",
    );
  } else if (emptyTools) {
    warn(
      "tools",
      "'tools' is empty, which gives the agent every tool: list the ones it needs " +
        "(e.g. tools: Read, Grep), or leave 'tools' out",
    );
  }
  if (tools.entries && !tools.entries.all) {
    const known = [...tools.entries.names];
    if (!known.includes("submit_result")) known.push("submit_result");
    fields.tools = known;
    if (tools.entries.unknown.length > 0) fields.unknownTools = tools.entries.unknown;
    const bare = tools.entries.bare;
    const allow = tools.entries.rules.filter((r) => !bare.includes(r.tool ?? ""));
    if (allow.length > 0) fields.permissions = { allow, deny: [] };
  } else if (tools.entries?.unknown.length) fields.unknownTools = tools.entries.unknown;

  const denied = readToolField(fm, "disallowedTools", ["disallowedTools", "disallowed_tools"]);
  if (!denied.ok) return fail(denied.field, denied.reason);
  if (denied.entries) {
    const d = denied.entries;
    const names = d.all ? ["*"] : d.bare;
    if (names.length > 0) fields.disallowedTools = names;
    if (d.rules.length > 0) {
      fields.permissions = { allow: fields.permissions?.allow ?? [], deny: d.rules };
    }
    if (Array.isArray(d.spawns)) fields.disallowedAgents = d.spawns;
    for (const u of d.unknown) {
      warn(
        denied.field,
        `'${denied.field}' names '${u}', which is no tool xcsh knows; nothing to remove`,
      );
    }
  }

  const spawns = readList(fm.spawns, "spawns");
  if (!spawns.ok) return fail("spawns", spawns.reason);
  if (spawns.list) fields.spawns = spawns.list.includes("*") ? "*" : dedupe(spawns.list);
  else if (tools.entries?.spawns && fields.tools?.includes("task")) {
    fields.spawns = tools.entries.spawns;
  } else if (fields.tools?.includes("task")) fields.spawns = "*";
  if (Array.isArray(fields.spawns)) {
    // An entry no agent could be named never matches; it is dropped, not carried along.
    for (const n of fields.spawns.filter((n) => !isAgentName(n))) {
      warn(
        "spawns",
        `'spawns' names "${showInvisible(n)}", which cannot be an agent's name; ignored`,
      );
    }
    fields.spawns = fields.spawns.filter(isAgentName);
  }

  const model = readList(fm.model, "model");
  if (!model.ok) return fail("model", model.reason);
  if (model.list) fields.model = model.list;

  const thinking = pick(fm, ["thinkingLevel", "thinking-level", "thinking_level", "thinking"]);
  const effort = pick(fm, ["effort"]);
  if (effort && !thinking) {
    const level = effortLevel(effort[1]);
    if (level) fields.thinkingLevel = level;
    else {
      warn(
        "effort",
        `unknown effort ${JSON.stringify(effort[1])} ignored; use one of low, medium, high, max`,
      );
    }
  }
  if (thinking) {
    const level = parseThinkingLevel(thinking[1]);
    if (level) fields.thinkingLevel = level;
    else {
      warn(
        thinking[0],
        `unknown thinking level ${JSON.stringify(thinking[1])} ignored; use one of ${
          THINKING_LEVELS.join(", ")
        }`,
      );
    }
  }

  if (fm.output !== undefined && fm.output !== null && fm.output !== "") {
    if (typeof fm.output === "string") {
      try {
        fields.output = JSON.parse(fm.output);
      } catch (err) {
        return fail(
          "output",
          `'output' is a string but not valid JSON (${(err as Error).message})`,
        );
      }
    } else if (typeof fm.output === "object") {
      fields.output = fm.output;
    } else {
      return fail(
        "output",
        `'output' must be a schema object or a JSON string, not ${describe(fm.output)}`,
      );
    }
  }

  const turns = pick(fm, ["maxTurns", "max_turns", "max-turns"]);
  if (turns) {
    const n = positiveNumber(turns[1]);
    if (n !== undefined && Number.isInteger(n)) fields.maxTurns = n;
    else warn(turns[0], `'${turns[0]}' must be a positive integer; ignored`);
  }

  const minutes = pick(fm, ["timeout_mins", "timeout-mins"]);
  const seconds = pick(fm, ["timeout"]);
  if (seconds) {
    const n = positiveNumber(seconds[1]);
    if (n !== undefined) fields.timeout = n;
    else warn("timeout", "'timeout' must be a positive number of seconds; ignored");
  } else if (minutes) {
    const n = positiveNumber(minutes[1]);
    if (n !== undefined) fields.timeout = n * 60;
    else warn(minutes[0], `'${minutes[0]}' must be a positive number of minutes; ignored`);
  }

  const sandbox = pick(fm, ["sandbox", "sandbox_mode"]);
  if (sandbox && sandbox[1] !== undefined && sandbox[1] !== null && sandbox[1] !== "") {
    const mode = parseSandboxMode(sandbox[1]);
    if (!mode) {
      return fail(
        sandbox[0],
        `'${sandbox[0]}' must be one of ${SANDBOX_CHOICES}, not ${describe(sandbox[1])}`,
      );
    }
    fields.sandbox = mode;
  }

  const servers = pick(fm, ["mcpServers", "mcp-servers", "mcp_servers"]);
  if (servers) {
    const refs = checkMcpDeclarations(servers[1], servers[0]);
    if (!refs.ok) warn(refs.field, `${refs.message}; the MCP servers of this file are ignored`);
    else if (refs.value.length > 0) fields.mcpServers = refs.value;
  }

  if (fm.recursive !== undefined && fm.recursive !== null) {
    const r = fm.recursive;
    if (typeof r === "boolean") fields.recursive = r;
    else if (r === "true" || r === "false") fields.recursive = r === "true";
    else warn("recursive", `'recursive' must be true or false, not ${describe(r)}; ignored`);
  }

  // Opting out of instruction files: Claude Code's `omitClaudeMd: true`, or
  // `context: false`. Either one saying so is enough.
  const optOut = (key: "omitClaudeMd" | "context", omitWhen: boolean) => {
    const v = fm[key];
    if (v === undefined || v === null) return;
    const b = typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : undefined;
    if (b === undefined) {
      warn(key, `'${key}' must be true or false, not ${describe(v)}; ignored`);
    } else if (b === omitWhen) fields.omitContextFiles = true;
  };
  optOut("omitClaudeMd", true);
  optOut("context", false);
  if (fm.isolation !== undefined && fm.isolation !== null) {
    const i = fm.isolation;
    if (i === "worktree" || i === "none") fields.isolation = i;
    else warn("isolation", `'isolation' must be worktree or none, not ${describe(i)}; ignored`);
  }
  if (fm.writes !== undefined && fm.writes !== null) {
    // A lane that cannot be read would leave the task unconfined: the file
    // is refused rather than run without it.
    // One glob or a list of them (not split at commas: `{a,b}` is a glob).
    const v = fm.writes;
    const list = typeof v === "string" ? [v] : v;
    if (!Array.isArray(list) || !list.every((g) => typeof g === "string")) {
      return fail("writes", `'writes' must be a glob or a list of globs, not ${describe(v)}`);
    }
    const globs = list.map((g) => g.trim());
    const problem = laneProblem(globs, "'writes'");
    if (problem) return fail("writes", problem);
    fields.writes = globs;
  }
  if (fm.launcher !== undefined && fm.launcher !== null && fm.launcher !== "") {
    const l = fm.launcher;
    // The name is looked up in task.launchers when the agent runs.
    if (typeof l === "string" && l.trim() !== "") fields.launcher = l.trim();
    else {warn(
        "launcher",
        `'launcher' must name a launcher of task.launchers, not ${describe(l)}; ignored`,
      );}
  }

  const mode = fm.permissionMode;
  if (mode !== undefined && mode !== null) {
    if (typeof mode !== "string" || !PERMISSION_MODES.includes(mode)) {
      warn(
        "permissionMode",
        `unknown permissionMode ${describe(mode)} ignored; use one of ${
          PERMISSION_MODES.join(", ")
        }`,
      );
    } else if (mode === "plan") fields.planMode = true;
    else if (mode === "bypassPermissions") {
      warn(
        "permissionMode",
        "'permissionMode: bypassPermissions' does not loosen xcsh: tools still run inside the " +
          "sandbox and the user's settings",
      );
    }
  }

  if (fm.kind !== undefined && fm.kind !== null && fm.kind !== "local") {
    if (remote?.ok) {
      fields.remote = remote.remote;
      if (remote.notRunnable) fields.notRunnable = remote.notRunnable;
    } else warn("kind", `'kind' must be local or remote, not ${describe(fm.kind)}; ignored`);
  }

  const sampling: [string, "temperature" | "topP" | "topK", number, number, boolean][] = [
    ["temperature", "temperature", 0, 2, false],
    ["top_p", "topP", 0, 1, false],
    ["top_k", "topK", 1, 1000, true],
  ];
  for (const [key, field, min, max, integer] of sampling) {
    const v = fm[key];
    if (v === undefined || v === null) continue;
    const n = typeof v === "number"
      ? v
      : typeof v === "string" && v.trim() !== ""
      ? Number(v)
      : NaN;
    if (Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n))) {
      fields[field] = n;
    } else {
      warn(
        key,
        `'${key}' must be ${integer ? "an integer" : "a number"} from ${min} to ${max}; ignored`,
      );
    }
  }

  // Codex's `model_verbosity`: whether a model is sent it is the plan's
  // decision (`plan/child-model-settings.ts`).
  const verbosity = fm.model_verbosity;
  if (verbosity !== undefined && verbosity !== null) {
    const v = typeof verbosity === "string" ? verbosity.trim().toLowerCase() : undefined;
    if (v !== undefined && (VERBOSITY_LEVELS as readonly string[]).includes(v)) {
      fields.verbosity = v as Verbosity;
    } else {
      warn(
        "model_verbosity",
        `'model_verbosity' must be low, medium or high, not ${describe(verbosity)}; ignored`,
      );
    }
  }

  if (fm.hooks !== undefined && fm.hooks !== null) {
    const hooks = parseHooks(fm.hooks);
    if (!hooks.ok) {
      return fail(
        hooks.field,
        `${hooks.message} (the agent is not loaded: a hook xcsh cannot read stops nothing)`,
      );
    }
    for (const w of hooks.warnings) warn(w.field, w.message);
    if (Object.keys(hooks.hooks).length > 0) fields.hooks = hooks.hooks;
  }

  if (fm.accept !== undefined && fm.accept !== null) {
    const accept = parseAcceptList(fm.accept, "accept");
    if (!accept.ok) {
      return fail(
        "accept",
        `${accept.message} (the agent is not loaded: a check xcsh cannot read verifies nothing)`,
      );
    }
    if (accept.checks.length > 0) fields.accept = accept.checks;
  }
  if (fm.acceptRetries !== undefined && fm.acceptRetries !== null) {
    const n = parseAcceptRetries(fm.acceptRetries);
    if (typeof n === "string") warn("acceptRetries", `'acceptRetries' ${n}; ignored`);
    else fields.acceptRetries = n;
  }

  if (fm.background !== undefined && fm.background !== null) {
    const b = fm.background;
    if (b === true || b === "true") fields.background = true;
    else if (b !== false && b !== "false") {
      warn("background", `'background' must be true or false, not ${describe(b)}; ignored`);
    }
  }
  if (fm.memory !== undefined && fm.memory !== null) {
    const m = fm.memory;
    if (m === "user" || m === "project" || m === "local") fields.memory = m;
    else warn("memory", `'memory' must be user, project or local, not ${describe(m)}; ignored`);
  }

  const skills = readList(fm.skills, "skills");
  if (!skills.ok) warn("skills", `${skills.reason}; ignored`);
  else if (skills.list) fields.skills = dedupe(skills.list);

  const notes = fieldNotes(fm, HONOURED_FIELDS);
  if (notes.ignored.length > 0) fields.ignoredFields = notes.ignored;
  if (notes.unknown.length > 0) {
    // One warning for the file: a typo reads best with its correction beside it.
    const shown = notes.unknown.slice(0, 5).map((u) =>
      `'${u.key}'${u.nearest ? ` (did you mean '${u.nearest}'?)` : ""}`
    );
    if (notes.unknown.length > shown.length) shown.push(`${notes.unknown.length - 5} more`);
    warn(
      notes.unknown[0].key,
      `unknown key${notes.unknown.length === 1 ? "" : "s"} ${shown.join(", ")} ignored`,
    );
  }

  return { ok: true, value: fields, warnings };
}

/** Claude Code's `permissionMode` values. */
const PERMISSION_MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto"];

/** Claude Code's `effort` as a thinking level (`max` is the most there is). */
function effortLevel(value: unknown): ThinkingLevel | undefined {
  if (value === "max") return "xhigh";
  return parseThinkingLevel(value);
}

type ToolField =
  | { ok: true; field: string; entries: ToolEntries | undefined }
  | { ok: false; field: string; reason: string };

/** `tools` or `disallowedTools`: a list split outside parentheses, then read. */
function readToolField(
  fm: Record<string, unknown>,
  field: string,
  keys: readonly string[] = [field],
): ToolField {
  const found = pick(fm, keys);
  if (!found) return { ok: true, field, entries: undefined };
  const [key, value] = found;
  let list: string[];
  if (typeof value === "string") {
    const split = splitToolList(value);
    if ("error" in split) return { ok: false, field: key, reason: `'${key}': ${split.error}` };
    list = split.list;
  } else {
    const plain = readList(value, key);
    if (!plain.ok) return { ok: false, field: key, reason: plain.reason };
    list = plain.list ?? [];
  }
  if (list.length === 0) return { ok: true, field: key, entries: undefined };
  const entries = readToolEntries(list, key === "tools" ? "tools" : "disallowedTools");
  if (entries.errors.length > 0) {
    return {
      ok: false,
      field: key,
      reason: `${entries.errors[0].replace(/^'[^']*'/, `'${key}'`)} (the agent is not loaded: ` +
        "a rule xcsh cannot read grants and refuses nothing)",
    };
  }
  return { ok: true, field: key, entries };
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

export interface AgentOrigin {
  file: string;
  source: AgentSource;
  family: AgentFamily;
  plugin?: string;
}

/**
 * Parses a whole Markdown agent file. At level `fatal` any problem throws an
 * {@link AgentParsingError}; otherwise problems come back as values. A
 * {@link NeedsParser} when the frontmatter needs the full YAML parser first.
 */
export function parseAgent(
  text: string,
  origin: AgentOrigin,
  level: ParseLevel,
):
  | (Parsed<AgentDefinition> & { frontmatter?: FrontmatterStatus; more?: AgentDefinition[] })
  | NeedsParser {
  let fm: Frontmatter | NeedsParser;
  try {
    fm = parseFrontmatter(text, { file: origin.file, level });
  } catch (err) {
    // Level `fatal`: keep the documented contract (AgentParsingError naming the file).
    if (err instanceof FrontmatterError) throw new AgentParsingError(err.file, err.reason);
    throw err;
  }
  if (isNeedsParser(fm)) return fm;
  if (fm.status === "none" || fm.status === "unterminated" || fm.status === "invalid") {
    const reason = fm.status === "none"
      ? "no frontmatter: an agent file must start with a '---' line, then name and description"
      : fm.warnings[0]?.message ?? "unreadable frontmatter";
    if (level === "fatal") throw new AgentParsingError(origin.file, reason);
    return {
      ok: false,
      error: { level: "error", file: origin.file, message: reason },
      warnings: fm.status === "none" ? fm.warnings : [],
      frontmatter: fm.status,
    };
  }
  if (fm.list) return parseRemoteList(fm.list, fm, origin, level);
  const fields = parseAgentFields(fm.data, { file: origin.file, family: origin.family });
  const warnings = [...fm.warnings, ...fields.warnings];
  if (!fields.ok) {
    if (level === "fatal") {
      throw new AgentParsingError(origin.file, fields.error.message, fields.error.field);
    }
    return {
      ok: false,
      error: fields.error,
      warnings: level === "off" ? [] : warnings,
      frontmatter: fm.status,
    };
  }
  if (level === "fatal" && warnings.length > 0) {
    throw new AgentParsingError(origin.file, warnings[0].message, warnings[0].field);
  }
  const agent: AgentDefinition = {
    ...fields.value,
    systemPrompt: fm.body.trim(),
    source: origin.source,
    filePath: origin.file,
    family: origin.family,
  };
  if (origin.plugin) agent.plugin = origin.plugin;
  return {
    ok: true,
    value: agent,
    warnings: level === "off" ? [] : warnings,
    frontmatter: fm.status,
  };
}

/**
 * A file whose frontmatter is a list (Gemini CLI): several remote agents,
 * each entry one (`kind: remote`); the first is the file's agent, the
 * others come in `more`. An entry that is not remote, fails to parse, or
 * repeats a name refuses the whole file, naming the entry.
 */
function parseRemoteList(
  list: readonly Record<string, unknown>[],
  fm: Frontmatter,
  origin: AgentOrigin,
  level: ParseLevel,
): Parsed<AgentDefinition> & { frontmatter?: FrontmatterStatus; more?: AgentDefinition[] } {
  const warnings = [...fm.warnings];
  const agents: AgentDefinition[] = [];
  const refuse = (field: string | undefined, message: string) => {
    if (level === "fatal") throw new AgentParsingError(origin.file, message, field);
    return {
      ok: false as const,
      error: { level: "error" as const, file: origin.file, ...(field ? { field } : {}), message },
      warnings: level === "off" ? [] : warnings,
      frontmatter: fm.status,
    };
  };
  for (const [i, entry] of list.entries()) {
    const at = `agent ${i + 1} of the list`;
    if (entry.kind !== "remote") {
      return refuse(
        "kind",
        `${at}: a list of agents in one file holds remote agents only ('kind: remote' each)`,
      );
    }
    const fields = parseAgentFields(entry, { file: origin.file, family: origin.family });
    warnings.push(...fields.warnings);
    if (!fields.ok) return refuse(fields.error.field, `${at}: ${fields.error.message}`);
    if (agents.some((a) => a.name === fields.value.name)) {
      return refuse("name", `${at}: the name '${fields.value.name}' is already in this file`);
    }
    agents.push({
      ...fields.value,
      systemPrompt: "",
      source: origin.source,
      filePath: origin.file,
      family: origin.family,
      ...(origin.plugin ? { plugin: origin.plugin } : {}),
    });
  }
  return {
    ok: true,
    value: agents[0],
    ...(agents.length > 1 ? { more: agents.slice(1) } : {}),
    warnings: level === "off" ? [] : warnings,
    frontmatter: fm.status,
  };
}
