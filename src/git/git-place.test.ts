// Which repository xcsh may run git on: the rule on a probe of a pretend
// disk, then on real folders made by real git.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import process from "node:process";
import { join } from "node:path";
import { coreWorktree, gitPlace, parseGitFile, type PlaceProbe, within } from "./git-place.ts";
import { DISK } from "./git.ts";

const FOLDER = 0o040755;
const FILE = 0o100644;

/** A pretend disk: paths to entries; no symlinks. */
function probe(
  entries: Record<
    string,
    { kind: "folder" | "file" | "link"; text?: string; uid?: number; mode?: number; to?: string }
  >,
): PlaceProbe {
  const norm = (p: string) => p.replace(/\/+$/, "").replace(/\/[^/]+\/\.\.(?=\/|$)/g, "");
  return {
    lstat: (p) => {
      const e = entries[norm(p)];
      const mode = e?.mode ?? (e?.kind === "folder" ? FOLDER : FILE);
      return e && { uid: e.uid ?? 0, mode, kind: e.kind };
    },
    names: (p) => {
      const dir = norm(p);
      if (entries[dir]?.kind !== "folder") return undefined;
      return Object.keys(entries).filter((k) =>
        k.startsWith(dir + "/") && !k.slice(dir.length + 1).includes("/")
      )
        .map((k) => k.slice(dir.length + 1));
    },
    realpath: (p) => {
      let n = p;
      for (let i = 0; i < 5; i++) n = norm(n);
      const to = entries[n]?.to;
      return to ? (entries[to] ? to : undefined) : entries[n] ? n : undefined;
    },
    readText: (p) => entries[norm(p)]?.text,
  };
}

describe("parseGitFile and within", () => {
  test("the gitdir line", () => {
    assert.equal(parseGitFile("gitdir: ../x/.git\n"), "../x/.git");
    assert.equal(parseGitFile("gitdir: /a b/c\r\n"), "/a b/c");
    assert.equal(parseGitFile("something else\n"), undefined);
  });
  test("inside a folder", () => {
    assert.equal(within("/p/a", "/p"), true);
    assert.equal(within("/p", "/p"), true);
    assert.equal(within("/pq", "/p"), false);
    assert.equal(within("/", "/p"), false);
  });
});

describe("coreWorktree", () => {
  test("the value in [core], not elsewhere", () => {
    assert.equal(
      coreWorktree("[core]\n\tbare = false\n\tworktree = ../../../lib\n"),
      "../../../lib",
    );
    assert.equal(coreWorktree('[core] worktree = "/a b"\n'), "/a b");
    assert.equal(coreWorktree("[other]\n\tworktree = /x\n[core]\n\tbare = false\n"), undefined);
    assert.equal(coreWorktree('[core]\n[remote "o"]\n\tworktree = /x\n'), undefined);
  });
});

describe("gitPlace on a pretend disk", () => {
  const base = {
    "/p": { kind: "folder" as const },
    "/other": { kind: "folder" as const },
    "/other/.git": { kind: "folder" as const },
  };
  test("a repository's own .git folder", () => {
    const r = gitPlace("/p", probe({ ...base, "/p/.git": { kind: "folder" } }));
    assert.deepEqual(r, { ok: true, workTree: "/p", gitDir: "/p/.git", commonDir: "/p/.git" });
  });
  test("no .git: absent", () => {
    const r = gitPlace("/p", probe(base));
    assert.ok(!r.ok && r.absent);
  });
  test("a .git file naming another repository is refused", () => {
    const r = gitPlace(
      "/p",
      probe({ ...base, "/p/.git": { kind: "file", text: "gitdir: ../other/.git\n" } }),
    );
    assert.ok(!r.ok && !r.absent);
    assert.match(r.ok ? "" : r.reason, /names a git folder outside the project \(\/other\/\.git\)/);
  });
  test("a git folder holding a symbolic link (an index of another repository) is refused", () => {
    const r = gitPlace(
      "/p",
      probe({
        ...base,
        "/p/.git": { kind: "folder" },
        "/p/.git/index": { kind: "link", to: "/other/.git/index" },
        "/other/.git/index": { kind: "file" },
      }),
    );
    assert.ok(!r.ok && /\/p\/\.git\/index is a symbolic link out of the repository/.test(r.reason));
  });
  test("a .git folder whose commondir is another repository is refused", () => {
    const r = gitPlace(
      "/p",
      probe({
        ...base,
        "/p/.git": { kind: "folder" },
        "/p/.git/commondir": { kind: "file", text: "/other/.git\n" },
      }),
    );
    assert.ok(!r.ok && /outside the project/.test(r.reason));
  });
  const linked = {
    ...base,
    "/wt": { kind: "folder" as const },
    "/wt/.git": { kind: "file" as const, text: "gitdir: /other/.git/worktrees/wt\n" },
    "/other/.git/worktrees": { kind: "folder" as const },
    "/other/.git/worktrees/wt": { kind: "folder" as const },
    "/other/.git/worktrees/wt/commondir": { kind: "file" as const, text: "../..\n" },
    "/other/.git/worktrees/wt/gitdir": { kind: "file" as const, text: "/wt/.git\n" },
  };
  test("a linked worktree whose git folder points back at it", () => {
    const r = gitPlace("/wt", probe(linked));
    assert.deepEqual(r, {
      ok: true,
      workTree: "/wt",
      gitDir: "/other/.git/worktrees/wt",
      commonDir: "/other/.git",
    });
    assert.ok(gitPlace("/wt", probe(linked), "/other/.git").ok);
    const wrong = gitPlace("/wt", probe(linked), "/elsewhere/.git");
    assert.ok(
      !wrong.ok && /no longer belongs to the repository \/elsewhere\/\.git/.test(wrong.reason),
    );
  });
  test("another worktree's git folder (its back link names another folder) is refused", () => {
    const r = gitPlace(
      "/p",
      probe({ ...linked, "/p/.git": { kind: "file", text: "gitdir: /other/.git/worktrees/wt\n" } }),
    );
    assert.ok(!r.ok && /outside the project/.test(r.reason));
  });
  const sub = {
    ...base,
    "/super": { kind: "folder" as const },
    "/super/.git": { kind: "folder" as const },
    "/super/.git/modules": { kind: "folder" as const },
    "/super/.git/modules/lib": { kind: "folder" as const },
    "/super/.git/modules/lib/config": {
      kind: "file" as const,
      text: "[core]\n\tworktree = ../../../lib\n",
    },
    "/super/lib": { kind: "folder" as const },
    "/super/lib/.git": { kind: "file" as const, text: "gitdir: ../.git/modules/lib\n" },
  };
  test("a submodule whose git folder names it as its work tree", () => {
    assert.deepEqual(gitPlace("/super/lib", probe(sub)), {
      ok: true,
      workTree: "/super/lib",
      gitDir: "/super/.git/modules/lib",
      commonDir: "/super/.git/modules/lib",
    });
    const r = gitPlace(
      "/p",
      probe({ ...sub, "/p/.git": { kind: "file", text: "gitdir: /super/.git/modules/lib\n" } }),
    );
    assert.ok(!r.ok && /outside the project/.test(r.reason), "another folder's submodule");
  });
  test("owner and mode: another user's .git, a group-writable git folder or config", () => {
    const other = gitPlace(
      "/p",
      probe({ ...base, "/p/.git": { kind: "folder", uid: 4242 } }),
      undefined,
    );
    // uid 0 runs this suite in CI; as another user the root-owned entries count as theirs too.
    if (process.getuid?.() !== 4242) {
      assert.ok(!other.ok && /owned by another user \(uid 4242\)/.test(other.reason));
    }
    const group = gitPlace("/p", probe({ ...base, "/p/.git": { kind: "folder", mode: 0o040775 } }));
    assert.ok(!group.ok && /writable by its group/.test(group.reason));
    const config = gitPlace(
      "/p",
      probe({
        ...base,
        "/p/.git": { kind: "folder" },
        "/p/.git/config": { kind: "file", mode: 0o100666 },
      }),
    );
    assert.ok(!config.ok && /config is writable by every user/.test(config.reason));
  });
});

describe("gitPlace on real folders", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-place-")));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd,
      encoding: "utf8",
    });
  test("a repository, its linked worktree, and a .git file repointed elsewhere", () => {
    const repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, "a"), "a\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "one");
    const r = gitPlace(repo, DISK);
    assert.ok(r.ok && r.gitDir === join(repo, ".git"));
    const wt = join(dir, "wt");
    git(repo, "worktree", "add", "-q", wt);
    const w = gitPlace(wt, DISK, join(repo, ".git"));
    assert.ok(w.ok && w.gitDir === join(repo, ".git", "worktrees", "wt"), JSON.stringify(w));
    const archive = join(dir, "archive");
    mkdirSync(archive);
    writeFileSync(join(archive, ".git"), "gitdir: ../repo/.git\n");
    const a = gitPlace(archive, DISK);
    assert.ok(!a.ok && /outside the project/.test(a.reason));
    chmodSync(join(repo, ".git"), 0o777);
    const loose = gitPlace(repo, DISK);
    assert.ok(!loose.ok && /writable by every user/.test(loose.reason));
    chmodSync(join(repo, ".git"), 0o755);
    const linkedIndex = join(dir, "linked-index");
    mkdirSync(linkedIndex);
    git(linkedIndex, "init", "-q");
    symlinkSync(join(repo, ".git", "index"), join(linkedIndex, ".git", "index"));
    const li = gitPlace(linkedIndex, DISK);
    assert.ok(!li.ok && /index is a symbolic link out of the repository/.test(li.reason));
    rmSync(join(linkedIndex, ".git", "index"));
    writeFileSync(join(linkedIndex, "kept-config"), "");
    symlinkSync(join(linkedIndex, "kept-config"), join(linkedIndex, ".git", "kept"));
    assert.ok(gitPlace(linkedIndex, DISK).ok, "a link inside the project is the project's");
  });
  const asRoot = process.getuid?.() === 0 ? false : "needs root to give files to another uid";
  test("another user's .git, as on disk (uid 4242)", { skip: asRoot }, () => {
    const theirs = join(dir, "theirs");
    mkdirSync(theirs);
    git(theirs, "init", "-q");
    execFileSync("chown", ["-R", "4242:4242", join(theirs, ".git")]);
    const r = gitPlace(theirs, DISK);
    assert.ok(
      !r.ok && /\.git is owned by another user \(uid 4242\)/.test(r.reason),
      JSON.stringify(r),
    );
    execFileSync("chown", ["-R", "0:0", join(theirs, ".git")]);
    execFileSync("chown", ["4242:4242", join(theirs, ".git", "config")]);
    const c = gitPlace(theirs, DISK);
    assert.ok(
      !c.ok && /config is owned by another user \(uid 4242\)/.test(c.reason),
      JSON.stringify(c),
    );
  });
  test("a submodule of a repository", () => {
    const lib = join(dir, "lib");
    mkdirSync(lib);
    git(lib, "init", "-q", "-b", "main");
    writeFileSync(join(lib, "l"), "l\n");
    git(lib, "add", ".");
    git(lib, "commit", "-q", "-m", "lib");
    const sup = join(dir, "super");
    mkdirSync(sup);
    git(sup, "init", "-q", "-b", "main");
    git(sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
    const r = gitPlace(join(sup, "lib"), DISK);
    assert.ok(r.ok && r.gitDir === join(sup, ".git", "modules", "lib"), JSON.stringify(r));
  });
});
