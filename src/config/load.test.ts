import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectConfig, loadConfig, userConfigPath } from "./load.ts";
import { trustProject, trustStoreFor } from "./trust-store.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-config-"));
after(() => rmSync(root, { recursive: true, force: true }));

function put(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("loadConfig", () => {
  const home = join(root, "home");
  const project = join(home, "code", "proj");
  const sub = join(project, "src", "deep");
  mkdirSync(sub, { recursive: true });
  const user = put(
    userConfigPath(home),
    "task:\n  maxConcurrency: 3\n  timeout: 60\nmodels:\n  default: a/b\n",
  );
  const proj = put(join(project, ".xcsh", "config.yml"), "task:\n  timeout: 5\n");
  // $HOME/.xcsh/config.yml is never a project config.
  put(join(home, ".xcsh", "config.yml"), "task:\n  timeout: 999\n");

  test("user config, then the nearest project config, key by key", async () => {
    const r = await loadConfig(sub, home);
    assert.ok(r.ok);
    assert.deepEqual(r.files, [user, proj]);
    assert.equal(r.config.task.maxConcurrency, 3);
    assert.equal(r.config.task.timeout, 5);
    assert.equal(r.config.models.default, "a/b");
  });

  test("the home folder's .xcsh/config.yml is skipped", async () => {
    assert.equal(await findProjectConfig(join(home, "code"), home), undefined);
    const r = await loadConfig(join(home, "code"), home);
    assert.ok(r.ok);
    assert.deepEqual(r.files, [user]);
    assert.equal(r.config.task.timeout, 60);
  });

  test("no files at all give the defaults", async () => {
    const r = await loadConfig(join(root, "elsewhere"), join(root, "nohome"));
    assert.ok(r.ok);
    assert.deepEqual(r.files, []);
    assert.equal(r.config.task.maxConcurrency, 8);
  });

  test("bad YAML names the file and the line", async () => {
    const h = join(root, "h2");
    const f = put(userConfigPath(h), "task:\n  timeout: [1,\n");
    const r = await loadConfig(join(root, "elsewhere"), h);
    assert.ok(!r.ok);
    assert.equal(r.error.file, f);
    assert.match(r.error.message, /not valid YAML \(line \d+/);
  });

  test("a provider without a type is an error naming the key", async () => {
    const h = join(root, "h3");
    put(userConfigPath(h), "providers:\n  mine:\n    baseURL: http://x/v1\n");
    const r = await loadConfig(join(root, "elsewhere"), h);
    assert.ok(!r.ok);
    assert.equal(r.error.field, "providers.mine.type");
    assert.equal(r.error.file, userConfigPath(h));
  });

  test("a built-in provider may be adjusted without a type", async () => {
    const h = join(root, "h4");
    put(userConfigPath(h), "providers:\n  ollama:\n    baseURL: http://gpu:11434/v1\n");
    const r = await loadConfig(join(root, "elsewhere"), h);
    assert.ok(r.ok);
    assert.equal(r.config.providers.ollama.baseURL, "http://gpu:11434/v1");
  });

  test("unknown keys come back as warnings", async () => {
    const h = join(root, "h5");
    put(userConfigPath(h), "modles:\n  default: a/b\n");
    const r = await loadConfig(join(root, "elsewhere"), h);
    assert.ok(r.ok);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0].message, /unknown key 'modles'/);
  });
});

test("without a home folder: no user config, and cwd's own config still counts", async () => {
  const dir = join(root, "homeless");
  const own = put(join(dir, ".xcsh", "config.yml"), "task:\n  timeout: 7\n");
  const r = await loadConfig(dir, "");
  assert.ok(r.ok);
  assert.deepEqual(r.files, [own]);
  assert.equal(r.config.task.timeout, 7);
});

test("a config path that is a FIFO or a folder is an error naming it, not a hang", async () => {
  for (const kind of ["fifo", "folder"]) {
    const home = join(root, `odd-${kind}`);
    const path = userConfigPath(home);
    mkdirSync(join(path, ".."), { recursive: true });
    if (kind === "fifo") assert.equal(spawnSync("mkfifo", [path]).status, 0, "mkfifo");
    else mkdirSync(path);
    const r = await loadConfig(join(root, "nowhere"), home);
    assert.ok(!r.ok, kind);
    assert.equal(r.error.file, path);
    assert.equal(r.error.message, "cannot be read: not a regular file");
  }
});

test("task.allowEnv: the user's list applies; a project's, trusted or not, only narrows it", async () => {
  const home = join(root, "env-home");
  const project = join(home, "code", "proj");
  mkdirSync(project, { recursive: true });
  const env = { XDG_STATE_HOME: join(root, "env-state") };
  put(userConfigPath(home), "task:\n  allowEnv: [GITHUB_TOKEN, 'AWS_*']\n");
  const proj = put(
    join(project, ".xcsh", "config.yml"),
    "task:\n  allowEnv: [NPM_TOKEN, 'AWS_*']\n",
  );
  const untrusted = await loadConfig(project, home, env);
  assert.ok(untrusted.ok);
  assert.deepEqual(untrusted.config.task.allowEnv, ["AWS_*"]);
  assert.deepEqual(untrusted.warnings, [], "narrowing needs no trust");
  trustProject(trustStoreFor(env, home)!, project, {
    config: { path: proj, content: "task:\n  allowEnv: [NPM_TOKEN, 'AWS_*']\n" },
  });
  const trusted = await loadConfig(project, home, env);
  assert.ok(trusted.ok);
  assert.deepEqual(trusted.config.task.allowEnv, ["AWS_*"], "trust does not widen it");
  const alone = await loadConfig(project, join(root, "no-such-home"), env);
  assert.ok(alone.ok);
  assert.deepEqual(alone.config.task.allowEnv, [], "no user config: nothing allowed");
});
