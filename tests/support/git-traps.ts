/**
 * Repositories that would run programs if git followed them: a committed
 * repository whose `.git/config` sets `core.fsmonitor`, a filter driver
 * (`clean`, `smudge`) and a diff `textconv` for every `*.txt`, includes a
 * file setting `core.sshCommand`, and whose hooks (`post-checkout`,
 * `reference-transaction`, `post-index-change`) are scripts. Each program
 * writes `ran-<name>` (its environment) into the marks folder.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

const PATH = process.env.PATH ?? "/usr/bin:/bin";

/** A script that records that it ran (and its environment), then copies stdin to stdout. */
export function trap(marks: string, name: string): string {
  const path = join(marks, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\nenv > "${marks}/ran-${name}"\ncat\n`, { mode: 0o755 });
  return path;
}

/** A committed repository whose config and hooks would run programs. */
export function trappedRepo(
  root: string,
  repo = join(root, "repo"),
  marks = join(root, "marks"),
): { repo: string; marks: string } {
  mkdirSync(repo, { recursive: true });
  mkdirSync(marks, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: repo,
      env: { PATH, HOME: root },
    });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil diff=evil\n");
  writeFileSync(join(repo, "a.txt"), "a\n");
  git("add", ".");
  git("commit", "-q", "-m", "one");
  writeFileSync(join(marks, "included"), `[core]\n\tsshCommand = ${trap(marks, "ssh")}\n`);
  execFileSync("sh", [
    "-c",
    `cat >> .git/config <<'EOF'
[core]
	fsmonitor = ${trap(marks, "fsmonitor")}
[filter "evil"]
	clean = ${trap(marks, "clean")}
	smudge = ${trap(marks, "smudge")}
[diff "evil"]
	textconv = ${trap(marks, "textconv")}
[include]
	path = ${join(marks, "included")}
EOF`,
  ], { cwd: repo });
  for (const hook of ["post-checkout", "reference-transaction", "post-index-change"]) {
    writeFileSync(join(repo, ".git", "hooks", hook), `#!/bin/sh\nenv > "${marks}/ran-${hook}"\n`, {
      mode: 0o755,
    });
  }
  // Same size, new content: status must hash it, through the clean filter.
  writeFileSync(join(repo, "a.txt"), "b\n");
  return { repo, marks };
}

/** The programs that ran, by name. */
export const ran = (marks: string): string[] =>
  readdirSync(marks).filter((f) => f.startsWith("ran-")).sort();
