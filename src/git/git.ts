/**
 * The one way xcsh runs `git` itself (the prompt's context block, isolated
 * worktrees): hardened, because every file of a repository, its `.git`
 * included, may have been written by someone else or by a sandboxed command.
 *
 * Decides how a call is made:
 * - only on a repository {@link openRepository} accepted (`git-place.ts`:
 *   the project root's own `.git`, passing the owner rule, its git folder
 *   inside the project or a verified linked worktree), named to git
 *   explicitly (`GIT_DIR`, `GIT_WORK_TREE`) so git searches nothing;
 * - with hooks, `core.fsmonitor`, transports, credential helpers and
 *   maintenance switched off, and every program the repository's own config
 *   names blanked (`git-config-rule.ts`); those settings travel as
 *   `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, which any git
 *   that git starts inherits;
 * - with a minimal environment: `PATH` (without relative entries and
 *   entries inside the project), `HOME`, `LANG`, `LC_*`, `TZ`,
 *   `XDG_CONFIG_HOME`, then `LC_ALL=C`, `GIT_TERMINAL_PROMPT=0`,
 *   `GIT_OPTIONAL_LOCKS=0`, `GIT_PAGER=cat`: no key variable, none of the
 *   caller's `GIT_*`;
 * - the `git` program itself found on that cleaned `PATH`;
 * - arguments as a list (never a shell), output as text, a missing `git`
 *   told apart from a failing one.
 *
 * The repository's config is listed (`git config --list`, which starts
 * nothing) only when its text names a word the rule looks for; a call made
 * later in the same operation reuses what {@link openRepository} found.
 *
 * @example
 * ```ts
 * const opened = await openRepository("/home/me/app");
 * if (opened.ok) await runGit(opened.repo, ["status", "--porcelain=v1"]);
 * ```
 *
 * @module
 */
import { accessSync, constants, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import process from "node:process";
import { MAX_SETTINGS_FILE_BYTES, readCappedSync } from "../fs/file-safety.ts";
import {
  FIXED_SETTINGS,
  mayNameProgram,
  parseConfigList,
  repositoryOverrides,
  withGitSettings,
} from "../process/git-config-rule.ts";
import { gitPlace, type PlaceProbe, within } from "./git-place.ts";
import { spawnPiped } from "../runtime.ts";

/** The most output one git call may give before it is stopped (as a failure). */
const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;

export interface GitOutcome {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** `git` itself could not be started (not installed, not on PATH). */
  missing?: boolean;
}

/** A repository xcsh may run git on, with the settings every call gets. */
export interface Repository {
  workTree: string;
  gitDir: string;
  commonDir: string;
  /** `FIXED_SETTINGS` then the repository's blanked programs. */
  settings: (readonly [string, string])[];
  /** The repository's blanked programs alone (what its own config names, set empty). */
  overrides: [string, string][];
  /** The environment each call starts from. */
  env: Record<string, string>;
  /** The `git` program. */
  program: string;
}

export type Opened =
  | { ok: true; repo: Repository }
  | { ok: false; reason: string; absent?: boolean; missing?: boolean };

/** The real disk, for `gitPlace`. */
export const DISK: PlaceProbe = {
  lstat(path) {
    try {
      const s = lstatSync(path);
      return {
        uid: s.uid,
        mode: s.mode,
        kind: s.isDirectory()
          ? "folder"
          : s.isFile()
          ? "file"
          : s.isSymbolicLink()
          ? "link"
          : "other",
      };
    } catch {
      return undefined;
    }
  },
  names(path) {
    try {
      return readdirSync(path);
    } catch {
      return undefined;
    }
  },
  realpath(path) {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  readText(path) {
    const r = readCappedSync(path, MAX_SETTINGS_FILE_BYTES);
    return r.ok ? new TextDecoder().decode(r.bytes) : undefined;
  },
};

/**
 * `PATH` without relative entries and entries inside `root` (after `real`,
 * which resolves symbolic links on the disk). Pure with the default `real`.
 */
export function cleanPath(
  path: string | undefined,
  root: string,
  real: (dir: string) => string = resolve,
): string {
  return (path ?? "").split(delimiter)
    .filter((d) => d !== "" && isAbsolute(d) && !within(real(d), root))
    .join(delimiter);
}

/** Variables a git call keeps from the caller's environment. */
const KEPT = new Set(["HOME", "LANG", "TZ", "XDG_CONFIG_HOME"]);

/** The environment of git calls on a repository at `root`. Pure with the default `real`. */
export function gitEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  root: string,
  real: (dir: string) => string = resolve,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && (KEPT.has(k) || k.startsWith("LC_"))) out[k] = v;
  }
  out.PATH = cleanPath(env.PATH, root, real);
  out.LC_ALL = "C";
  out.GIT_TERMINAL_PROMPT = "0";
  out.GIT_OPTIONAL_LOCKS = "0";
  out.GIT_PAGER = "cat";
  return out;
}

/** The variables that carry `settings` to git and every git it starts. Pure. */
export function settingsEnvironment(
  settings: readonly (readonly [string, string])[],
): Record<string, string> {
  return withGitSettings({}, settings);
}

/** The first executable `git` on `path`, else undefined. */
function findGit(path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, "git");
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface OpenOptions {
  /** The caller's environment (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The common git folder the repository must have (a worktree xcsh made). */
  expectCommon?: string;
  timeoutMs?: number;
}

/**
 * Checks the repository of the project `root` and reads which of its
 * settings name programs; the reason says why git must not run there.
 */
export async function openRepository(root: string, o: OpenOptions = {}): Promise<Opened> {
  const env = gitEnvironment(
    o.env ?? process.env,
    DISK.realpath(root) ?? resolve(root),
    (d) => DISK.realpath(d) ?? resolve(d),
  );
  const program = findGit(env.PATH);
  if (!program) return { ok: false, reason: "no 'git' was found on PATH", missing: true };
  const place = gitPlace(root, DISK, o.expectCommon);
  if (!place.ok) {
    return { ok: false, reason: place.reason, ...(place.absent ? { absent: true } : {}) };
  }
  const { workTree, gitDir, commonDir } = place;
  const repo: Repository = {
    workTree,
    gitDir,
    commonDir,
    settings: [...FIXED_SETTINGS],
    overrides: [],
    env,
    program,
  };
  let needed = false;
  for (const f of [join(place.commonDir, "config"), join(place.gitDir, "config.worktree")]) {
    const r = readCappedSync(f, MAX_SETTINGS_FILE_BYTES);
    if (r.ok) needed ||= mayNameProgram(new TextDecoder().decode(r.bytes));
    else if (r.code !== "ENOENT") return { ok: false, reason: `${f} ${r.reason}` };
  }
  if (!needed) return { ok: true, repo };
  const listed = await runGit(repo, ["config", "--list", "--show-scope", "--includes", "--null"], {
    timeoutMs: o.timeoutMs,
  });
  if (!listed.ok) {
    return {
      ok: false,
      reason: `git config cannot be read: ${listed.stderr.trim().split("\n")[0]}`,
    };
  }
  repo.overrides = repositoryOverrides(parseConfigList(listed.stdout));
  repo.settings.push(...repo.overrides);
  return { ok: true, repo };
}

export interface RunOptions {
  /** Where git runs (default: the work tree); must be inside it. */
  cwd?: string;
  timeoutMs?: number;
  /** Variables added for this call (`GIT_INDEX_FILE` for a private index). */
  env?: Record<string, string>;
}

/**
 * Runs `git ARGS` on `repo`. Never throws. Started through `runtime.ts`
 * (`Bun.spawn` on Bun: `node:child_process` would cost every run in a
 * repository its load and stream set-up); stdin is closed at once, output
 * over {@link MAX_OUTPUT_CHARS} or a call over `timeoutMs` stops git (a
 * failure).
 */
export function runGit(repo: Repository, args: string[], o: RunOptions = {}): Promise<GitOutcome> {
  const env = {
    ...repo.env,
    ...settingsEnvironment(repo.settings),
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: repo.workTree,
    ...o.env,
  };
  const cwd = o.cwd && within(resolve(o.cwd), repo.workTree) ? o.cwd : repo.workTree;
  const argv = ["--no-pager", ...args];
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    let stopped: string | undefined;
    let settled = false;
    let pid: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (why: string) => {
      stopped ??= why;
      try {
        if (pid !== undefined) process.kill(pid, "SIGTERM");
      } catch {
        // gone already
      }
    };
    const finish = (r: GitOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(r);
    };
    spawnPiped({
      command: repo.program,
      args: argv,
      cwd,
      env,
      detached: false,
      onStdout: (text) => {
        if (stdout.length + text.length > MAX_OUTPUT_CHARS) {
          stop("stdout maxBuffer length exceeded");
        } else stdout += text;
      },
      onStderr: (text) => {
        if (stderr.length + text.length > MAX_OUTPUT_CHARS) {
          stop("stderr maxBuffer length exceeded");
        } else stderr += text;
      },
      onClose: (code, signal) => {
        const ok = code === 0 && stopped === undefined;
        const failed = `Command failed: ${repo.program} ${argv.join(" ")}` +
          (stopped ? ` (${stopped}${signal ? `; killed by ${signal}` : ""})` : "") +
          (!stopped && signal ? ` (killed by ${signal})` : "");
        finish({ ok, stdout, stderr: stderr || (ok ? "" : failed) });
      },
      onError: (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        finish({
          ok: false,
          stdout: "",
          stderr: err.message,
          ...(code === "ENOENT" ? { missing: true } : {}),
        });
      },
    }).then((child) => {
      pid = child.pid;
      child.end();
      if (settled) return;
      if (o.timeoutMs) {
        timer = setTimeout(() => stop(`timed out after ${o.timeoutMs} ms`), o.timeoutMs);
      }
    }, (err: Error) => finish({ ok: false, stdout: "", stderr: err.message }));
  });
}
