/**
 * `xcsh doctor`: shows everything discovery looked at — each folder searched
 * and whether it exists, every Claude plugin install and why it is in or out,
 * the settings and registry files read — plus the warnings, so a user can see
 * why an agent is or is not found.
 *
 * @module
 */
import process from "node:process";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK } from "./errors.ts";
import { displayPath, formatDiagnostic, printJson } from "./output.ts";
import { discoverAgents } from "../task/discovery.ts";
import { loadBundledAgents } from "../task/agents.ts";
import { buildTarget } from "../runtime.ts";
import pkg from "../../package.json" with { type: "json" };

const FLAGS = {
  json: { type: "boolean" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("doctor", args, FLAGS);
  if (values.help) {
    process.stdout.write("Usage: xcsh doctor [--json] [--cwd DIR]\n");
    return EXIT_OK;
  }
  const env = discoveryEnv(values.cwd);
  const found = await discoverAgents(env);
  if (values.json) {
    printJson({
      version: 1,
      xcsh: { version: pkg.version, build: buildTarget() },
      cwd: env.cwd,
      home: env.home,
      folders: found.folders,
      plugins: { files: found.plugins.files, installs: found.plugins.installs },
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
    const state = f.exists ? `${f.count} agent${f.count === 1 ? "" : "s"}` : "missing";
    out.push(`  ${label.padEnd(24)} ${displayPath(f.path).padEnd(50)} ${state}`);
  }
  out.push(
    `  ${"bundled".padEnd(24)} ${"(built in)".padEnd(50)} ${loadBundledAgents().length} agents`,
  );
  out.push("  (project folders: the nearest .xcsh/agents, .claude/agents, .codex/agents and");
  out.push("   .gemini/agents from cwd up to /, never in the home folder itself)", "");
  out.push("Claude plugin files:");
  for (const f of found.plugins.files) {
    out.push(`  ${displayPath(f.path).padEnd(60)} ${f.exists ? "read" : "missing"}`);
  }
  out.push("", "Claude plugin installs:");
  if (found.plugins.installs.length === 0) out.push("  (none)");
  for (const i of found.plugins.installs) {
    out.push(`  ${i.included ? "in " : "out"}  ${i.id} [${i.scope}] ${i.reason}`);
  }
  out.push("", `Agents: ${found.agents.length} available, ${found.shadowed.length} shadowed`);
  if (found.warnings.length > 0) {
    out.push("", "Warnings:");
    for (const w of found.warnings) out.push("  " + formatDiagnostic(w).replace(/^xcsh: /, ""));
  }
  process.stdout.write(out.join("\n") + "\n");
  return EXIT_OK;
}
