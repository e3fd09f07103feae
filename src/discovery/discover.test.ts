import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverAgents } from "./discover.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-discovery-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("rediscovery reuses unchanged parses, sees edits and forgets deleted files", async () => {
  const cwd = join(root, "project");
  const dir = join(cwd, ".xcsh", "agents");
  mkdirSync(dir, { recursive: true });
  const e = { cwd, home: join(root, "home"), env: {} };
  const file = (name: string, description: string) =>
    writeFileSync(
      join(dir, `${name}.md`),
      `---\nname: ${name}\ndescription: ${description}\n---\nHi.\n`,
    );
  file("a", "first");
  file("b", "bee");

  const first = await discoverAgents(e);
  const second = await discoverAgents(e);
  const a1 = first.agents.find((x) => x.name === "a");
  assert.ok(a1);
  assert.equal(second.agents.find((x) => x.name === "a"), a1, "the same parse, not a new one");

  file("a", "second");
  const third = await discoverAgents(e);
  assert.equal(third.agents.find((x) => x.name === "a")?.description, "second");

  unlinkSync(join(dir, "b.md"));
  const fourth = await discoverAgents(e);
  assert.equal(fourth.agents.find((x) => x.name === "b"), undefined);
  assert.deepEqual(fourth.agents.slice(0, 1).map((x) => x.name), ["a"]);
});
