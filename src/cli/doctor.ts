/**
 * `xcsh doctor`: shows everything discovery looked at — each folder searched
 * and whether it exists, every Claude plugin install and why it is in or out,
 * the settings and registry files read, the hooks that run and those skipped
 * (an untrusted project's, a bad file's) — plus the warnings, so a user can see
 * why an agent is or is not found.
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK } from "./errors.ts";
import { displayPath, formatTable, printJson } from "./output.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { loadBundledAgents } from "../discovery/bundled.ts";
import { loadConfig, userConfigPath } from "../config/load.ts";
import { modelReport, noUsableModel, providerReport } from "./doctor-models.ts";
import { buildTarget } from "../runtime.ts";
import { sandboxLines, sandboxReport } from "./doctor-sandbox.ts";
import pkg from "../../package.json" with { type: "json" };
import { discoverSkills } from "../discovery/skills.ts";
import { readSettingsHooks, settingsHookReport } from "../config/settings-hooks.ts";

const FLAGS = {
  json: { type: "boolean" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("doctor", args, FLAGS);
  if (values.help) {
    writeOut("Usage: xcsh doctor [--json] [--cwd DIR]\n");
    return EXIT_OK;
  }
  const env = discoveryEnv(values.cwd);
  const [found, loaded, skills] = await Promise.all([
    discoverAgents(env),
    loadConfig(env.cwd, env.home),
    discoverSkills(env),
  ]);
  const config = loaded.ok ? loaded.config : undefined;
  const settingsHooks = readSettingsHooks(env, undefined, found.plugins);
  const configHooks = Object.entries(config?.hooks ?? {}).map(([event, groups]) =>
    `${event}: ${(groups ?? []).reduce((n, g) => n + g.hooks.length, 0)}`
  );
  const models = config ? modelReport(config, env.env) : [];
  const providers = config ? providerReport(config, env.env) : [];
  const sandbox = config ? sandboxReport(config, env.cwd, env.home, env.env) : undefined;
  const noModel = config ? noUsableModel(models, providers) : undefined;
  const configInfo = {
    user: userConfigPath(env.home),
    files: loaded.files,
    ...(loaded.ok ? {} : { error: loaded.error }),
    warnings: loaded.warnings,
  };
  if (values.json) {
    printJson({
      version: 1,
      xcsh: { version: pkg.version, build: buildTarget() },
      cwd: env.cwd,
      home: env.home,
      folders: found.folders,
      skillFolders: skills.folders.map((f) => ({
        ...f,
        count: skills.skills.filter((s) => s.filePath.startsWith(f.path + "/")).length,
      })),
      skillWarnings: skills.warnings,
      plugins: { files: found.plugins.files, installs: found.plugins.installs },
      config: configInfo,
      hooks: {
        files: settingsHooks.sources.map(({ bytes: _b, ...s }) => s),
        config: configHooks,
        warnings: [...settingsHooks.warnings, ...settingsHooks.notes],
      },
      models,
      providers,
      ...(sandbox ? { sandbox } : {}),
      ...(noModel ? { noUsableModel: noModel } : {}),
      agents: found.agents.length,
      shadowed: found.shadowed.length,
      warnings: found.warnings,
    });
    return EXIT_OK;
  }
  const out: string[] = [];
  out.push(
    `xcsh ${pkg.version} (${buildTarget()})`,
    `cwd:  ${env.cwd}`,
    `home: ${env.home || "(none)"}`,
    "",
  );
  out.push("Agent folders, in precedence order:");
  for (const f of found.folders) {
    const label = f.plugin ? `plugin ${f.plugin}` : `${f.family} ${f.scope}`;
    const state = f.problem ??
      (f.exists ? `${f.count} agent${f.count === 1 ? "" : "s"}` : "missing");
    out.push(`  ${label.padEnd(24)} ${displayPath(f.path).padEnd(50)} ${state}`);
  }
  out.push(
    `  ${"bundled".padEnd(24)} ${"(built in)".padEnd(50)} ${
      (await loadBundledAgents()).length
    } agents`,
  );
  out.push("  (project folders: the nearest .xcsh/agents, .claude/agents, .codex/agents and");
  out.push("   .gemini/agents from cwd up to /, or below the home folder when cwd is in it;");
  out.push("   a folder another user owns, or that others may write, is ignored)", "");
  out.push("Skill folders, in precedence order:");
  for (const f of skills.folders) {
    const label = f.plugin ? `plugin ${f.plugin}` : `${f.family} ${f.source}`;
    const n = skills.skills.filter((s) => s.filePath.startsWith(f.path + "/")).length;
    const state = f.exists ? `${n} skill${n === 1 ? "" : "s"}` : "missing";
    out.push(`  ${label.padEnd(24)} ${displayPath(f.path).padEnd(50)} ${state}`);
  }
  // What was found and not loaded is named, never only left out of a count.
  const skipped = skills.warnings.filter((w) => w.message.startsWith("skipped:"));
  if (skipped.length > 0) {
    out.push(`  skipped ${skipped.length} (xcsh skills check says more):`);
    for (const w of skipped) out.push("    " + formatDiagnostic(w).replace(/^xcsh: /, ""));
  }
  if (skills.shadowed.length > 0) {
    out.push(
      `  hidden by a skill of the same name: ${
        skills.shadowed.map((s) => displayPath(s.agent.filePath)).join(", ")
      }`,
    );
  }
  out.push("");
  out.push("Claude plugin files:");
  for (const f of found.plugins.files) {
    out.push(`  ${displayPath(f.path).padEnd(60)} ${f.exists ? "read" : "missing"}`);
  }
  out.push("", "Claude plugin installs:");
  if (found.plugins.installs.length === 0) out.push("  (none)");
  for (const i of found.plugins.installs) {
    out.push(`  ${i.included ? "in " : "out"}  ${i.id} [${i.scope}] ${i.reason}`);
  }
  out.push("", "Config files (later ones override earlier):");
  if (loaded.files.length === 0) {
    out.push(`  (none; the user file would be ${displayPath(configInfo.user)})`);
  }
  for (const f of loaded.files) out.push(`  ${displayPath(f)}`);
  if (!loaded.ok) out.push("  " + formatDiagnostic(loaded.error).replace(/^xcsh: /, ""));
  for (const w of loaded.warnings) out.push("  " + formatDiagnostic(w).replace(/^xcsh: /, ""));
  out.push("", "Hooks, in the order they run (then each agent file's own):");
  out.push(...settingsHookReport(settingsHooks.sources));
  if (configHooks.length > 0) {
    out.push(`  ${"xcsh config".padEnd(22)} ${configHooks.join(", ")}`);
  }
  for (const w of [...settingsHooks.warnings, ...settingsHooks.notes]) {
    if (w.field === "hooks" || w.message.endsWith("not run")) continue;
    out.push("  " + formatDiagnostic(w).replace(/^xcsh: /, ""));
  }
  out.push("", "Models:");
  const indent = (table: string) => table.trimEnd().split("\n").map((l) => `  ${l}`);
  out.push(...indent(formatTable(
    ["setting", "value", "runs on"],
    models.map((m) => [
      m.name,
      m.value ?? "(not set)",
      m.problem ? `! ${m.problem}` : m.resolved ?? "",
    ]),
  )));
  out.push("", "Providers:");
  out.push(...indent(formatTable(
    ["provider", "type", "base URL", "status"],
    providers.map((p) => [p.name, p.type, p.baseURL, p.status]),
  )));
  if (noModel) out.push("", `warning: ${noModel}`);
  if (sandbox) out.push("", "Sandbox for bash:", ...sandboxLines(sandbox));
  out.push("", `Agents: ${found.agents.length} available, ${found.shadowed.length} shadowed`);
  if (found.warnings.length > 0) {
    out.push("", "Warnings:");
    for (const w of found.warnings) out.push("  " + formatDiagnostic(w).replace(/^xcsh: /, ""));
  }
  writeOut(out.join("\n") + "\n");
  return EXIT_OK;
}
