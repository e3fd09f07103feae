/**
 * Discovery sections: warm and cold `discoverAgents` on a 2 200-file tree
 * against the raw-I/O floor, where the warm time goes, and how the cost grows
 * from 250 to 25 000 files.
 *
 * @module
 */
import { join } from "node:path";
import { rmSync } from "node:fs";
import type { Tree } from "../generate.ts";
import { rawFloor } from "../floor.ts";
import { agentOrigins, discoverAgents } from "../../src/discovery/discover.ts";
import { parseAgentFile } from "../../src/discovery/agent-file.ts";
import { definitionExtensions } from "../../src/discovery/config-dirs.ts";
import { readDefinitionFolder } from "../../src/discovery/read-files.ts";
import {
  alternate,
  buildBenchBinary,
  BUN,
  cleanEnv,
  discoveryEnv,
  makeTree,
  requireXcsh,
  ROOT,
  scratchDir,
  SEED,
  timedSync,
  XCSH,
} from "../measure.ts";
import { details, median, row } from "../report.ts";

export async function benchDiscovery(): Promise<void> {
  const tree = await makeTree("discovery", {
    files: 2000,
    plugins: 20,
    perPlugin: 10,
    depth: 30,
    seed: SEED,
  });
  const e = discoveryEnv(tree);
  const found = await discoverAgents(e);
  const floorCount = await rawFloor(tree);

  const warm = await alternate(() => discoverAgents(e), () => rawFloor(tree), 31, 5);
  row("discovery", "warm median (2 200 files)", median(warm.a), median(warm.b), "ms", 1.25);

  // Where the warm time goes: the same folders read by discovery's reader, and
  // the files it read parsed, each against the floor.
  const { origins } = agentOrigins(e);
  const readAll = () =>
    Promise.all(
      origins.map((o) => readDefinitionFolder(o.path, definitionExtensions(o.family))),
    );
  const read = await alternate(readAll, () => rawFloor(tree), 9, 1);
  const folders = await readAll();
  const parseAll = () => {
    folders.forEach((f, i) => f.files.forEach((file) => parseAgentFile(file, origins[i])));
    return Promise.resolve();
  };
  const parse = await alternate(parseAll, () => rawFloor(tree), 9, 1);
  row(
    "discovery",
    "  of which reading (readDefinitionFolder)",
    median(read.a),
    median(read.b),
    "ms",
    null,
  );
  row(
    "discovery",
    "  of which parsing (parseAgentFile)",
    median(parse.a),
    median(parse.b),
    "ms",
    null,
  );

  // Cold: the first call in a fresh process, code already loaded; with the
  // definition cache on disk (every run after the first) and without it.
  const cacheDir = join(scratchDir(), "discovery-cache");
  const once = (mode: string) => {
    const r = timedSync(BUN, [
      join(ROOT, "bench", "discovery-once.ts"),
      mode,
      join(scratchDir(), "discovery.json"),
      cacheDir,
    ], {
      env: cleanEnv({ HOME: tree.home }),
    });
    return JSON.parse(r.stdout) as { loadMs: number; firstMs: number; count: number };
  };
  const cold = {
    cached: [] as number[],
    uncached: [] as number[],
    floor: [] as number[],
    loadMs: [] as number[],
  };
  once("discover-cached"); // writes the cache
  for (let i = 0; i < 9; i++) {
    const d = once("discover-cached");
    cold.cached.push(d.firstMs);
    cold.loadMs.push(d.loadMs);
    cold.uncached.push(once("discover").firstMs);
    cold.floor.push(once("floor").firstMs);
  }
  row(
    "discovery",
    "  cold first call in-process, cache on disk",
    median(cold.cached),
    median(cold.floor),
    "ms",
    null,
  );
  row(
    "discovery",
    "  cold first call in-process, no cache",
    median(cold.uncached),
    median(cold.floor),
    "ms",
    null,
  );
  const processes = coldProcesses(tree);
  // The very first run on a machine, with no definition cache: shown for
  // information (every later run reads the cache; the warm row above and
  // `agents --json` in the cold-start section hold the targets).
  row(
    "discovery",
    "cold: agents --json, fresh process, no cache",
    median(processes.off),
    median(processes.floor),
    "ms",
    null,
  );
  row(
    "discovery",
    "first run: empty definition cache vs cache off",
    median(processes.empty),
    median(processes.off),
    "ms",
    1.1,
  );
  row(
    "discovery",
    "  later runs: cache on disk vs cache off",
    median(processes.warm),
    median(processes.off),
    "ms",
    null,
  );
  details.discovery = {
    files: tree.fileCount,
    bytes: tree.bytes,
    agents: found.agents.length,
    shadowed: found.shadowed.length,
    warnings: found.warnings.length,
    floorFilesRead: floorCount,
    warm,
    cold,
    processes,
  };
}

/**
 * Whole processes on the 2 200-file tree: `dist/xcsh agents --json` with the
 * cache off, with an empty cache folder (a first run: it fills it), and with
 * the cache on disk; against the same reads in a program compiled with the
 * same flags (bench/floor-once.ts). Alternated run by run.
 */
function coldProcesses(tree: Tree) {
  requireXcsh();
  const floorBin = buildBenchBinary("floor-once.ts", "floor-once");
  const treeFile = join(scratchDir(), "discovery.json");
  const env = cleanEnv({ HOME: tree.home });
  const warmDir = join(scratchDir(), "agents-cache");
  let fresh = 0;
  const agents = (extra: Record<string, string>) =>
    timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env: { ...env, ...extra } }).ms;
  const out = {
    off: [] as number[],
    empty: [] as number[],
    warm: [] as number[],
    floor: [] as number[],
  };
  agents({ XCSH_CACHE_DIR: warmDir });
  timedSync(floorBin, [treeFile], { env });
  for (let i = 0; i < 9; i++) {
    out.off.push(agents({ XCSH_CACHE: "off" }));
    const emptyDir = join(scratchDir(), `agents-cache-${fresh++}`);
    out.empty.push(agents({ XCSH_CACHE_DIR: emptyDir }));
    rmSync(emptyDir, { recursive: true, force: true });
    out.warm.push(agents({ XCSH_CACHE_DIR: warmDir }));
    out.floor.push(timedSync(floorBin, [treeFile], { env }).ms);
  }
  return out;
}

export async function benchScaling(): Promise<void> {
  const sizes = [250, 2500, 25000];
  const perSize: { files: number; ms: number; floorMs: number; runs: number[] }[] = [];
  for (const files of sizes) {
    const tree = await makeTree(`scaling-${files}`, {
      files,
      plugins: 0,
      perPlugin: 0,
      depth: 30,
      seed: SEED,
    });
    const e = discoveryEnv(tree);
    const n = files >= 25000 ? 5 : 9;
    const r = await alternate(() => discoverAgents(e), () => rawFloor(tree), n, 1);
    perSize.push({ files: tree.fileCount, ms: median(r.a), floorMs: median(r.b), runs: r.a });
    rmSync(tree.root, { recursive: true, force: true });
  }
  const [s, m, l] = perSize;
  for (const p of perSize) {
    row(
      "scaling",
      `${p.files.toLocaleString("en")} files: ms per 1000 files (vs floor)`,
      (p.ms / p.files) * 1000,
      (p.floorMs / p.files) * 1000,
      "ms",
      null,
    );
  }
  // Linear: the cost of each extra 1000 files stays flat from size to size.
  const slopeLow = ((m.ms - s.ms) / (m.files - s.files)) * 1000;
  const slopeHigh = ((l.ms - m.ms) / (l.files - m.files)) * 1000;
  row(
    "scaling",
    "ms per extra 1000 files, 2 500→25 000 vs 250→2 500",
    slopeHigh,
    slopeLow,
    "ms",
    1.5,
  );
  details.scaling = perSize;
}
