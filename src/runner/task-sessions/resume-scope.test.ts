import { test } from "node:test";
import assert from "node:assert/strict";
import { resumeScopeProblem, sessionFolders } from "./resume-scope.ts";

const id = "20260101-000000-abcdef";

test("a session inside the caller's project may be resumed", () => {
  assert.equal(resumeScopeProblem(id, ["/src/a"], "/src/a"), undefined);
  assert.equal(resumeScopeProblem(id, ["/src/a/lib"], "/src/a"), undefined);
});

test("a session of another project, a parent or a prefix sibling is refused, naming both", () => {
  for (const folder of ["/src/b", "/src", "/src/a-other", "/"]) {
    const p = resumeScopeProblem(id, [folder], "/src/a");
    assert.equal(
      p,
      `cannot resume session ${id}: its folder ${folder} is outside this project (/src/a); ` +
        "resume it from that folder",
    );
  }
});

test("an isolated session belongs to its repository and to its worktree", () => {
  const worktree = { path: "/data/wt/x", branch: "xcsh/x", repo: "/src/b", base: "abc" };
  const folders = sessionFolders({ cwd: "/data/wt/x/sub", worktree });
  assert.deepEqual(folders, ["/src/b", "/data/wt/x/sub"]);
  assert.equal(resumeScopeProblem(id, folders, "/src/b"), undefined);
  assert.equal(resumeScopeProblem(id, folders, "/data/wt/x"), undefined);
  assert.match(resumeScopeProblem(id, folders, "/src/a")!, /its folder \/src\/b is outside/);
  assert.deepEqual(sessionFolders({ cwd: "/src/a" }), ["/src/a"]);
});
