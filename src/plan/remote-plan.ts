/**
 * Whether a remote agent (`kind: remote`) may run, and the target its child
 * is sent: its card and the user's credentials as headers. A project's
 * remote agent file would send the task (and maybe the user's credentials)
 * to an address the repository chose, so it is refused until `xcsh trust`
 * recorded the file with its current content; its credentials come from
 * the user's environment only (`a2a/auth-headers.ts`). Local agents have
 * no target.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 *
 * declare const agent: AgentDefinition; // a project's remote agent, not trusted
 * remotePlan(agent, { env: {}, trusted: () => false });
 * // { ok: false, message: "Cannot run 'peer': it is a remote (A2A) agent of this project …" }
 * ```
 *
 * @module
 */
import { authHeaders } from "../a2a/auth-headers.ts";
import type { RemoteTarget } from "../protocol/envelope.ts";
import type { AgentDefinition } from "../types.ts";

export type RemotePlan =
  | { ok: true; target?: RemoteTarget; secrets: string[] }
  | { ok: false; message: string };

/** The remote target of `agent`, or why it may not run. */
export function remotePlan(
  agent: AgentDefinition,
  o: {
    env: Record<string, string | undefined>;
    trusted: () => boolean;
    /** Runs a `!command` of the user's own file (`secret-command.ts`). */
    runCommand?: (command: string) => { ok: true; value: string } | { ok: false; error: string };
  },
): RemotePlan {
  const remote = agent.remote;
  if (!remote) return { ok: true, secrets: [] };
  const where = agent.filePath ?? agent.name;
  const fromProject = agent.source === "project";
  if (fromProject && !o.trusted()) {
    return {
      ok: false,
      message: `Cannot run '${agent.name}': it is a remote (A2A) agent of this project ` +
        `(${where}), which would send the task to an address the repository chose; ` +
        "read the file and run 'xcsh trust' to allow it.",
    };
  }
  const auth = authHeaders(remote.auth, {
    env: o.env,
    fromProject,
    where,
    ...(o.runCommand ? { runCommand: o.runCommand } : {}),
  });
  if (!auth.ok) return { ok: false, message: `Cannot run '${agent.name}': ${auth.error}.` };
  return {
    ok: true,
    target: {
      ...(remote.cardUrl !== undefined ? { cardUrl: remote.cardUrl } : {}),
      ...(remote.cardJson !== undefined ? { cardJson: remote.cardJson } : {}),
      headers: auth.headers,
    },
    secrets: auth.values,
  };
}

/** The model name a remote agent's task is recorded under (its session's model). */
export function remoteModelId(agent: AgentDefinition): string {
  return `a2a/${agent.name}`;
}

/**
 * `agent` as its child is sent it: a remote agent's `auth` (literal values
 * of the user's own file among them) stays with the parent, which sends the
 * resolved headers in the envelope's `remote` instead.
 */
export function withoutAuth<A extends { remote?: AgentDefinition["remote"] }>(agent: A): A {
  if (!agent.remote?.auth) return agent;
  const { auth: _auth, ...remote } = agent.remote;
  return { ...agent, remote };
}
