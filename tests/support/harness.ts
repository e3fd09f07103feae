/**
 * The set-up every end-to-end file against the scripted model server shares:
 * one server per file, started before its first test and closed after its
 * last, worlds whose config points at it and that are removed when the file
 * ends, and a `respond` the file can swap between tests.
 *
 * What this module decides:
 * - `modelHarness()` registers the file's `before` (the binary must be
 *   built, then the server starts, then `setup`) and `after` (`teardown`
 *   first, then the server closes, then every world and scratch folder goes).
 *   Called inside a `describe`, the hooks are that group's: a group that
 *   needs a second server at the same time (another wire format, other
 *   options, a server standing for someone else) takes a second harness
 *   there; each has its own server, responder, worlds and folders.
 * - `server` stands for the file's server from the moment the harness is
 *   made: reading it before `before` has run is an error, after it every
 *   property and method is the running server's.
 * - When the queue is empty the server asks the current responder, set by
 *   the `respond` option or `respond(fn)`; none means what it means to the
 *   server: HTTP 500 "no scripted turn left".
 * - `world()` makes a world with `localConfig(server.url, extraConfig)` (or
 *   the `config` given in full) and the given project agents.
 *
 * @example
 * ```ts
 * import { modelHarness } from "./harness.ts";
 *
 * const { server, respond, world } = modelHarness({ respond: () => ({ text: "done" }) });
 * // in a test:
 * const w = world({ agents: { boss: "---\nname: boss\ndescription: b\n---\nLead.\n" } });
 * respond(() => ({ text: "again" }));
 * server.requests.length = 0;
 * ```
 *
 * @module
 */
import { after, before } from "node:test";
import { rmSync } from "node:fs";
import { requireBinary } from "./cli.ts";
import {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  startModelServer,
  type Turn,
} from "./model-server.ts";
import { localConfig, makeWorld, type World } from "./world.ts";

/** What the server answers once its queue of turns is empty. */
export type Responder = (req: RecordedRequest, index: number) => Turn;

export interface HarnessOptions extends Omit<ModelServerOptions, "respond"> {
  /** The first responder (none: the server answers 500 once its queue is empty). */
  respond?: Responder;
  /** Runs in `before`, once the server listens (worlds may be made here). */
  setup?: () => void | Promise<void>;
  /** Runs first in `after`, before the server closes and the worlds are removed. */
  teardown?: () => void | Promise<void>;
}

export interface WorldOptions {
  /** Project agents: file names (without `.md`) to Markdown. */
  agents?: Record<string, string>;
  /** Appended to the config that points every model call at the server. */
  extraConfig?: string;
  /** The user config in full, instead of the one pointing at the server. */
  config?: string;
}

export interface Harness {
  /** The file's model server (usable from `before` on). */
  server: ModelServer;
  /** Replaces what the server answers once its queue is empty; undefined: nothing. */
  respond(fn: Responder | undefined): void;
  /** A world (see {@link WorldOptions}), removed when the file ends. */
  world(options?: WorldOptions): World;
  /** Removes `w` when the file ends (a world made another way); returns it. */
  keep<W extends World>(w: W): W;
  /** Removes the folder `path` when the file ends; returns it. */
  scratch(path: string): string;
}

/** Registers the file's model server and worlds; see the module comment. */
export function modelHarness(options: HarnessOptions = {}): Harness {
  const { respond: first, setup, teardown, ...serverOptions } = options;
  let running: ModelServer | undefined;
  let current: Responder | undefined = first;
  const worlds: World[] = [];
  const folders: string[] = [];
  const live = (): ModelServer => {
    if (!running) throw new Error("the model server is not started yet (it starts in before())");
    return running;
  };
  const server: ModelServer = {
    get url() {
      return live().url;
    },
    get requests() {
      return live().requests;
    },
    get shown() {
      return live().shown;
    },
    script: (turns) => live().script(turns),
    push: (...turns) => live().push(...turns),
    remaining: () => live().remaining(),
    peakInFlight: () => live().peakInFlight(),
    resetPeak: () => live().resetPeak(),
    limitWindow: (rule) => live().limitWindow(rule),
    limited: () => live().limited(),
    close: () => live().close(),
  };
  const keep = <W extends World>(w: W): W => {
    worlds.push(w);
    return w;
  };

  before(async () => {
    requireBinary();
    running = await startModelServer({
      ...serverOptions,
      respond: (req, index) => current?.(req, index),
    });
    await setup?.();
  });
  after(async () => {
    await teardown?.();
    await running?.close();
    for (const w of worlds) w.cleanup();
    for (const d of folders) rmSync(d, { recursive: true, force: true });
  });

  return {
    server,
    respond: (fn) => {
      current = fn;
    },
    world: (o = {}) =>
      keep(makeWorld(o.config ?? localConfig(server.url, o.extraConfig), o.agents ?? {})),
    keep,
    scratch: (path) => {
      folders.push(path);
      return path;
    },
  };
}
