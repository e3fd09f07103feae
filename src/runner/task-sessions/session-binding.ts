/**
 * Which session and which worktree each prepared task gets, decided before
 * any child starts (so that every refusal is a usage error, exit 2).
 *
 * A new task: a fresh session (none, with one warning, when the data folder
 * cannot be written) and, when isolated, the repository it will get a
 * worktree of (not a repository, no commit, no git: refused). A resumed
 * task: its session read and locked, its folder inside the caller's project
 * (see `resume-scope.ts`), the same agent required, and the
 * stored envelope's agent, thinking level, schema, context, plan mode,
 * write lane (unless the call gives one) and folder reused with the conversation so far (well-formed); the model it last
 * ran on, whatever config says now, unless the call names one (`--model`:
 * the conversation moves to it without the provider data, with a note);
 * where it last worked (a follow-up may
 * have moved it): its kept worktree when there is one (a real folder in the
 * worktrees folder, checked by `fs/confined-folder.ts`: a worktree path that
 * leads elsewhere is refused), a fresh one of the same repository when it
 * was removed.
 *
 * @module
 */
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { confinedFolder } from "../../fs/confined-folder.ts";
import { basename } from "node:path";
import type { Isolate } from "../run-task.ts";
import type { SessionKeeper } from "./task-session.ts";
import type { PreparedTask } from "../prepared-task.ts";
import { repoBase } from "../../git/worktree.ts";
import { envelopeTooLarge, MAX_ENVELOPE_BYTES } from "../../protocol/limits.ts";
import { envelopeAgent, envelopeText } from "../../protocol/envelope-builder.ts";
import { checkResumeScope } from "./resume-scope.ts";
import { Buffer } from "node:buffer";
import { continuation } from "../../sessions/replay.ts";
import { sessionFile } from "../../sessions/store.ts";
import type { Isolation, TaskItem, TaskRequest, ThinkingLevel } from "../../types.ts";

export interface Binding {
  req: TaskRequest;
  tasks: PreparedTask[];
  keeper: SessionKeeper;
  isolation: Isolation;
  /** The folder worktrees are made in ("" when there is no data folder). */
  worktreesDir: string;
  /** The caller's folder. */
  cwd: string;
  /** The home folder (the project-root walk stops there). */
  home: string;
  /** Reserve and lock nothing (a dry run). */
  dryRun: boolean;
}

/** Binds sessions and worktrees to `tasks` in place; a string says why it cannot. */
export async function bindSessions(b: Binding): Promise<string | undefined> {
  let base: Isolate | undefined;
  if (b.isolation === "worktree") {
    if (!b.worktreesDir) return "isolation worktree needs a home folder or XCSH_DATA_DIR";
    try {
      mkdirSync(b.worktreesDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      return `isolation worktree: cannot create ${b.worktreesDir} (${e.code ?? e.message})`;
    }
    const found = await repoBase(b.cwd);
    if (!found.ok) return found.message;
    base = { kind: "new", base: found.value };
  }
  for (const t of b.tasks) {
    const item = b.req.tasks.find((x) => x.id === t.envelope.id);
    if (item?.resume !== undefined) {
      const problem = await bindResume(b, t, item as TaskItem & { resume: string });
      if (problem !== undefined) return problem;
      continue;
    }
    if (base) t.isolate = base;
    if (!b.dryRun) {
      t.session = b.keeper.reserve();
      if (t.session) {
        t.envelope.session = t.session.id;
        t.envelope.transcriptPath = sessionFile(b.keeper.dir, t.session.id);
      }
    }
  }
  return undefined;
}

async function bindResume(
  b: Binding,
  t: PreparedTask,
  item: TaskItem & { resume: string },
): Promise<string | undefined> {
  const id = item.resume;
  const loaded = b.keeper.resume(id, !b.dryRun);
  if (!loaded.ok) return loaded.message;
  t.session = loaded.session;
  const { header } = loaded;
  const outside = checkResumeScope(id, loaded.place, b.cwd, b.home);
  if (outside !== undefined) return outside;
  if (header.agent !== t.envelope.agent.name) {
    return `cannot resume: session ${id} ran agent '${header.agent}', not '${t.envelope.agent.name}'`;
  }
  const stored = header.envelope;
  const { cwd, worktree: wt } = loaded.place;
  // The model it last ran on, whatever config says now; `--model` switches it.
  const requested = b.req.model !== undefined ? t.envelope.model ?? undefined : undefined;
  const next = continuation(loaded.messages, loaded.model, requested) ??
    (t.envelope.model ? continuation(loaded.messages, null, t.envelope.model) : undefined);
  if (!next) return `cannot resume session ${id}: ${t.modelError ?? "it names no model"}`;
  const { modelNote: _fromConfig, modelSettings: current, ...rest } = t.envelope;
  // The session's thinking level (a session of an older plan holds it at
  // the top of its envelope); this call's other model settings.
  const { thinkingLevel: _current, ...settings } = current ?? {};
  const level = stored.modelSettings?.thinkingLevel ??
    (stored as { thinkingLevel?: ThinkingLevel }).thinkingLevel;
  const modelSettings = { ...settings, ...(level ? { thinkingLevel: level } : {}) };
  // The session holds its MCP servers' secret env and headers hidden; they
  // come fresh, like keys.
  // A session of an older plan may hold the agent's spawn field and the
  // fields of its model settings: the right is this call's `toolSet.spawns`,
  // the settings are `modelSettings`.
  const { mcpServers: _hidden, ...storedAgent } = envelopeAgent(stored.agent);
  const servers = t.envelope.agent.mcpServers;
  t.envelope = {
    ...rest,
    agent: { ...storedAgent, ...(servers ? { mcpServers: servers } : {}) },
    model: next.model,
    ...(next.note ? { modelNote: next.note } : {}),
    ...(Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
    outputSchema: stored.outputSchema,
    ...(stored.context ? { context: stored.context } : {}),
    cwd,
    planMode: stored.planMode,
    // The session's write lane, unless this call gives one (a call without
    // a lane has no caller's lane either: the stored one is only tighter).
    ...(rest.writes ?? stored.writes ? { writes: rest.writes ?? stored.writes } : {}),
    session: id,
    transcriptPath: sessionFile(b.keeper.dir, id),
    history: next.messages,
  };
  delete t.modelError;
  const bytes = Buffer.byteLength(envelopeText(t.envelope), "utf8");
  if (bytes > MAX_ENVELOPE_BYTES) {
    return `cannot resume session ${id}: its conversation is too long to continue (${
      envelopeTooLarge(bytes)
    })`;
  }
  if (wt && existsSync(wt.path)) {
    const kept = confinedFolder(b.worktreesDir, basename(wt.path), {
      kind: "worktree",
      where: b.worktreesDir,
    });
    if (!kept.ok) return `cannot resume session ${id}: ${kept.error}`;
    if (kept.value.path !== realpathSync(wt.path)) {
      return `cannot resume session ${id}: its worktree ${wt.path} is not in ${b.worktreesDir}`;
    }
    const sub = cwd.startsWith(wt.path + "/") ? cwd.slice(wt.path.length) : "";
    t.isolate = {
      kind: "existing",
      worktree: { ...wt, id: basename(wt.path), cwd: wt.path + sub },
    };
  } else if (wt) {
    const again = await repoBase(wt.repo);
    if (!again.ok) return `cannot resume session ${id}: ${again.message}`;
    t.isolate = { kind: "new", base: again.value };
  } else if (!existsSync(cwd)) {
    return `cannot resume session ${id}: its folder ${cwd} is gone`;
  }
  return undefined;
}
