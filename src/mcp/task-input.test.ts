import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readTaskInput } from "./task-input.ts";

describe("readTaskInput", () => {
  test("a task's writes is read; a bad one names its field", () => {
    const ok = readTaskInput({
      agent: "a",
      tasks: [{ id: "x", assignment: "y", writes: ["src/**"] }],
    });
    assert.deepEqual(typeof ok === "object" ? ok.tasks[0].writes : ok, ["src/**"]);
    assert.equal(
      readTaskInput({ agent: "a", tasks: [{ id: "x", assignment: "y", writes: "src/**" }] }),
      "'tasks[0].writes' must be a list of globs (strings)",
    );
    assert.match(
      readTaskInput({
        agent: "a",
        tasks: [{ id: "x", assignment: "y", writes: ["/etc/**"] }],
      }) as string,
      /^'tasks\[0\]\.writes': '\/etc\/\*\*' is not relative to the project/,
    );
  });

  test("isolation and per-task resume are read", () => {
    assert.deepEqual(
      readTaskInput({
        agent: "a",
        isolation: "worktree",
        tasks: [{ id: "x", assignment: "more", resume: "20260101-000000-abcdef" }],
      }),
      {
        agent: "a",
        isolation: "worktree",
        tasks: [{ id: "x", assignment: "more", resume: "20260101-000000-abcdef" }],
      },
    );
  });

  const bad: [string, unknown, RegExp][] = [
    [
      "isolation",
      { agent: "a", isolation: "box", tasks: [{ id: "x", assignment: "y" }] },
      /'isolation' must be worktree or none/,
    ],
    [
      "resume",
      { agent: "a", tasks: [{ id: "x", assignment: "y", resume: 5 }] },
      /'tasks\[0\]\.resume' must be a session id/,
    ],
    [
      "background",
      { agent: "a", background: true, tasks: [{ id: "x", assignment: "y" }] },
      /^'background' is not supported over MCP: make the call an MCP task .*`xcsh run --background`/,
    ],
    [
      "per-task background",
      { agent: "a", tasks: [{ id: "x", assignment: "y", background: "yes" }] },
      /^'tasks\[0\]\.background' is not supported over MCP/,
    ],
  ];
  test("background: false is no request for anything", () => {
    assert.equal(
      typeof readTaskInput({
        agent: "a",
        background: false,
        tasks: [{ id: "x", assignment: "y" }],
      }),
      "object",
    );
  });
  for (const [field, args, message] of bad) {
    test(`a bad ${field} is named`, () => {
      const r = readTaskInput(args);
      assert.equal(typeof r, "string");
      assert.match(r as string, message);
    });
  }
});

describe("readTaskInput: acceptance checks", () => {
  const tasks = [{ id: "x", assignment: "go" }];
  test("accept takes short and object forms; acceptRetries a whole number", () => {
    const r = readTaskInput({
      agent: "a",
      tasks,
      accept: ["cmd: npm test", { scope: ["src/**"], changed: true }],
      acceptRetries: 2,
    });
    assert.ok(typeof r !== "string");
    assert.deepEqual(r.accept, [
      { kind: "cmd", name: "cmd: npm test", cmd: "npm test" },
      { kind: "scope", name: "scope: src/**", globs: ["src/**"], changed: true },
    ]);
    assert.equal(r.acceptRetries, 2);
  });

  test("a bad check or count names the field", () => {
    assert.equal(
      readTaskInput({ agent: "a", tasks, accept: ["result: nope"] }),
      "'accept[0]': 'result': 'nope' is no JSON Pointer (it must start with /)",
    );
    assert.equal(
      readTaskInput({ agent: "a", tasks, accept: "cmd: x" }),
      "'accept' must be a list of checks",
    );
    assert.match(
      readTaskInput({ agent: "a", tasks, acceptRetries: 9 }) as string,
      /^'acceptRetries' must/,
    );
  });

  test("a task's own checks: parsed per task, named by their place, no clash with the call's", () => {
    const r = readTaskInput({
      agent: "a",
      accept: ["cmd: npm test"],
      tasks: [{ id: "x", assignment: "go", accept: ["file: out.txt"] }, {
        id: "y",
        assignment: "go",
      }],
    });
    assert.ok(typeof r !== "string");
    assert.deepEqual(r.tasks[0].accept, [{ kind: "file", name: "file: out.txt", file: "out.txt" }]);
    assert.equal(r.tasks[1].accept, undefined);
    assert.equal(
      readTaskInput({ agent: "a", tasks: [{ id: "x", assignment: "go", accept: "cmd: x" }] }),
      "'tasks[0].accept' must be a list of checks",
    );
    assert.equal(
      readTaskInput({
        agent: "a",
        tasks: [{ id: "x", assignment: "go", accept: ["result: nope"] }],
      }),
      "'tasks[0].accept[0]': 'result': 'nope' is no JSON Pointer (it must start with /)",
    );
    assert.equal(
      readTaskInput({
        agent: "a",
        accept: ["cmd: npm test"],
        tasks: [{ id: "x", assignment: "go", accept: ["cmd: npm test"] }],
      }),
      "'tasks[0].accept': a check named 'cmd: npm test' is already one of the call's",
    );
  });
});
