/**
 * The agents compiled into the binary.
 *
 * Decides the bundled set and its order (explore, plan, designer, reviewer,
 * task, quick_task), parses it at level `fatal` (a malformed bundled agent is
 * a build bug, not a user warning) and caches the result for the life of the
 * process. `task` and `quick_task` share the body of `agents/task.md`; their
 * frontmatter is given here.
 *
 * @module
 */
import exploreMd from "../../agents/explore.md" with { type: "text" };
import planMd from "../../agents/plan.md" with { type: "text" };
import designerMd from "../../agents/designer.md" with { type: "text" };
import reviewerMd from "../../agents/reviewer.md" with { type: "text" };
import taskBody from "../../agents/task.md" with { type: "text" };
import { AgentParsingError, parseAgent, parseAgentFields } from "./agent-fields.ts";
import { isNeedsParser, type NeedsParser, parseOnDemand } from "../formats/full-parsers.ts";
import type { AgentDefinition } from "../types.ts";

/** One embedded definition: a whole Markdown file, or injected fields plus a body. */
export type EmbeddedAgentDef =
  | { file: string; markdown: string }
  | { file: string; fields: Record<string, unknown>; body: string };

/** The bundled agents in listing order. */
export const EMBEDDED_AGENT_DEFS: readonly EmbeddedAgentDef[] = [
  { file: "agents/explore.md", markdown: exploreMd },
  { file: "agents/plan.md", markdown: planMd },
  { file: "agents/designer.md", markdown: designerMd },
  { file: "agents/reviewer.md", markdown: reviewerMd },
  {
    file: "agents/task.md",
    fields: {
      name: "task",
      description:
        "General-purpose agent for delegated multi-step work: investigates, edits, runs commands and may delegate further.",
      model: "default",
      thinkingLevel: "medium",
      spawns: "*",
    },
    body: taskBody,
  },
  {
    file: "agents/task.md",
    fields: {
      name: "quick_task",
      description:
        "Fast agent for mechanical, well-specified work: simple edits, renames, collecting data. Does not delegate.",
      model: "xcsh/smol",
      thinkingLevel: "minimal",
    },
    body: taskBody,
  },
];

/**
 * Parses embedded definitions at level `fatal`; a {@link NeedsParser} when
 * one needs the full YAML parser before it is loaded.
 * @throws {AgentParsingError} when one is malformed.
 */
export function parseBundledAgents(
  defs: readonly EmbeddedAgentDef[],
): AgentDefinition[] | NeedsParser {
  const agents: AgentDefinition[] = [];
  for (const def of defs) {
    const origin = {
      file: `(bundled) ${def.file}`,
      source: "bundled" as const,
      family: "bundled" as const,
    };
    let agent: AgentDefinition;
    if ("markdown" in def) {
      const parsed = parseAgent(def.markdown, origin, "fatal");
      if (isNeedsParser(parsed)) return parsed;
      if (!parsed.ok) throw new AgentParsingError(origin.file, parsed.error.message);
      agent = parsed.value;
    } else {
      const parsed = parseAgentFields(def.fields, { file: origin.file });
      if (!parsed.ok) {
        throw new AgentParsingError(origin.file, parsed.error.message, parsed.error.field);
      }
      if (parsed.warnings.length > 0) {
        throw new AgentParsingError(
          origin.file,
          parsed.warnings[0].message,
          parsed.warnings[0].field,
        );
      }
      agent = {
        ...parsed.value,
        systemPrompt: def.body.trim(),
        source: "bundled",
        family: "bundled",
      };
    }
    delete agent.filePath;
    agents.push(agent);
  }
  return agents;
}

let bundledAgentsCache: AgentDefinition[] | undefined;

/** The bundled agents, parsed once per process. Callers must not mutate them. */
export async function loadBundledAgents(): Promise<readonly AgentDefinition[]> {
  bundledAgentsCache ??= await parseOnDemand(() => parseBundledAgents(EMBEDDED_AGENT_DEFS));
  return bundledAgentsCache;
}

/** Forgets the parsed bundled agents. For tests only. */
export function clearBundledAgentsCache(): void {
  bundledAgentsCache = undefined;
}
