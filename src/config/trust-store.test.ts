import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  isInsideTrustedProject,
  isMcpServerApproved,
  isProjectTrusted,
  isTrusted,
  readTrustRecords,
  revokeProject,
  stateDirectory,
  trustProject,
  TrustStoreError,
  trustStoreFor,
  updateTrustRecords,
} from "./trust-store.ts";

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
  trustProject(store, project, { config: { path: file, content: "a: 1\n" } });
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

test("trust is pinned to the project: the same file reached from another project is untrusted", () => {
  const store = trustStoreFor({ XDG_STATE_HOME: join(dir, "state-pin") }, "")!;
  const trusted = join(dir, "trusted");
  const repo = join(dir, "repo");
  mkdirSync(join(trusted, ".xcsh"), { recursive: true });
  mkdirSync(join(repo, ".xcsh"), { recursive: true });
  const file = join(trusted, ".xcsh", "config.yml");
  writeFileSync(file, "a: 1\n");
  trustProject(store, trusted, { config: { path: file, content: "a: 1\n" } });
  const link = join(repo, ".xcsh", "config.yml");
  symlinkSync(file, link);
  assert.equal(isTrusted(file, "a: 1\n", store), true);
  assert.equal(isTrusted(link, "a: 1\n", store), false, "used from another project");
  // A folder link is no way around it either.
  const repo2 = join(dir, "repo2");
  mkdirSync(repo2);
  symlinkSync(join(trusted, ".xcsh"), join(repo2, ".xcsh"));
  assert.equal(isTrusted(join(repo2, ".xcsh", "config.yml"), "a: 1\n", store), false);
  // A record without a project (an older store) trusts nothing.
  const records = readTrustRecords(store);
  updateTrustRecords(store, () => ({
    ...records,
    files: records.files.map(({ project: _, ...f }) => f),
  }));
  assert.equal(isTrusted(file, "a: 1\n", store), false);
});

test("MCP approvals are by file, name and definition hash, for the project", () => {
  const store = trustStoreFor({ XDG_STATE_HOME: join(dir, "state-mcp") }, "")!;
  const project = join(dir, "mcp-proj");
  mkdirSync(project);
  const file = join(project, ".mcp.json");
  writeFileSync(file, "{}");
  trustProject(store, project, { mcpServers: [{ file, name: "fs", sha256: "h1" }] });
  assert.equal(isMcpServerApproved(file, "fs", "h1", store), true);
  assert.equal(isMcpServerApproved(file, "fs", "h2", store), false);
  assert.equal(isMcpServerApproved(file, "other", "h1", store), false);
  // Trusting again replaces what was approved.
  trustProject(store, project, {});
  assert.equal(isMcpServerApproved(file, "fs", "h1", store), false);
});

test("a store someone else could write trusts nothing, and cannot be changed", () => {
  const state = join(dir, "state-open");
  const store = trustStoreFor({ XDG_STATE_HOME: state }, "")!;
  const project = join(dir, "open-proj");
  mkdirSync(project);
  trustProject(store, project);
  assert.equal(isProjectTrusted(project, store), true);
  chmodSync(store.file, 0o666);
  assert.equal(isProjectTrusted(project, store), false, "a world-writable file");
  chmodSync(store.file, 0o600);
  chmodSync(join(state, "xcsh"), 0o777);
  assert.equal(isProjectTrusted(project, store), false, "a world-writable folder");
  assert.throws(() => trustProject(store, project), TrustStoreError);
  chmodSync(join(state, "xcsh"), 0o700);
  assert.equal(isProjectTrusted(project, store), true);
});

test("a lock that is not a file ends in an error, not an endless retry", {
  timeout: 120_000,
}, () => {
  const store = trustStoreFor({ XDG_STATE_HOME: join(dir, "state-lock-folder") }, "")!;
  const project = join(dir, "lock-folder-proj");
  mkdirSync(project);
  trustProject(store, project);
  // A folder where the lock file goes: it can be neither taken nor read.
  mkdirSync(`${store.file}.lock`);
  assert.throws(() => revokeProject(store, project), TrustStoreError);
  assert.equal(isProjectTrusted(project, store), true, "nothing was written");
});

test("a lock left by a process that is gone is taken over", () => {
  const store = trustStoreFor({ XDG_STATE_HOME: join(dir, "state-lock") }, "")!;
  const project = join(dir, "lock-proj");
  mkdirSync(project);
  trustProject(store, project);
  // pid 2^22 + 1 is above Linux's largest pid: no such process.
  writeFileSync(`${store.file}.lock`, `${2 ** 22 + 1} 2020-01-01T00:00:00Z\n`);
  revokeProject(store, project);
  assert.equal(isProjectTrusted(project, store), false);
  assert.throws(() => readFileSync(`${store.file}.lock`), /ENOENT/, "the lock is released");
});
