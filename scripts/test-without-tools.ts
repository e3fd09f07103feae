/**
 * Runs the end-to-end files that use bubblewrap, Slurm or unshare once more,
 * as on a machine that has none of them: PATH becomes a folder of links to
 * every program on PATH except those tools, and `XCSH_NO_BWRAP=1` (a
 * documented setting) hides bubblewrap's fixed locations from xcsh and from
 * the tests. Each test must pass or skip saying what it needs; none may fail.
 * Runs scripts/test.ts, so the last line is its `N passed, N failed`.
 *
 *   bun scripts/test-without-tools.ts [FILES...]   (default: every such file)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";

/** The tools a fresh machine may lack. */
const HIDDEN = new Set([
  "bwrap",
  "srun",
  "sbatch",
  "squeue",
  "scancel",
  "sinfo",
  "slurmd",
  "slurmctld",
  "munged",
  "unshare",
  "chroot",
]);

/** Files that use one of them. */
const USES = /\bbwrap|XCSH_NO_BWRAP|startSlurm|\bunshare\b/;

function filesUsingTools(): string[] {
  const dir = "tests/e2e";
  return readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => join(dir, f))
    .filter((f) => USES.test(readFileSync(f, "utf8"))).sort();
}

/** A folder of links to every program on `path` but the hidden ones (the first of a name wins). */
function pathWithout(path: string): string {
  const farm = mkdtempSync(join(tmpdir(), "xcsh-path-"));
  const seen = new Set<string>();
  for (const dir of path.split(delimiter).filter((d) => d.startsWith("/"))) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (HIDDEN.has(name) || seen.has(name)) continue;
      try {
        if (!statSync(join(dir, name)).isFile()) continue;
      } catch {
        continue;
      }
      seen.add(name);
      symlinkSync(join(dir, name), join(farm, name));
    }
  }
  return farm;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : filesUsingTools();
const farm = pathWithout(process.env.PATH ?? "/usr/bin:/bin");
console.log(`without ${[...HIDDEN].join(", ")}: ${files.join(" ")}`);
const child = spawn(process.execPath, ["scripts/test.ts", ...files], {
  stdio: "inherit",
  env: { ...process.env, PATH: farm, XCSH_NO_BWRAP: "1" },
});
child.on("close", (code) => {
  rmSync(farm, { recursive: true, force: true });
  process.exit(code ?? 1);
});
