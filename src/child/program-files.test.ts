// Which files a hook's command line and an MCP server's command name, and
// which of them the sandbox binds read-only.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hookCommandWords, programFiles } from "./program-files.ts";

describe("hookCommandWords", () => {
  const rows: [string, string[]][] = [
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', ["/p/.claude/hooks/check.sh"]],
    ["${CLAUDE_PROJECT_DIR}/x.sh --fast", ["/p/x.sh", "--fast"]],
    ["bash hooks/stop.sh && echo ok", ["bash", "hooks/stop.sh", "echo", "ok"]],
    ["./check.sh >> log.txt 2>&1", ["./check.sh", "2"]],
    ["./a.sh > out.txt; ./b.sh", ["./a.sh", "./b.sh"]],
    ["python3 'my script.py' < input.json", ["python3", "my script.py", "input.json"]],
    ["my\\ hook.sh|tee", ["my hook.sh", "tee"]],
    ["$HOME/x.sh `id` *.sh ~/y.sh $CLAUDE_PROJECT_DIRX", []],
  ];
  for (const [line, words] of rows) {
    test(line, () => assert.deepEqual(hookCommandWords(line, "/p"), words));
  }
});

describe("programFiles", () => {
  test("the existing files inside the roots, by real path, each once", () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-hook-scripts-")));
    try {
      const project = join(base, "project");
      mkdirSync(join(project, "hooks"), { recursive: true });
      mkdirSync(join(project, "real"));
      writeFileSync(join(project, "hooks", "check.sh"), "");
      writeFileSync(join(project, "real", "target.sh"), "");
      writeFileSync(join(project, "log.txt"), "");
      symlinkSync(join(project, "real", "target.sh"), join(project, "hooks", "link.sh"));
      writeFileSync(join(base, "outside.sh"), "");
      const hooks = {
        PreToolUse: [{ hooks: [{ command: "hooks/check.sh >> log.txt" }] }],
        Stop: [{
          hooks: [
            { command: '"$CLAUDE_PROJECT_DIR"/hooks/check.sh' },
            { command: `hooks/link.sh ${join(base, "outside.sh")} hooks missing.sh` },
          ],
        }],
      };
      const where = { cwd: project, projectDir: project, roots: [project] };
      assert.deepEqual(programFiles({ hooks, ...where }), [
        join(project, "hooks", "check.sh"),
        join(project, "real", "target.sh"),
      ]);
      assert.deepEqual(programFiles({ hooks, ...where, roots: [] }), []);
      assert.deepEqual(programFiles(where), []);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("a stdio server's command and arguments, from its cwd; an http server names none", () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-program-files-")));
    try {
      const project = join(base, "project");
      mkdirSync(join(project, "mcp"), { recursive: true });
      writeFileSync(join(project, "mcp", "server.js"), "");
      writeFileSync(join(project, "mcp", "run.sh"), "");
      writeFileSync(join(project, "mcp", "$X.js"), "");
      const servers = {
        node: {
          type: "stdio" as const,
          command: "node",
          args: ["server.js", "$X.js"],
          env: {},
          cwd: "mcp",
        },
        script: { type: "stdio" as const, command: "./mcp/run.sh", args: [], env: {} },
        web: { type: "http" as const, url: "http://127.0.0.1:1/mcp", headers: {} },
      };
      assert.deepEqual(
        programFiles({ servers, cwd: project, projectDir: project, roots: [project] }),
        [
          join(project, "mcp", "server.js"),
          join(project, "mcp", "run.sh"),
        ],
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
