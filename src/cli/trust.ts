/**
 * `xcsh trust [DIR]`, `xcsh trust --list`, `xcsh trust --revoke [DIR]`:
 * records, lists and forgets trusted projects.
 *
 * Trusting DIR finds the nearest `.xcsh/config.yml` at or above it (the one
 * `xcsh run` would read), shows what it sets that needs trust, and records
 * its real path and SHA-256 together with the project folder. A file someone
 * else could have written is refused. Without a config file the folder alone
 * is recorded.
 *
 * @module
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { writeErr, writeOut } from "../stdio.ts";
import { parseFlags } from "./args.ts";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./errors.ts";
import { displayPath, printJson } from "./output.ts";
import { homeDirectory } from "../home.ts";
import { findProjectConfig, parseConfigText } from "../config/load.ts";
import { withParsers } from "../discovery/parsers.ts";
import {
  contentHash,
  readTrustRecords,
  realPathOf,
  revokeProject,
  trustProject,
  trustStoreFor,
} from "../config/trust.ts";
import { restrictUntrusted } from "../config/untrusted.ts";
import { mergeConfigs } from "../config/validate.ts";
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipHint,
  ownershipProblem,
  readCappedSync,
} from "../file-safety.ts";
import { cleanText } from "../clean-text.ts";
import { BUILTIN_PROVIDERS } from "../model/providers.ts";

export const TRUST_HELP = `Usage:
  xcsh trust [DIR]            trust the project at DIR (default: the current folder)
  xcsh trust --list [--json]  list trusted projects and config files
  xcsh trust --revoke [DIR]   forget the project at DIR

A project's .xcsh/config.yml may set task limits and pick models without
trust. Keys that send a key somewhere or start a program (providers,
mcpServers) apply only once you trust the file; any change to it needs
trusting again. Records live in $XDG_STATE_HOME/xcsh/trusted.json
(default ~/.local/state/xcsh/trusted.json).
`;

const FLAGS = {
  list: { type: "boolean" },
  revoke: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The project folder DIR belongs to: the one holding the nearest `.xcsh/config.yml`. */
function projectOf(dir: string, home: string): { root: string; config?: string } {
  const config = findProjectConfig(dir, home);
  return config ? { root: resolve(config, "..", ".."), config } : { root: dir };
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
  const { root, config } = projectOf(dir, home);
  if (values.revoke) {
    const n = revokeProject(store, root);
    writeOut(n > 0 ? `Revoked trust in ${root}\n` : `${root} was not trusted\n`);
    return EXIT_OK;
  }
  if (!config) {
    trustProject(store, root);
    writeOut(`Trusted ${root} (it has no .xcsh/config.yml)\n`);
    return EXIT_OK;
  }
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
  const parsed = await withParsers(() => parseConfigText(text, config));
  if (!parsed.ok) {
    writeErr(`xcsh: error: ${config}: ${parsed.error.message} (fix it before trusting it)\n`);
    return EXIT_FAILURE;
  }
  trustProject(store, root, { path: config, content: read.bytes });
  const { dropped } = restrictUntrusted(
    parsed.value,
    new Set(Object.keys(BUILTIN_PROVIDERS)),
    mergeConfigs([]),
  );
  writeOut(
    `Trusted ${realPathOf(config)} (sha256 ${contentHash(read.bytes).slice(0, 12)})\n` +
      (dropped.length > 0 ? `It may now set: ${cleanText(dropped.join(", "))}\n` : ""),
  );
  return EXIT_OK;
}

function list(store: { file: string }, json: boolean): number {
  const records = readTrustRecords(store);
  const files = records.files.map((f) => {
    const r = readCappedSync(f.path, MAX_SETTINGS_FILE_BYTES);
    const state = !r.ok ? "missing" : contentHash(r.bytes) === f.sha256 ? "trusted" : "changed";
    return { ...f, state };
  });
  if (json) {
    printJson({ version: 1, store: store.file, projects: records.projects, files });
    return EXIT_OK;
  }
  if (records.projects.length === 0 && files.length === 0) {
    writeOut(`No trusted projects (${displayPath(store.file)})\n`);
    return EXIT_OK;
  }
  for (const p of records.projects) writeOut(`project  ${p.root}  (${p.trustedAt})\n`);
  for (const f of files) {
    writeOut(`config   ${f.path}  ${f.state}  sha256 ${f.sha256.slice(0, 12)}  (${f.trustedAt})\n`);
  }
  return EXIT_OK;
}
