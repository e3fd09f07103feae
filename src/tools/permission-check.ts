/**
 * Whether one tool call passes the agent's permission rules (Claude Code's
 * syntax, read by `discovery/tool-entries.ts`), checked inside the tool
 * before it runs; a refusal is a tool error naming the rule.
 *
 * Deny rules (`disallowedTools`) are checked first and refuse a matching
 * call of every tool of their family. Allow rules (`tools`) restrict the
 * tool they grant: a call must match one of them.
 *
 * - `Bash(…)`: the command line is read into simple commands
 *   (`formats/shell-words.ts`: `&&`, `||`, `;`, `|`, subshells); every one must
 *   match an allow rule, and none may match a deny rule. `cmd:*` matches
 *   `cmd` and `cmd …` word by word, a pattern with `*` matches as a
 *   wildcard, anything else exactly. A line with anything the reader cannot
 *   follow (`$(…)`, backticks, `$VAR`, redirections to files, …) is refused
 *   when a rule applies, and so is a variable assignment before an allowed
 *   command (`PATH=… git status`). Deny rules also match from any word on
 *   (`sudo rm`, `xargs rm`), by the command's base name (`/bin/rm`) and in
 *   the words that are command lines themselves (`watch 'a; rm x'`); under
 *   a deny rule a command that hands text to a second shell reading
 *   (`bash -c`, `| sh`, `eval`, `source`) is refused, and under any rule a
 *   `git -c …` (`shell-rereading.ts` says which).
 * - `Read(…)` (read, grep, find, ls; `grep` also leaves out the files a
 *   deny rule covers as it walks) and `Edit(…)` (edit, write): a
 *   gitignore-style pattern: `//abs`, `~/in-home`, `/from-project-root`,
 *   `./from-cwd` or `from-cwd`; a pattern without `/` matches at any depth.
 *   Both the path as given and where its links lead are checked.
 * - `WebFetch(domain:host)`: the URL's host is the host or under it
 *   (`*.host` too), hosts and addresses compared in one form, and a deny
 *   rule that names an address also refuses a host resolving to it
 *   (`web/domain-rule.ts`); every redirect is checked again.
 *
 * @example
 * ```ts
 * bashRefusal({ allow: [{ text: "Bash(git status:*)", family: "bash", tool: "bash", pattern: "git status:*" }], deny: [] },
 *   "git status; rm -rf /");
 * // "'rm -rf /' is not allowed: this agent may run only Bash(git status:*)"
 * ```
 *
 * @module
 */
import { homedir } from "node:os";
import { basename, isAbsolute, resolve } from "node:path";
import { shellCommands } from "../formats/shell-words.ts";
import type { PermissionRule, PermissionRules } from "../types.ts";
import { realLocation } from "./confine.ts";
import { embeddedLines, gitConfigOption, secondReading } from "./shell-rereading.ts";
import { compileNodes } from "../fs/glob-match.ts";
import { parseGlob } from "../fs/glob-syntax.ts";
import type { ToolContext } from "./tool-spec.ts";
import { ruleCoversAddress, ruleCoversHost } from "./web/domain-rule.ts";

const squash = (s: string) => s.trim().replace(/\s+/g, " ");

/** The words of a command pattern, joined by single spaces (quotes removed where readable). */
function patternText(pattern: string): string {
  const parsed = shellCommands(pattern);
  if (parsed.ok && parsed.commands.length === 1 && parsed.commands[0].assignments.length === 0) {
    return parsed.commands[0].words.join(" ");
  }
  return squash(pattern);
}

function wildcard(pattern: string, orBare: boolean): RegExp {
  const body = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(
    "[\\s\\S]*",
  );
  if (orBare && pattern.endsWith(" *")) {
    const bare = pattern.slice(0, -2).split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[\\s\\S]*");
    return new RegExp(`^(?:${body}|${bare})$`);
  }
  return new RegExp(`^${body}$`);
}

/**
 * Whether the words of one simple command match a `Bash(…)` pattern. Deny
 * rules (`forDeny`) also let `cmd *` match a bare `cmd`.
 */
export function commandMatches(
  pattern: string,
  words: readonly string[],
  forDeny = false,
): boolean {
  const cmd = words.join(" ");
  if (pattern.endsWith(":*")) {
    const prefix = patternText(pattern.slice(0, -2));
    return cmd === prefix || cmd.startsWith(prefix + " ");
  }
  if (pattern.includes("*")) return wildcard(squash(pattern), forDeny).test(cmd);
  return cmd === patternText(pattern);
}

function denyMatches(rule: PermissionRule, words: readonly string[], depth = 0): boolean {
  // Text another program runs as a command line is checked as one too.
  if (depth < 4) {
    for (const line of embeddedLines(words)) {
      const inner = shellCommands(line);
      if (inner.ok && inner.commands.some((c) => denyMatches(rule, c.words, depth + 1))) {
        return true;
      }
    }
  }
  for (let k = 0; k < words.length; k++) {
    const rest = words.slice(k);
    if (commandMatches(rule.pattern, rest, true)) return true;
    const base = basename(rest[0]);
    if (base !== rest[0] && commandMatches(rule.pattern, [base, ...rest.slice(1)], true)) {
      return true;
    }
  }
  return false;
}

const list = (rules: readonly PermissionRule[]) => rules.map((r) => r.text).join(", ");

/** Why `command` may not run under `rules`, or undefined when it may. */
export function bashRefusal(rules: PermissionRules, command: string): string | undefined {
  const deny = rules.deny.filter((r) => r.family === "bash");
  const allow = rules.allow.filter((r) => r.tool === "bash");
  if (deny.length === 0 && allow.length === 0) return undefined;
  const parsed = shellCommands(command);
  if (!parsed.ok) {
    return `the command uses ${parsed.reason}, which xcsh cannot check against ${
      list([...allow, ...deny])
    }: write it as plain commands`;
  }
  for (const c of parsed.commands) {
    const hit = deny.find((r) => denyMatches(r, c.words));
    if (hit) return `'${c.words.join(" ")}' is refused by ${hit.text} (disallowedTools)`;
  }
  for (const c of parsed.commands) {
    const reread = deny.length > 0 ? secondReading(c.words) : undefined;
    if (reread) {
      return `'${c.words.join(" ")}' hands text to a second shell reading (${reread}), ` +
        `which xcsh cannot check against ${
          list(deny)
        } (disallowedTools): run the commands directly`;
    }
    const option = gitConfigOption(c.words);
    if (option) {
      return `'${c.words.join(" ")}' sets git configuration with ${option}, which can name ` +
        `programs git runs and which ${list([...allow, ...deny])} does not allow: ` +
        `run git without ${option}`;
    }
  }
  if (allow.length === 0) return undefined;
  for (const c of parsed.commands) {
    if (c.assignments.length > 0) {
      return `'${[...c.assignments, ...c.words].join(" ")}' sets a variable before the command, ` +
        `which ${list(allow)} does not allow`;
    }
    if (!allow.some((r) => commandMatches(r.pattern, c.words))) {
      return `'${c.words.join(" ")}' is not allowed: this agent may run only ${list(allow)}`;
    }
  }
  return undefined;
}

/** Where a path rule's pattern is anchored, as an absolute glob. */
export function absolutePattern(
  pattern: string,
  at: { cwd: string; projectRoot: string; home: string },
): string {
  let p = pattern.trim();
  let abs: string;
  if (p.startsWith("//")) abs = p.slice(1);
  else if (p === "~" || p.startsWith("~/")) abs = at.home + p.slice(1);
  else if (p.startsWith("/")) abs = at.projectRoot.replace(/\/$/, "") + p;
  else {
    p = p.replace(/^\.\//, "");
    const trimmed = p.replace(/\/$/, "");
    // gitignore: no slash (but a trailing one) matches at any depth.
    abs = at.cwd.replace(/\/$/, "") + (trimmed.includes("/") ? "/" : "/**/") + p;
  }
  if (abs.endsWith("/")) abs += "**";
  return abs;
}

function pathMatcher(glob: string): (p: string) => boolean {
  try {
    const m = compileNodes(parseGlob(glob));
    // A folder matches when the rule covers what is inside it.
    return (p) => m(p) || m(p.replace(/\/$/, "") + "/\u0000");
  } catch {
    return () => false;
  }
}

const PATH_FAMILY: Readonly<Record<string, "read" | "edit">> = {
  read: "read",
  grep: "read",
  find: "read",
  ls: "read",
  edit: "edit",
  write: "edit",
};

/** Why `tool` may not touch `paths` (as given and as resolved), or undefined. */
export function pathRefusal(
  rules: PermissionRules,
  tool: string,
  paths: readonly string[],
  at: { cwd: string; projectRoot: string; home: string },
): string | undefined {
  const family = PATH_FAMILY[tool];
  if (!family) return undefined;
  for (const rule of rules.deny.filter((r) => r.family === family)) {
    const m = pathMatcher(absolutePattern(rule.pattern, at));
    const hit = paths.find(m);
    if (hit) return `${hit} is refused by ${rule.text} (disallowedTools)`;
  }
  const allow = rules.allow.filter((r) => r.tool === tool);
  if (allow.length === 0) return undefined;
  const matchers = allow.map((r) => pathMatcher(absolutePattern(r.pattern, at)));
  const outside = paths.find((p) => !matchers.some((m) => m(p)));
  return outside
    ? `${outside} is not allowed: this agent may use ${tool} only on ${list(allow)}`
    : undefined;
}

/**
 * A test for the files a search walks into that a deny `Read(…)` rule
 * covers (grep leaves them out), or undefined when there are no such rules.
 */
export function readDenyFilter(
  rules: PermissionRules | undefined,
  at: { cwd: string; projectRoot: string; home: string },
): ((abs: string) => boolean) | undefined {
  const deny = (rules?.deny ?? []).filter((r) => r.family === "read");
  if (deny.length === 0) return undefined;
  const matchers = deny.map((r) => pathMatcher(absolutePattern(r.pattern, at)));
  return (abs) => matchers.some((m) => m(abs));
}

/** Where path rules are anchored for a tool running with `ctx`. */
export function ruleAnchors(
  ctx: Pick<ToolContext, "cwd" | "roots" | "env">,
): { cwd: string; projectRoot: string; home: string } {
  return { cwd: ctx.cwd, projectRoot: ctx.roots?.[0] ?? ctx.cwd, home: ctx.env.HOME || homedir() };
}

/**
 * Why fetching `url` is refused, or undefined. With `addresses` (what the
 * host resolved to, checked by `web_fetch` on every hop) a deny rule that
 * names one of them refuses too (`web/domain-rule.ts` compares).
 */
export function urlRefusal(
  rules: PermissionRules,
  url: URL,
  addresses: readonly string[] = [],
): string | undefined {
  const covers = (r: PermissionRule) => ruleCoversHost(r.pattern, url.hostname);
  const denied = rules.deny.find((r) => r.family === "web_fetch" && covers(r));
  if (denied) return `${url.href} is refused by ${denied.text} (disallowedTools)`;
  for (const r of rules.deny.filter((r) => r.family === "web_fetch")) {
    const at = addresses.find((a) => ruleCoversAddress(r.pattern, a));
    if (at) {
      return `${url.href} is refused by ${r.text} (disallowedTools): ${url.hostname} resolves to ${at}`;
    }
  }
  const allow = rules.allow.filter((r) => r.tool === "web_fetch");
  if (allow.length > 0 && !allow.some(covers)) {
    return `${url.href} is not allowed: this agent may fetch only ${list(allow)}`;
  }
  return undefined;
}

/** True when some rule could refuse a call of `tool`. */
export function rulesApply(rules: PermissionRules | undefined, tool: string): boolean {
  if (!rules) return false;
  const family = tool === "bash" ? "bash" : tool === "web_fetch" ? "web_fetch" : PATH_FAMILY[tool];
  return rules.deny.some((r) => r.family === family) || rules.allow.some((r) => r.tool === tool);
}

/**
 * Why this call of `tool` is refused by `rules`, or undefined. Paths are
 * resolved from `ctx.cwd`; the project root is `ctx.roots[0]`.
 */
export async function permissionRefusal(
  rules: PermissionRules,
  tool: string,
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, "cwd" | "roots" | "env">,
): Promise<string | undefined> {
  if (tool === "bash") return bashRefusal(rules, String(args.command ?? ""));
  if (tool === "web_fetch") {
    let url: URL;
    try {
      url = new URL(String(args.url ?? ""));
    } catch {
      return undefined; // the tool says what is wrong with it
    }
    return urlRefusal(rules, url);
  }
  if (!PATH_FAMILY[tool]) return undefined;
  const given = typeof args.path === "string" && args.path !== "" ? args.path : ".";
  const lexical = isAbsolute(given) ? resolve(given) : resolve(ctx.cwd, given);
  const real = await realLocation(lexical).catch(() => lexical);
  const at = ruleAnchors(ctx);
  return pathRefusal(rules, tool, real === lexical ? [lexical] : [lexical, real], at);
}
