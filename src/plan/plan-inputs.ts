/**
 * What the parent plans a task call's children from: where the call runs,
 * the config, the caller's state and what the calling session hands down
 * (its model, schema, sandbox, deny rules, write lane, agent set, settings
 * hooks), and who hears the warnings. The runner's own options
 * (`runner/task-runner.ts`) add what executing the plan needs.
 *
 * @module
 */
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { CallerState } from "../protocol/variables.ts";
import type {
  AgentDefinition,
  AgentHooks,
  Diagnostic,
  PermissionRule,
  SandboxSetting,
  XcshConfig,
} from "../types.ts";

/** The inputs of a call's plan besides the request itself. */
export interface PlanInputs {
  env: DiscoveryEnv;
  config: XcshConfig;
  caller: CallerState;
  /** The calling session's output schema, used when neither agent nor call has one. */
  parentSchema?: unknown;
  /** The calling session's model, inherited by agents that ask for it. */
  parentModel?: string | null;
  /** The calling session is in plan mode: every child is too. */
  planMode?: boolean;
  /** The calling session's sandbox: no child is less confined. */
  sandbox?: SandboxSetting;
  /** The calling agent's deny rules (its callers' included): every child gets them too. */
  inheritedDeny?: readonly PermissionRule[];
  onWarnings?: (warnings: Diagnostic[]) => void;
  /** Discovery's warnings about agent files (often summed up by the caller); `onWarnings` when absent. */
  onDiscoveryWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * Provider keys to hand each child in its envelope; default: those set in
   * `env.env`. Key variables never reach a child's environment.
   */
  keys?: Record<string, string>;
  /**
   * The agents the top-level run started with (fingerprints by name); absent
   * at the top level, where this call's discovery fixes the set.
   */
  agentSet?: Record<string, string>;
  /** How the caller sees every agent, named when an unknown agent's list is cut (default: `xcsh agents`). */
  listHint?: string;
  /** The flag that picks a model where there is one (`--model` on the command line): named in hints. */
  modelFlag?: string;
  /** How the call's own checks are named in errors (`--accept` on the command line; default `accept`). */
  acceptFlag?: string;
  /** Agents defined for this run (`--agents`): they shadow discovered ones of the same name. */
  sessionAgents?: readonly AgentDefinition[];
  /**
   * Changes the asked agent before anything else is decided of it (`xcsh -p`'s
   * tool lists and system prompt); the untrusted-file rules still apply after.
   */
  editAgent?: (agent: AgentDefinition) => AgentDefinition;
  /** The calling task's write lane: no task it starts writes outside it (`write-lanes.ts`). */
  lane?: readonly string[];
  /** How a task's own lane is named in messages (default: `tasks[i].writes`). */
  laneField?: (index: number) => string;
  /**
   * The hooks of the Claude Code settings files and plugins as the top-level
   * run read them (a child's runner gets them in its envelope); absent: read
   * them here (`config/settings-hooks.ts`).
   */
  settingsHooks?: AgentHooks;
}
