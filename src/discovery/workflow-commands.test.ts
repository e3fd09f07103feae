// Unit tests for workflow commands: parsing a command file, the
// bundled `init`, exact lookup, argument expansion ($ARGUMENTS, $@, $1..$9,
// appended when there is no placeholder), and discovery on a real temporary
// tree (first wins, a file-defined `init` shadows the bundled one).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { parsedNow, parseOnDemand } from "../formats/full-parsers.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  discoverCommands,
  expandCommand,
  getCommand,
  loadBundledCommands,
  parseCommand as commandOnDemand,
  type WorkflowCommand,
} from "./workflow-commands.ts";

const user = { source: "user", family: "claude" } as const;

/** parseCommand on text the fast path reads (no full parser needed). */
const parseCommand = (...a: Parameters<typeof commandOnDemand>) => parsedNow(commandOnDemand(...a));

describe("parseCommand", () => {
  test("name from the file name, description and argument-hint from frontmatter", () => {
    const { command, warnings } = parseCommand({
      path: "/h/.claude/commands/fix-issue.md",
      text: "---\ndescription: Fix an issue\nargument-hint: <id>\n---\n\nFix $1.\n",
    }, user);
    assert.deepEqual(warnings, []);
    assert.deepEqual(command, {
      name: "fix-issue",
      description: "Fix an issue",
      argumentHint: "<id>",
      template: "Fix $1.",
      source: "user",
      family: "claude",
      filePath: "/h/.claude/commands/fix-issue.md",
    });
  });

  test("no frontmatter: the first non-empty line, without #, is the description", () => {
    const { command } = parseCommand(
      { path: "/p/review.md", text: "\n# Review the change\n\nLook at $ARGUMENTS.\n" },
      { source: "project", family: "plugin", plugin: "p@m" },
    );
    assert.equal(command!.description, "Review the change");
    assert.equal(command!.template, "# Review the change\n\nLook at $ARGUMENTS.");
    assert.equal(command!.plugin, "p@m");
  });

  test("an unterminated frontmatter block skips the file with a warning naming it", () => {
    const r = parseCommand({ path: "/p/bad.md", text: "---\ndescription: x\nno end\n" }, user);
    assert.equal(r.command, undefined);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0].file, "/p/bad.md");
    assert.match(r.warnings[0].message, /^skipped: /);
  });

  test("invalid YAML falls back to key: value lines, with a warning only when in doubt", async () => {
    const r = parseCommand(
      { path: "/p/c.md", text: "---\ndescription: Do this: then that\n---\nBody\n" },
      user,
    );
    assert.equal(r.command!.description, "Do this: then that");
    assert.deepEqual(r.warnings, [], "every line reads one way: silent");
    const doubtful = await parseOnDemand(() =>
      commandOnDemand(
        { path: "/p/d.md", text: "---\ndescription: Do this: then that\n  more\n---\nBody\n" },
        user,
      )
    );
    assert.equal(doubtful.warnings.length, 1);
    assert.match(doubtful.warnings[0].message, /line 2 is not a 'key: value' line/);
  });
});

describe("bundled commands and getCommand", () => {
  test("init is bundled, without a file path", async () => {
    const bundled = await loadBundledCommands();
    assert.deepEqual(bundled.map((c) => [c.name, c.source, c.family]), [
      ["init", "bundled", "bundled"],
    ]);
    assert.equal(bundled[0].filePath, undefined);
    assert.ok(bundled[0].template.length > 0);
    assert.ok(bundled[0].description.length > 0);
  });

  test("getCommand is exact and case-sensitive", () => {
    const list = [{ name: "Fix" }, { name: "fix" }] as WorkflowCommand[];
    assert.equal(getCommand(list, "fix"), list[1]);
    assert.equal(getCommand(list, "Fix"), list[0]);
    assert.equal(getCommand(list, "FIX"), undefined);
  });
});

describe("expandCommand", () => {
  const cases: [string, string[], string][] = [
    ["Review $ARGUMENTS now", ["a.ts", "b.ts"], "Review a.ts b.ts now"],
    ["Review $@ now", ["a.ts", "b.ts"], "Review a.ts b.ts now"],
    ["Fix $1 because $2", ["42", "it broke"], "Fix 42 because it broke"],
    ["Fix $1 because $2", ["42"], "Fix 42 because "],
    ["$2 $1 $2", ["x", "y"], "y x y"],
    ["All: $ARGUMENTS; first: $1", ["p", "q"], "All: p q; first: p"],
    ["Only $1..$9: $10", ["a"], "Only a..: a0"],
    ["No placeholder.", ["x", "y"], "No placeholder.\n\nx y"],
    ["No placeholder.", [], "No placeholder."],
    ["Empty: [$ARGUMENTS]", [], "Empty: []"],
    ["Costs $5 and $x", [], "Costs  and $x"],
    // Arguments are inserted once, never expanded again.
    ["Run $ARGUMENTS", ["$1", "$ARGUMENTS"], "Run $1 $ARGUMENTS"],
  ];
  for (const [template, args, expected] of cases) {
    test(`${JSON.stringify(template)} with ${JSON.stringify(args)}`, () => {
      assert.equal(expandCommand(template, args), expected);
    });
  }
});

describe("discoverCommands on a real tree", () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), "xcsh-commands-"));
    write("home/.xcsh/agent/commands/init.md", "---\ndescription: My init\n---\nMine.\n");
    write("home/.xcsh/agent/commands/b.md", "B user xcsh\n");
    write("home/.claude/commands/a.md", "A user claude\n");
    write("home/.claude/commands/b.md", "B user claude\n");
    write("home/.claude/commands/notes.txt", "not a command\n");
    write("home/repo/.claude/commands/a.md", "A project claude\n");
    write("home/repo/.gemini/commands/B.md", "Capital B\n");
    write("home/repo/.claude/commands/broken.md", "---\nunterminated\n");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("precedence, first wins, bundled init shadowed by a file", async () => {
    const found = await discoverCommands({
      cwd: join(root, "home/repo"),
      home: join(root, "home"),
      env: {},
    });
    const line = (c: WorkflowCommand) =>
      `${c.name} ${c.source} ${c.family} ${c.filePath?.slice(root.length) ?? "(built in)"}`;
    assert.deepEqual(found.commands.map(line), [
      "b user xcsh /home/.xcsh/agent/commands/b.md",
      "init user xcsh /home/.xcsh/agent/commands/init.md",
      "a project claude /home/repo/.claude/commands/a.md",
      "B project gemini /home/repo/.gemini/commands/B.md",
    ]);
    assert.deepEqual(found.shadowed.map((s) => `${line(s.agent)} <= ${line(s.shadowedBy)}`), [
      "a user claude /home/.claude/commands/a.md <= a project claude /home/repo/.claude/commands/a.md",
      "b user claude /home/.claude/commands/b.md <= b user xcsh /home/.xcsh/agent/commands/b.md",
      "init bundled bundled (built in) <= init user xcsh /home/.xcsh/agent/commands/init.md",
    ]);
    assert.deepEqual(found.warnings.map((w) => w.file!.slice(root.length)), [
      "/home/repo/.claude/commands/broken.md",
    ]);
  });
});
