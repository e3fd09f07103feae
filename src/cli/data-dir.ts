/**
 * The data folder as the CLI commands that read it see it: the user's xcsh
 * data folder, or a usage error when there is none.
 *
 * @module
 */
import process from "node:process";
import { homeDirectory } from "../fs/home.ts";
import { dataDirectory } from "../sessions/paths.ts";
import { UsageError } from "./errors.ts";

/** The data folder, or a {@link UsageError} naming `command`. */
export function requireDataDir(command: string): string {
  const data = dataDirectory(process.env, homeDirectory());
  if (!data) {
    throw new UsageError(`${command}: there is no data folder (no home folder; set XCSH_DATA_DIR)`);
  }
  return data;
}

/** Formats milliseconds as `12.3s`, `4m05s` or `2h07m`. Pure. */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
