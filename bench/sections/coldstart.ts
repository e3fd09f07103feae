/**
 * Cold start: `dist/xcsh --version`, and `dist/xcsh agents --json` on a
 * ~60-file tree with and without the definition cache, against an empty
 * binary compiled with the same flags.
 *
 * @module
 */
import {
  buildEmptyBinary,
  cleanEnv,
  makeTree,
  requireXcsh,
  SEED,
  timedSync,
  XCSH,
} from "../measure.ts";
import { details, median, row } from "../report.ts";

export async function benchColdStart(): Promise<void> {
  requireXcsh();
  const tree = await makeTree("coldstart", {
    files: 40,
    plugins: 2,
    perPlugin: 10,
    depth: 5,
    seed: SEED,
  });
  const empty = buildEmptyBinary();
  const env = cleanEnv({ HOME: tree.home });
  // The cache lives in the tree's HOME (~/.cache/xcsh); the first run writes it.
  const agents = () => timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env });
  const uncachedEnv = { ...env, XCSH_CACHE: "off" };
  const uncached = () => timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env: uncachedEnv });
  const nothing = () => timedSync(empty, [], { cwd: tree.cwd, env });
  const version = () => timedSync(XCSH, ["--version"], { cwd: tree.cwd, env });
  const listed = JSON.parse(agents().stdout);
  nothing();
  version();
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < 25; i++) {
    a.push(agents().ms);
    b.push(nothing().ms);
    c.push(uncached().ms);
    v.push(version().ms);
  }
  row("cold start", "xcsh --version vs an empty binary", median(v), median(b), "ms", 2);
  row("cold start", "xcsh agents --json (60 files)", median(a), median(b), "ms", 2.5);
  row("cold start", "  the same with XCSH_CACHE=off", median(c), median(b), "ms", 3);
  details.coldstart = {
    files: tree.fileCount,
    agentsListed: Array.isArray(listed.agents) ? listed.agents.length : null,
    xcshMs: a,
    emptyMs: b,
    uncachedMs: c,
    versionMs: v,
  };
}
