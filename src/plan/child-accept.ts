/**
 * Which acceptance checks the parent runs on a call's tasks
 * (`accept-plan.ts`), or why one cannot run (an invalid glob or schema,
 * `compile-checks.ts`), said before any child starts. An untrusted project
 * file's check commands are named in a warning and skipped.
 *
 * @module
 */
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { AgentDefinition, Diagnostic, TaskRequest } from "../types.ts";
import { type AcceptPlan, acceptPlan } from "./accept-plan.ts";
import { checksProblem } from "./compile-checks.ts";
import { agentFileTrusted } from "./agent-file-trust.ts";

/**
 * The checks of each of `req`'s tasks (undefined: none): the agent's, the
 * call's, then the task's own; or the one line saying why they cannot run.
 */
export async function childAccept(
  req: TaskRequest,
  asked: AgentDefinition,
  i: {
    env: DiscoveryEnv;
    /** How the call's own checks are named in errors (default `accept`). */
    acceptFlag?: string;
    onWarnings?: (warnings: Diagnostic[]) => void;
  },
): Promise<(AcceptPlan | undefined)[] | string> {
  let trusted: boolean | undefined;
  const trustedOnce = () => trusted ??= agentFileTrusted(asked, i.env);
  const plans = req.tasks.map((t) =>
    acceptPlan(asked, {
      accept: [...(req.accept ?? []), ...(t.accept ?? [])],
      ...(req.acceptRetries !== undefined ? { acceptRetries: req.acceptRetries } : {}),
    }, trustedOnce)
  );
  const plan = plans.find((p) => p !== undefined);
  if (!plan) return plans;
  const origin = asked.filePath ? `${asked.filePath}: accept` : `agent '${asked.name}': accept`;
  let problem = await checksProblem(asked.accept ?? [], origin) ??
    await checksProblem(req.accept ?? [], i.acceptFlag ?? "accept");
  for (const [n, t] of req.tasks.entries()) {
    problem ??= await checksProblem(t.accept ?? [], `tasks[${n}].accept`);
  }
  if (problem) return problem;
  if (plan.skipped.length > 0) {
    i.onWarnings?.([{
      level: "warning",
      ...(asked.filePath ? { file: asked.filePath } : {}),
      field: "accept",
      message:
        `the acceptance check commands of this project's agent file (${
          plan.skipped.map((c) => `'${c.name}'`).join(", ")
        }) are not run: the project is not trusted (run 'xcsh trust' in it to allow them); ` +
        "its tasks are not verified",
    }]);
  }
  return plans;
}
