import { test } from "node:test";
import assert from "node:assert/strict";
import { acceptPlan } from "./accept-plan.ts";
import type { AcceptCheck, AgentDefinition } from "../types.ts";

const cmd: AcceptCheck = { kind: "cmd", name: "tests", cmd: "npm test" };
const file: AcceptCheck = { kind: "file", name: "out", file: "out.txt" };
const agent = (source: AgentDefinition["source"], accept?: AcceptCheck[]): AgentDefinition => ({
  name: "a",
  description: "d",
  systemPrompt: "",
  source,
  family: "xcsh",
  ...(accept ? { accept } : {}),
});

test("no checks anywhere: no plan", () => {
  assert.equal(acceptPlan(agent("project"), {}, () => false), undefined);
});

test("an untrusted project file's commands are skipped, its other checks run", () => {
  const plan = acceptPlan(agent("project", [cmd, file]), {}, () => false)!;
  assert.deepEqual(plan.checks, [file]);
  assert.deepEqual(plan.skipped, [cmd]);
  assert.equal(plan.retries, 1);
});

test("a trusted project file, or the user's own, runs every check; the call's come after", () => {
  const call: AcceptCheck = { kind: "result", name: "r", pointer: "/ok", equals: true };
  const trusted = acceptPlan(agent("project", [cmd]), { accept: [call] }, () => true)!;
  assert.deepEqual(trusted.checks, [cmd, call]);
  assert.deepEqual(trusted.skipped, []);
  let asked = false;
  const user = acceptPlan(agent("user", [cmd]), {}, () => (asked = true))!;
  assert.deepEqual(user.checks, [cmd]);
  assert.equal(asked, false, "the trust store is not read for the user's own file");
});

test("the call's acceptRetries wins over the agent's", () => {
  const a = { ...agent("user", [file]), acceptRetries: 3 };
  assert.equal(acceptPlan(a, {}, () => true)!.retries, 3);
  assert.equal(acceptPlan(a, { acceptRetries: 0 }, () => true)!.retries, 0);
});
