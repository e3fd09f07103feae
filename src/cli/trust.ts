/**
 * `xcsh trust [DIR]`, `xcsh trust --list`, `xcsh trust --revoke [DIR]`:
 * records, lists and forgets what the user trusts in a project.
 *
 * The project of DIR is the folder holding the nearest `.xcsh/config.yml`
 * at or above it (the one `xcsh run` would read), else DIR's project root
 * (`.git` or a marker folder). Trusting it shows and records, for that
 * project only:
 *
 * - its `.xcsh/config.yml` (real path and SHA-256), and what it may now set;
 * - its agent files that can start programs or loosen a setting (inline MCP
 *   servers, a sandbox other than read-only, a timeout or turn limit), each
 *   by real path and SHA-256;
 * - its `.claude/settings.json` and `.claude/settings.local.json` when they
 *   hold hooks (and a plugin's `hooks/hooks.json` inside it), each by real
 *   path and SHA-256;
 * - the servers of its `.mcp.json`, each approved by a hash of its
 *   definition (Claude Code's approval, kept in the user's state instead of
 *   the repository's `.claude/settings*.json`).
 *
 * Trusting again replaces the project's records: a file changed or added
 * since needs trusting again. A file someone else could have written is
 * refused, and so is a trust store that is not the user's own.
 *
 * @module
 */
import { statSync } from "node:fs";
import { resolve, sep } from "node:path";
import process from "node:process";
import { writeErr, writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./errors.ts";
import { displayPath, printJson } from "./output.ts";
import { homeDirectory } from "../fs/home.ts";
import { isInside } from "../fs/path-inside.ts";
import { findProjectConfig, parseConfigText } from "../config/load.ts";
import { parseOnDemand } from "../formats/full-parsers.ts";
import {
  contentHash,
  readTrustRecords,
  realPathOf,
  revokeProject,
  trustProject,
  type TrustStore,
  TrustStoreError,
  trustStoreFor,
  trustStoreProblem,
} from "../config/trust-store.ts";
import { restrictUntrusted } from "../config/untrusted.ts";
import { mergeConfigs } from "../config/validate.ts";
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipHint,
  ownershipProblem,
  readCappedSync,
} from "../fs/file-safety.ts";
import { cleanText } from "../text/clean-text.ts";
import { BUILTIN_PROVIDERS } from "../model/providers.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { MAX_AGENT_FILE_BYTES } from "../discovery/read-files.ts";
import { projectRoot } from "../sandbox/project-root.ts";
import { trustNeeds } from "../plan/agent-trust.ts";
import { readSettingsHooks } from "../config/settings-hooks.ts";
import { readProjectMcp, serverHash } from "../plan/project-mcp.ts";
import type { Diagnostic, McpServerDef } from "../types.ts";

export const TRUST_HELP = `Usage:
  xcsh trust [DIR]            trust the project at DIR (default: the current folder)
      --no-mcp                ... without approving the servers of its .mcp.json
  xcsh trust --list [--json]  list what is trusted
  xcsh trust --revoke [DIR]   forget the project at DIR

Until you trust a project, its files may only tighten your own settings: a
project's .xcsh/config.yml may lower task limits and pick models, but keys
that send a key somewhere or start a program (providers, mcpServers) wait;
its agent files may not loosen the sandbox, raise limits or start MCP
servers; the hooks of its .claude/settings.json and settings.local.json do
not run; and its .mcp.json servers do not start. Trusting records the config
file, those agent files and the .mcp.json servers by content, for this
project only: any change needs trusting again. Your own
~/.claude/settings.json may also approve .mcp.json servers by name
(enabledMcpjsonServers) in a project you trusted; the project's own
.claude/settings*.json never approve. Records live in
$XDG_STATE_HOME/xcsh/trusted.json (default ~/.local/state/xcsh/trusted.json).
`;

const FLAGS = {
  list: { type: "boolean" },
  revoke: { type: "boolean" },
  json: { type: "boolean" },
  "no-mcp": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * The project folder DIR belongs to: the one holding the nearest
 * `.xcsh/config.yml`, else its root; `refused` is the walk's warning about a
 * nearer config it ignored (another user's, or writable by others).
 */
function projectOf(
  dir: string,
  home: string,
): { root: string; config?: string; refused?: Diagnostic } {
  const warnings: Diagnostic[] = [];
  const config = findProjectConfig(dir, home, warnings);
  const refused = warnings[0];
  const root = config ? resolve(config, "..", "..") : projectRoot(dir, home);
  return { root, ...(config ? { config } : {}), ...(refused ? { refused } : {}) };
}

/** True when `path` lies in `root` (both compared by real path). */
function inside(path: string, root: string): boolean {
  return isInside(realPathOf(path), [realPathOf(root)]);
}

/** One line for a server definition. */
function describeServer(def: McpServerDef): string {
  return def.type === "stdio" ? [def.command, ...def.args].join(" ") : def.url;
}

export async function trustCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("trust", args, FLAGS);
  if (values.help) {
    writeOut(TRUST_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 1) {
    throw new UsageError("trust: expected at most one DIR", "Run 'xcsh trust --help' for usage.");
  }
  if (values.list && (values.revoke || positionals.length > 0)) {
    throw new UsageError("trust: --list takes no DIR and no --revoke");
  }
  if (values["no-mcp"] && (values.list || values.revoke)) {
    throw new UsageError("trust: --no-mcp goes with trusting a project, not --list or --revoke");
  }
  const home = homeDirectory();
  const store = trustStoreFor(process.env, home);
  if (!store) {
    throw new UsageError(
      "trust: no home folder and no XDG_STATE_HOME: there is nowhere to keep the records",
    );
  }
  if (values.list) return list(store, values.json === true);

  const dir = resolve(positionals[0] ?? process.cwd());
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`trust: not a folder: ${positionals[0]}`);
  }
  const { root, config, refused } = projectOf(dir, home);
  if (refused && !values.revoke) {
    writeErr(`xcsh: error: ${refused.file}: not trusted: ${refused.message}\n`);
    return EXIT_FAILURE;
  }
  try {
    if (values.revoke) {
      const n = revokeProject(store, root);
      writeOut(n > 0 ? `Revoked trust in ${root}\n` : `${root} was not trusted\n`);
      return EXIT_OK;
    }
    return await trust(store, { dir, root, config, home, mcp: values["no-mcp"] !== true });
  } catch (err) {
    if (!(err instanceof TrustStoreError)) throw err;
    writeErr(`xcsh: error: ${err.message}\n`);
    return EXIT_FAILURE;
  }
}

async function trust(
  store: TrustStore,
  { dir, root, config, home, mcp: approveMcp }: {
    dir: string;
    root: string;
    config: string | undefined;
    home: string;
    /** False with --no-mcp: the .mcp.json servers are listed, not approved. */
    mcp: boolean;
  },
): Promise<number> {
  const out: string[] = [];
  let configRecord: { path: string; content: Uint8Array } | undefined;
  if (config) {
    const read = readCappedSync(config, MAX_SETTINGS_FILE_BYTES);
    if (!read.ok) {
      writeErr(`xcsh: error: ${config}: ${read.reason}\n`);
      return EXIT_FAILURE;
    }
    const problem = ownershipProblem(read.info);
    if (problem) {
      writeErr(
        `xcsh: error: ${config}: not trusted: ${problem}; ${ownershipHint(problem, config)}\n`,
      );
      return EXIT_FAILURE;
    }
    const text = read.bytes.toString("utf8");
    const checked = await parseOnDemand(() => parseConfigText(text, config));
    if (!checked.ok) {
      writeErr(`xcsh: error: ${config}: ${checked.error.message} (fix it before trusting it)\n`);
      return EXIT_FAILURE;
    }
    configRecord = { path: config, content: read.bytes };
    const { dropped } = restrictUntrusted(
      checked.value,
      new Set(Object.keys(BUILTIN_PROVIDERS)),
      mergeConfigs([]),
    );
    out.push(
      `Trusted ${realPathOf(config)} (sha256 ${contentHash(read.bytes).slice(0, 12)})\n`,
      ...(dropped.length > 0 ? [`It may now set: ${cleanText(dropped.join(", "))}\n`] : []),
    );
  } else out.push(`Trusted ${root} (it has no .xcsh/config.yml)\n`);

  // Agent files of this project that start programs or loosen a setting.
  const env = { cwd: dir, home, env: process.env };
  const found = await discoverAgents(env);
  const agentFiles: { path: string; content: Uint8Array }[] = [];
  for (const agent of [...found.agents, ...found.shadowed.map((s) => s.agent)]) {
    if (agent.source !== "project" || !agent.filePath || !inside(agent.filePath, root)) continue;
    const needs = trustNeeds(agent);
    if (needs.length === 0 || agentFiles.some((f) => f.path === agent.filePath)) continue;
    const read = readCappedSync(agent.filePath, MAX_AGENT_FILE_BYTES);
    if (!read.ok || ownershipProblem(read.info)) {
      out.push(
        `Not trusted: ${agent.filePath} (${read.ok ? ownershipProblem(read.info) : read.reason})\n`,
      );
      continue;
    }
    agentFiles.push({ path: agent.filePath, content: read.bytes });
    out.push(
      `Trusted agent file ${agent.filePath} (sha256 ${contentHash(read.bytes).slice(0, 12)}): ` +
        `${cleanText(needs.join(", "))}\n`,
    );
  }

  // The project's Claude Code settings files (and plugin hooks files in it) that hold hooks.
  const hookFiles: { path: string; content: Uint8Array }[] = [];
  const settings = readSettingsHooks(env, () => false, found.plugins);
  for (const s of settings.sources) {
    if (!s.project || !inside(s.file, root)) continue;
    if (!s.bytes) {
      out.push(`Not trusted: ${s.file} (${cleanText(s.reason ?? "")})\n`);
      continue;
    }
    hookFiles.push({ path: s.file, content: s.bytes });
    out.push(
      `Trusted hooks of ${s.file} (sha256 ${contentHash(s.bytes).slice(0, 12)})\n`,
    );
  }

  // The project's .mcp.json servers, approved by definition.
  const mcp = readProjectMcp(dir, home, process.env);
  for (const w of mcp.warnings) writeErr(`xcsh: warning: ${w.file}: ${w.message}\n`);
  const mcpServers: { file: string; name: string; sha256: string }[] = [];
  const names = Object.keys(mcp.servers);
  if (mcp.file && names.length > 0) {
    if (!approveMcp) {
      out.push(
        `Not approved (--no-mcp): the MCP servers of ${mcp.file}: ${cleanText(names.join(", "))}\n`,
      );
    } else if (inside(mcp.file, root)) {
      out.push(`Approved MCP servers of ${mcp.file}:\n`);
      for (const name of names) {
        const def = mcp.servers[name];
        mcpServers.push({ file: mcp.file, name, sha256: serverHash(def) });
        out.push(`  ${cleanText(name)}: ${cleanText(describeServer(def))}\n`);
      }
    } else {
      out.push(`Not approved: the MCP servers of ${mcp.file}, outside ${root}\n`);
    }
  }
  trustProject(store, root, {
    ...(configRecord ? { config: configRecord } : {}),
    agentFiles,
    mcpServers,
    hookFiles,
  });
  writeOut(out.join(""));
  return EXIT_OK;
}

function list(store: TrustStore, json: boolean): number {
  const problem = trustStoreProblem(store);
  if (problem) {
    writeErr(`xcsh: warning: the trust store is ignored: ${problem}\n`);
  }
  const records = readTrustRecords(store);
  const files = records.files.map((f) => {
    const r = readCappedSync(f.path, MAX_SETTINGS_FILE_BYTES);
    const state = !r.ok ? "missing" : contentHash(r.bytes) === f.sha256 ? "trusted" : "changed";
    return { ...f, state };
  });
  if (json) {
    printJson({
      version: 1,
      store: store.file,
      projects: records.projects,
      files,
      mcpServers: records.mcpServers,
    });
    return EXIT_OK;
  }
  if (records.projects.length === 0 && files.length === 0) {
    writeOut(`No trusted projects (${displayPath(store.file)})\n`);
    return EXIT_OK;
  }
  for (const p of records.projects) writeOut(`project  ${p.root}  (${p.trustedAt})\n`);
  for (const f of files) {
    const kind = f.path.endsWith(`${sep}.xcsh${sep}config.yml`)
      ? "config "
      : f.path.endsWith(".json")
      ? "hooks  "
      : "agent  ";
    writeOut(`${kind}  ${f.path}  ${f.state}  sha256 ${f.sha256.slice(0, 12)}  (${f.trustedAt})\n`);
  }
  for (const m of records.mcpServers) {
    writeOut(`mcp      ${m.file}  ${m.name}  sha256 ${m.sha256.slice(0, 12)}  (${m.trustedAt})\n`);
  }
  return EXIT_OK;
}
