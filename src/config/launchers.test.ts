// Unit tests for what the launcher keys of a config file may hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkLauncher,
  checkLauncherArgs,
  checkLauncherKeys,
  inferredShell,
  shellWordsProblem,
} from "./launchers.ts";

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
        launchers: {
          cluster: { args: ["srun", "--"], shell: false },
          local: { args: [], shell: false },
        },
        launcherBinary: "/opt/xcsh",
      },
    },
  );
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ launcher: "" }, /^'task\.launcher' must be a list of strings or the name/],
    [{ launchers: ["srun"] }, /^'task\.launchers' must be a mapping/],
    [
      { launchers: { c: { args: ["ssh"], shell: "yes" } } },
      /^'task\.launchers\.c\.shell' must be true/,
    ],
    [
      { launchers: { c: { args: ["ssh"], shel: true } } },
      /^'task\.launchers\.c\.shel' is not a launcher key/,
    ],
    [{ launchers: { c: { shell: true } } }, /^'task\.launchers\.c\.args' is missing/],
    [{ launchers: { c: { args: "ssh" } } }, /^'task\.launchers\.c\.args' must be a list/],
    [
      { launcher: { args: ["ssh", "box", "cd '{cwd}'"] } },
      /^'task\.launcher\.args': .*\{cwd\} stands inside quotes/,
    ],
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

test("without shell, only the direct launchers are taken to have no shell on their far side", () => {
  for (const p of ["srun", "/usr/bin/srun", "kubectl", "podman", "docker"]) {
    assert.equal(inferredShell([p, "x"]), false, p);
  }
  for (const p of ["ssh", "autossh", "env", "timeout", "sshpass", "/home/me/bin/remote", "sh"]) {
    assert.equal(inferredShell([p, "x"]), true, p);
  }
  assert.equal(inferredShell([]), false);
});

test("a launcher is a list or {args, shell}; the declared shell wins over the inferred one", () => {
  assert.deepEqual(checkLauncher(["env", "ssh", "box"], "k"), {
    ok: true,
    value: { args: ["env", "ssh", "box"], shell: true },
  });
  assert.deepEqual(checkLauncher({ args: ["srun", "--"], shell: true }, "k"), {
    ok: true,
    value: { args: ["srun", "--"], shell: true },
  });
  assert.deepEqual(checkLauncher({ args: ["my-exec", "--"], shell: false }, "k"), {
    ok: true,
    value: { args: ["my-exec", "--"], shell: false },
  });
  assert.deepEqual(checkLauncher({ args: ["srun"] }, "k"), {
    ok: true,
    value: { args: ["srun"], shell: false },
  });
  // Read back as it was written (the envelope carries the merged config).
  const entry = checkLauncher(["autossh", "box"], "k");
  assert.deepEqual(checkLauncher(entry.ok && entry.value, "k"), entry);
});

test("for a shell, placeholders stand outside quotes and every quote closes", () => {
  const fine = [
    ["ssh", "box", "cd", "{cwd}", "&&"],
    ["ssh", "box", "cd {cwd} &&"],
    ["ssh", "box", "echo 'it''s'", "{agent}"],
    ["ssh", "box", "echo \\'", "{agent}"],
  ];
  for (const args of fine) assert.equal(shellWordsProblem(args), undefined, args.join(" "));
  const bad: [string[], RegExp][] = [
    [["ssh", "box", "cd '{cwd}'"], /\{cwd\} stands inside quotes/],
    [["ssh", "box", 'cd "{cwd}"'], /\{cwd\} stands inside quotes/],
    [["ssh", "box", "sh", "-c", "'cd", "{cwd}'"], /\{cwd\} stands inside quotes/],
    [["ssh", "box", "echo $'a\\'", "{cwd}'"], /\{cwd\} stands inside quotes/],
    [["ssh", "box", "cd \\{cwd}"], /\{cwd\} follows a backslash/],
    [["ssh", "box", "echo '"], /a quote \(\'\) is left open/],
  ];
  for (const [args, why] of bad) assert.match(shellWordsProblem(args) ?? "", why, args.join(" "));
  // Not a shell: the words are never read as one command, so quotes are the user's business.
  assert.equal(
    checkLauncher({ args: ["srun", "--comment='{agent}'"], shell: false }, "k").ok,
    true,
  );
  assert.equal(checkLauncher(["srun", "--comment='{agent}'"], "k").ok, true);
});
