import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  isInsideTrustedProject,
  isProjectTrusted,
  isTrusted,
  revokeProject,
  stateDirectory,
  trustProject,
  trustStoreFor,
} from "./trust.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-trust-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the store lives under XDG_STATE_HOME when absolute, else ~/.local/state", () => {
  assert.equal(stateDirectory({ XDG_STATE_HOME: "/s" }, "/h"), "/s/xcsh");
  assert.equal(stateDirectory({ XDG_STATE_HOME: "rel" }, "/h"), "/h/.local/state/xcsh");
  assert.equal(stateDirectory({}, ""), undefined);
});

test("a trusted file is trusted with its content only; revoking forgets it", () => {
  const store = trustStoreFor({ XDG_STATE_HOME: join(dir, "state") }, "")!;
  const project = join(dir, "p");
  mkdirSync(join(project, ".xcsh"), { recursive: true });
  const file = join(project, ".xcsh", "config.yml");
  writeFileSync(file, "a: 1\n");
  assert.equal(isTrusted(file, "a: 1\n", store), false);
  assert.equal(isProjectTrusted(project, store), false);
  trustProject(store, project, { path: file, content: "a: 1\n" });
  assert.equal(statSync(store.file).mode & 0o777, 0o600);
  assert.equal(isTrusted(file, "a: 1\n", store), true);
  assert.equal(isTrusted(file, new TextEncoder().encode("a: 1\n"), store), true);
  assert.equal(isTrusted(file, "a: 2\n", store), false);
  assert.equal(isProjectTrusted(project, store), true);
  assert.equal(isProjectTrusted(join(project, ".xcsh"), store), false, "no inheritance");
  assert.equal(isInsideTrustedProject(file, store), true);
  assert.equal(isInsideTrustedProject(project, store), true);
  assert.equal(isInsideTrustedProject(project + "-other/x.md", store), false);
  assert.equal(isInsideTrustedProject(dir, store), false);
  assert.equal(revokeProject(store, project), 2);
  assert.equal(isTrusted(file, "a: 1\n", store), false);
});

test("a broken store trusts nothing and does not throw", () => {
  const store = { file: join(dir, "broken.json") };
  writeFileSync(store.file, "{not json");
  assert.equal(isTrusted("/x", "", store), false);
  assert.equal(isProjectTrusted("/x", store), false);
});
