/**
 * Builds the xcsh binary with `bun build --compile`.
 *
 *   bun scripts/build.ts          dist/xcsh for this machine (linux-x64 glibc here)
 *   bun scripts/build.ts --all    also every cross target, plus dist/SHA256SUMS
 *
 * Cross targets are fetched by Bun from the npm registry on first use.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { COMPILE_FLAGS } from "./build-flags.ts";

const CROSS_TARGETS = [
  "bun-linux-arm64",
  "bun-linux-x64-musl",
  "bun-darwin-arm64",
  "bun-darwin-x64",
  "bun-windows-x64",
];

function hostTarget(): string {
  return `bun-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
}

function build(target: string, outfile: string, cross: boolean): void {
  const args = [
    "build",
    ...COMPILE_FLAGS,
    // ESM with splitting keeps the code only some commands need (the child's
    // model loop, the MCP server) out of every start-up.
    "--format=esm",
    "--splitting",
    ...(cross ? [`--target=${target}`] : []),
    "--define",
    `XCSH_TARGET=${JSON.stringify(target)}`,
    "main.ts",
    // The workers' entry modules (started through src/runtime.ts workerModule).
    "src/tools/search/grep-worker.ts",
    "src/child/orphan-watch-worker.ts",
    "--outfile",
    outfile,
  ];
  const r = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`build failed for ${target}`);
    process.exit(r.status ?? 1);
  }
}

mkdirSync("dist", { recursive: true });
const all = process.argv.includes("--all");
const outputs: string[] = [];
build(hostTarget(), "dist/xcsh", false);
outputs.push("dist/xcsh");
if (all) {
  for (const t of CROSS_TARGETS) {
    const out = `dist/xcsh-${t.replace(/^bun-/, "")}${t.includes("windows") ? ".exe" : ""}`;
    build(t, out, true);
    outputs.push(out);
  }
  const sums = outputs.map((f) =>
    `${createHash("sha256").update(readFileSync(f)).digest("hex")}  ${f.replace(/^dist\//, "")}`
  );
  writeFileSync("dist/SHA256SUMS", sums.join("\n") + "\n");
  console.log(sums.join("\n"));
}
