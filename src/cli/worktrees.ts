/**
 * `xcsh worktrees [--json]`, `xcsh worktrees rm ID`, `xcsh worktrees prune`:
 * the worktrees isolated tasks left because they changed something — list
 * them (id, branch, path, changed files), remove one (worktree and branch),
 * or remove every one that no longer holds a change and forget those whose
 * folder is gone.
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { requireDataDir } from "./data-dir.ts";
import { EXIT_OK, UsageError } from "./errors.ts";
import { formatTable, printJson } from "./output.ts";
import { worktreesDirectory } from "../sessions/paths.ts";
import { deleteWorktree, listWorktrees, pruneWorktrees } from "../git/worktree.ts";

const HELP = `Usage:
  xcsh worktrees [--json]   list the worktrees isolated tasks kept (they hold changes)
  xcsh worktrees rm ID      remove one: its folder and its branch
  xcsh worktrees prune      remove those without changes left; forget deleted folders
`;

export async function worktreesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("worktrees", args, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const dir = worktreesDirectory(requireDataDir("worktrees"));
  const [sub, id, ...extra] = positionals;
  if (sub === undefined) {
    const list = listWorktrees(dir);
    if (values.json) printJson({ version: 1, worktrees: list });
    else if (list.length === 0) writeOut("no kept worktrees\n");
    else {
      writeOut(formatTable(
        ["ID", "BRANCH", "PATH", "CHANGED"],
        list.map((w) => [w.id, w.branch, w.path, String(w.changed.length)]),
      ));
    }
    return EXIT_OK;
  }
  if (sub === "rm") {
    if (!id || extra.length > 0) throw new UsageError("worktrees rm: expected one worktree ID");
    const record = listWorktrees(dir).find((w) => w.id === id);
    if (!record) {
      throw new UsageError(
        `worktrees rm: no kept worktree '${id}'`,
        "Run 'xcsh worktrees' for the list.",
      );
    }
    await deleteWorktree(dir, record);
    writeOut(`removed worktree ${record.path} and branch ${record.branch}\n`);
    return EXIT_OK;
  }
  if (sub === "prune") {
    if (id !== undefined) throw new UsageError("worktrees prune: takes no argument");
    const removed = await pruneWorktrees(dir);
    for (const r of removed) writeOut(`removed ${r.id} (${r.branch})\n`);
    writeOut(`${removed.length} worktree(s) removed\n`);
    return EXIT_OK;
  }
  throw new UsageError(`worktrees: unknown subcommand '${sub}'`, "Run 'xcsh worktrees --help'.");
}
