// Unit tests for what the launcher keys of a config file may hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLauncherArgs, checkLauncherKeys } from "./launchers.ts";

test("an argument list with known placeholders is kept", () => {
  assert.deepEqual(
    checkLauncherArgs(["srun", "--job-name={job}", "--chdir={cwd}", "{task}{agent}{session}"], "k"),
    { ok: true, value: ["srun", "--job-name={job}", "--chdir={cwd}", "{task}{agent}{session}"] },
  );
});

test("bad lists are errors naming the key", () => {
  const cases: [unknown, RegExp][] = [
    ["srun", /^'k' must be a list of strings/],
    [[1, 2], /^'k' must be a list of strings/],
    [[], /^'k' must not be empty/],
    [[" "], /^'k' starts with an empty program name/],
    [["srun", "--chdir={dir}"], /^'k' has an unknown placeholder \{dir\} in "--chdir=\{dir\}"/],
    [["srun", "{}"], /unknown placeholder \{\}/],
  ];
  for (const [value, message] of cases) {
    const r = checkLauncherArgs(value, "k");
    assert.equal(r.ok, false, JSON.stringify(value));
    assert.match((r as { message: string }).message, message);
  }
  assert.deepEqual(checkLauncherArgs([], "k", true), { ok: true, value: [] });
});

test("checkLauncherKeys reads the three keys", () => {
  assert.deepEqual(
    checkLauncherKeys({
      launcher: "cluster",
      launchers: { cluster: ["srun", "--"], local: [] },
      launcherBinary: " /opt/xcsh ",
    }),
    {
      ok: true,
      value: {
        launcher: "cluster",
        launchers: { cluster: ["srun", "--"], local: [] },
        launcherBinary: "/opt/xcsh",
      },
    },
  );
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ launcher: "" }, /^'task\.launcher' must be a list of strings or the name/],
    [{ launchers: ["srun"] }, /^'task\.launchers' must be a mapping/],
    [{ launchers: { "a b": ["srun"] } }, /^'task\.launchers\.a b': a launcher name/],
    [{ launchers: { c: "srun" } }, /^'task\.launchers\.c' must be a list/],
    [{ launcherBinary: "xcsh" }, /^'task\.launcherBinary' must be an absolute path/],
  ];
  for (const [raw, message] of bad) {
    const r = checkLauncherKeys(raw);
    assert.equal(r.ok, false, JSON.stringify(raw));
    assert.match((r as { message: string }).message, message);
  }
});
