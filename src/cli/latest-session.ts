/**
 * Which session `xcsh -p --continue` continues: the one last written to
 * among those whose task worked in this folder (its latest resume's folder,
 * else where it started), newest first by the file's modification time.
 * Files that cannot be read are passed over.
 *
 * @module
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { readSession, sessionPlace } from "../sessions/store.ts";
import { isValidId } from "../sessions/ids.ts";

/** The most sessions looked into before giving up. */
const MAX_LOOKED_AT = 500;

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The id of the newest session in `dir` that worked in `cwd`, or undefined. */
export function latestSessionIn(dir: string, cwd: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const dated: { id: string; at: number }[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const id = name.slice(0, -".jsonl".length);
    if (!isValidId(id)) continue;
    try {
      dated.push({ id, at: statSync(`${dir}/${name}`).mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  dated.sort((a, b) => b.at - a.at);
  const here = real(cwd);
  for (const { id } of dated.slice(0, MAX_LOOKED_AT)) {
    const read = readSession(dir, id);
    if (!read.ok) continue;
    const place = sessionPlace(read.header, read.records);
    if (real(place.cwd) === here || real(place.worktree?.repo ?? "") === here) return id;
  }
  return undefined;
}
