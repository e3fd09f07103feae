import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { commandEnvironment, defaultDrop, narrowAllowList } from "./command-env.ts";

const env = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/me",
  LANG: "C.UTF-8",
  GIT_AUTHOR_NAME: "Me",
  PWD: "/home/me/app",
  ANTHROPIC_API_KEY: "sk-ant-0123456789",
  GITHUB_TOKEN: "ghp_abcdefghijklmnop",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG",
  npm_config__authToken: "npm-0123456789",
  PGPASSWORD: "hunter2hunter2",
  MYSQL_PWD: "mysqlpass99",
  DATABASE_URL: "postgres://app:pw0rd@db.internal:5432/app",
  REPO_URL: "ssh://git@github.com/o/r.git",
  DEPLOY_PEM: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n",
  SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
  DISPLAY: ":0",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
  XDG_RUNTIME_DIR: "/run/user/1000",
  PODMAN_SOCKET: "/run/podman.sock",
  UNSET: undefined,
};
const remove = ["ANTHROPIC_API_KEY"];

describe("the environment of commands", () => {
  test("a user's own git settings stay, before the fixed ones", () => {
    const r = commandEnvironment({
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_VALUE_0: "Me",
    }, { remove: [], allow: [] });
    assert.equal(r.env.GIT_CONFIG_KEY_0, "user.name");
    assert.equal(r.env.GIT_CONFIG_VALUE_0, "Me");
    assert.equal(r.env.GIT_CONFIG_KEY_1, "core.hooksPath");
    assert.equal(r.env.GIT_CONFIG_COUNT, "4");
    assert.deepEqual(r.dropped, []);
  });
  test("the default keeps ordinary variables and drops keys, secrets and sockets", () => {
    const r = commandEnvironment(env, { remove, allow: [] });
    assert.deepEqual(r.env, {
      PATH: "/usr/bin:/bin",
      HOME: "/home/me",
      LANG: "C.UTF-8",
      GIT_AUTHOR_NAME: "Me",
      PWD: "/home/me/app",
      REPO_URL: "ssh://git@github.com/o/r.git",
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_0: "core.hooksPath",
      GIT_CONFIG_VALUE_0: "/dev/null",
      GIT_CONFIG_KEY_1: "core.fsmonitor",
      GIT_CONFIG_VALUE_1: "false",
      GIT_CONFIG_KEY_2: "submodule.recurse",
      GIT_CONFIG_VALUE_2: "false",
    });
    assert.deepEqual(r.dropped, [
      "ANTHROPIC_API_KEY",
      "GITHUB_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "npm_config__authToken",
      "PGPASSWORD",
      "MYSQL_PWD",
      "DATABASE_URL",
      "DEPLOY_PEM",
      "SSH_AUTH_SOCK",
      "DISPLAY",
      "DBUS_SESSION_BUS_ADDRESS",
      "XDG_RUNTIME_DIR",
      "PODMAN_SOCKET",
    ]);
  });

  test("a variable is dropped by its value alone: a key shape, URL credentials", () => {
    const r = commandEnvironment({
      SERVICE_ID: "ghp_" + "A1b2C3d4E5".repeat(4),
      DEPLOY_HOOK: "https://ci:hook-pass-12@ci.internal/deploy",
      SITE: "https://example.com/docs",
    }, { remove: [], allow: [] });
    assert.deepEqual(r.dropped, ["SERVICE_ID", "DEPLOY_HOOK"]);
    const own = Object.entries(r.env).filter(([name]) => !name.startsWith("GIT_CONFIG_"));
    assert.deepEqual(Object.fromEntries(own), { SITE: "https://example.com/docs" });
  });

  test("names the shared rule marks: DB_CREDENTIAL, SMTP_PASS, NPM_AUTH", () => {
    const r = commandEnvironment(
      { DB_CREDENTIAL: "x", SMTP_PASS: "y", NPM_AUTH: "z", GIT_ASKPASS: "/bin/a", AUTHOR: "me" },
      { remove: [], allow: [] },
    );
    assert.deepEqual(r.dropped, ["DB_CREDENTIAL", "SMTP_PASS", "NPM_AUTH"]);
  });

  test("the user's allow-list keeps a variable (patterns too), never a provider key", () => {
    const r = commandEnvironment(env, {
      remove,
      allow: ["GITHUB_TOKEN", "AWS_*", "SSH_AUTH_SOCK", "ANTHROPIC_API_KEY"],
    });
    assert.equal(r.env.GITHUB_TOKEN, env.GITHUB_TOKEN);
    assert.equal(r.env.AWS_SECRET_ACCESS_KEY, env.AWS_SECRET_ACCESS_KEY);
    assert.equal(r.env.SSH_AUTH_SOCK, env.SSH_AUTH_SOCK);
    assert.equal(r.env.ANTHROPIC_API_KEY, undefined);
    assert.equal(r.env.DATABASE_URL, undefined);
    assert.equal(
      commandEnvironment(env, { remove, allow: ["GITHUB"] }).env.GITHUB_TOKEN,
      undefined,
    );
    assert.equal(
      commandEnvironment(env, { remove, allow: ["github_token"] }).env.GITHUB_TOKEN,
      undefined,
    );
  });

  test("a project's list only narrows the user's: it keeps nothing the user did not allow", () => {
    const user = ["GITHUB_TOKEN", "AWS_*", "SSH_AUTH_SOCK"];
    assert.deepEqual(narrowAllowList(user, ["AWS_PROFILE_*", "NPM_TOKEN", "GITHUB_*"]), [
      "AWS_PROFILE_*",
      "GITHUB_TOKEN",
    ]);
    assert.deepEqual(narrowAllowList(user, ["*"]), user, "everything: the user's list");
    assert.deepEqual(narrowAllowList([], ["GITHUB_TOKEN", "*"]), [], "nothing from nothing");
    assert.deepEqual(narrowAllowList(["*"], ["NPM_TOKEN"]), ["NPM_TOKEN"]);
    assert.deepEqual(narrowAllowList(["AWS_KEY"], ["AWS_KEY*"]), ["AWS_KEY"]);
    assert.deepEqual(narrowAllowList(["AWS_KEY*"], ["AWS_KEY"]), ["AWS_KEY"]);
    assert.deepEqual(narrowAllowList(["AWS_KEY"], ["AWS_KEYS"]), []);
    const narrowed = commandEnvironment(env, {
      remove,
      allow: narrowAllowList(["GITHUB_TOKEN", "AWS_*"], ["AWS_*", "DISPLAY"]),
    });
    assert.equal(narrowed.env.GITHUB_TOKEN, undefined);
    assert.equal(narrowed.env.DISPLAY, undefined);
    assert.equal(narrowed.env.AWS_SECRET_ACCESS_KEY, env.AWS_SECRET_ACCESS_KEY);
  });

  test("why a variable goes", () => {
    assert.equal(defaultDrop("STRIPE_API_KEY", "x"), "secret");
    assert.equal(defaultDrop("HTTP_PROXY", "http://u:p@proxy:3128"), "secret");
    assert.equal(defaultDrop("HTTP_PROXY", "http://proxy:3128"), undefined);
    assert.equal(defaultDrop("WAYLAND_DISPLAY", "wayland-0"), "socket");
    assert.equal(defaultDrop("OLDPWD", "/x"), undefined);
    assert.equal(defaultDrop("TERM", "xterm"), undefined);
  });
});
