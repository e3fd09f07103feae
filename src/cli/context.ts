/**
 * The process facts a command works from: cwd (or `--cwd`), HOME and the
 * environment, gathered once at the edge so the rules below stay pure.
 *
 * @module
 */
import { statSync } from "node:fs";
import { homeDirectory } from "../fs/home.ts";
import { resolve } from "node:path";
import process from "node:process";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import { UsageError } from "./errors.ts";

/** Builds the discovery environment, validating `--cwd`. */
export function discoveryEnv(cwdFlag?: string): DiscoveryEnv {
  let cwd = process.cwd();
  if (cwdFlag !== undefined) {
    cwd = resolve(cwdFlag);
    let isDir = false;
    try {
      isDir = statSync(cwd).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new UsageError(`--cwd: not a folder: ${cwdFlag}`);
  }
  return { cwd, home: homeDirectory(), env: process.env };
}
