/**
 * The environment a command started for a task gets (`bash` now; hooks and
 * stdio MCP servers started in the sandbox should call the same function).
 *
 * Decides the default policy: the task's own environment minus
 * - provider keys (always: they travel in the envelope, never to commands);
 * - secrets, by name or by value, as `text/secrets.ts` decides
 *   (`GITHUB_TOKEN`, `DB_CREDENTIAL`, `DATABASE_URL=postgres://app:pw@db/app`,
 *   any variable holding a `ghp_…` token or a PEM private key);
 * - ways out to the host's sessions and agents: `SSH_AUTH_SOCK`, `DISPLAY`,
 *   `WAYLAND_DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`,
 *   `DOCKER_HOST`, `TMUX`, … and any name ending in `_SOCK` or `_SOCKET`;
 * plus the git settings that keep a repository's hooks and `core.fsmonitor`
 * from running (`process/git-config-rule.ts`, `PROGRAM_SETTINGS`) and those
 * the policy adds (the programs the repository's config names, blanked).
 *
 * The user's allow-list (`task.allowEnv`: names, or a prefix ending in `*`)
 * keeps a variable the default would drop, provider keys excepted; a
 * project's list can only narrow it ({@link narrowAllowList}). The values of
 * every secret variable, dropped or allowed, are hidden wherever they appear
 * (`secretsOf` in `text/secrets.ts`). Pure.
 *
 * @example
 * ```ts
 * commandEnvironment(
 *   { PATH: "/usr/bin", GITHUB_TOKEN: "ghp_0123456789", DISPLAY: ":0" },
 *   { remove: ["ANTHROPIC_API_KEY"], allow: [] },
 * );
 * // { env: { PATH: "/usr/bin" }, dropped: ["GITHUB_TOKEN", "DISPLAY"] }
 * ```
 *
 * @module
 */
import { commandSettings, withGitSettings } from "../process/git-config-rule.ts";
import { isSecretVariable } from "../text/secrets.ts";

export interface EnvPolicy {
  /** Variables that always go (provider keys): no allow-list brings them back. */
  remove: readonly string[];
  /** The allow-list: names, or prefixes ending in `*`, kept though the default drops them. */
  allow: readonly string[];
  /** Git settings added after the fixed ones (the repository's programs, blanked). */
  gitSettings?: readonly (readonly [string, string])[];
}

export interface CommandEnv {
  env: Record<string, string>;
  /** The names left out, in the order met. */
  dropped: string[];
}

/** Variables that lead to the host's sockets, sessions and agents. */
const SOCKET_NAMES = new Set([
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "DBUS_SESSION_BUS_ADDRESS",
  "DBUS_SYSTEM_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "DOCKER_HOST",
  "CONTAINER_HOST",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "KITTY_LISTEN_ON",
  "NVIM",
  "NVIM_LISTEN_ADDRESS",
  "VSCODE_IPC_HOOK",
  "VSCODE_IPC_HOOK_CLI",
  "VSCODE_GIT_IPC_HANDLE",
  "SWAYSOCK",
  "I3SOCK",
  "PULSE_SERVER",
]);
const SOCKET_NAME = /_SOCK$|_SOCKET$/i;

/** Why the default policy drops a variable: its value is a secret, or it leads to a socket. */
export function defaultDrop(name: string, value: string): "secret" | "socket" | undefined {
  if (isSecretVariable(name, value)) return "secret";
  if (SOCKET_NAMES.has(name) || SOCKET_NAME.test(name)) return "socket";
  return undefined;
}

/** An allow-list entry: a name, or a prefix ending in `*`. */
export const ALLOW_ENTRY = /^[A-Za-z0-9_]*\*?$/;

/** Whether `name` matches an entry (case-sensitive, as variable names are). */
function matches(entry: string, name: string): boolean {
  return entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : name === entry;
}

/**
 * The user's allow-list narrowed by a project's: only what both allow (a
 * name or prefix of the project's list that the user's covers, or the
 * user's entry that the project's covers). Never wider than `user`. Pure.
 *
 * @example
 * ```ts
 * narrowAllowList(["GITHUB_TOKEN", "AWS_*"], ["AWS_PROFILE_*", "NPM_TOKEN", "GITHUB_*"]);
 * // ["AWS_PROFILE_*", "GITHUB_TOKEN"]
 * ```
 */
export function narrowAllowList(user: readonly string[], project: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of project) {
    for (const u of user) {
      if (
        matches(u, p.endsWith("*") ? p.slice(0, -1) : p) && (!p.endsWith("*") || u.endsWith("*"))
      ) {
        out.add(p); // the project's entry is the narrower
      } else if (p.endsWith("*") && matches(p, u.endsWith("*") ? u.slice(0, -1) : u)) {
        out.add(u); // the user's entry is the narrower
      }
    }
  }
  return [...out];
}

/** The environment of a command under `policy`, and what was left out. */
export function commandEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  policy: EnvPolicy,
): CommandEnv {
  const allowed = (name: string) => policy.allow.some((e) => matches(e, name));
  const out: CommandEnv = { env: {}, dropped: [] };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (policy.remove.includes(name)) {
      out.dropped.push(name);
      continue;
    }
    const why = defaultDrop(name, value);
    if (why === undefined || allowed(name)) out.env[name] = value;
    else out.dropped.push(name);
  }
  out.env = withGitSettings(out.env, commandSettings(policy.gitSettings));
  return out;
}
