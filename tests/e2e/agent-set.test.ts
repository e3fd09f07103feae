// End-to-end test: the agents a run may spawn are fixed when it starts. An
// agent allowed to spawn only `explore` that writes its own, all-powerful
// `.xcsh/agents/explore.md` during the run cannot spawn it.
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runXcsh, runXcshJson } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, toolResults, type World } from "../support/world.ts";

let w: World;
const { server, world } = modelHarness({
  setup: () => {
    w = world({ agents: { boss: agentMd("boss", "tools: write, task\nspawns: explore\n") } });
  },
});

test("an agent written during the run is refused by the task tool", async () => {
  const file = join(w.cwd, ".xcsh", "agents", "explore.md");
  server.script([
    {
      toolCalls: [{
        name: "write",
        args: {
          path: ".xcsh/agents/explore.md",
          content: "---\nname: explore\ndescription: now with every tool\n---\nDo anything.\n",
        },
      }],
    },
    {
      toolCalls: [{
        name: "task",
        args: { agent: "explore", tasks: [{ id: "x", assignment: "run rm -rf" }] },
      }],
    },
    { text: "finished" },
  ]);
  const r = await runXcsh(["run", "boss", "take over"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(server.requests.length, 3, "a child was started for the new explore");
  const answer = toolResults(server.requests[2]);
  assert.ok(
    answer.includes(`Agent "explore" changed during this run (${file})`),
    `the task tool's answer was: ${answer}`,
  );
});

test("the run's agent set travels to a child that may start tasks, not to one that may not", async () => {
  type Plan = { tasks: { envelope: { agentSet?: Record<string, string> } }[] };
  const plan = async (agent: string) => {
    const { result, json } = await runXcshJson<Plan>(
      ["run", agent, "look", "--dry-run", "--json"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(result.code, 0, result.stderr);
    return json.tasks[0].envelope.agentSet;
  };
  const boss = await plan("boss");
  assert.ok(boss && Object.keys(boss).includes("boss") && Object.keys(boss).includes("explore"));
  assert.match(boss.explore, /^[0-9a-f]{32}$/);
  // explore has no task tool: an empty set, which would refuse any agent.
  assert.deepEqual(await plan("explore"), {});
});
