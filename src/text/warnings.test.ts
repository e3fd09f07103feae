import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isVerbose, warningSummary } from "./warnings.ts";

describe("warningSummary", () => {
  test("counts files, not warnings", () => {
    const w = (file: string) => ({ level: "warning" as const, file, message: "m" });
    assert.equal(
      warningSummary([w("a.md"), w("a.md"), w("b.md")], "agent"),
      "xcsh: 2 agent files have warnings (xcsh agents check)",
    );
    assert.equal(
      warningSummary([w("a.md")], "agent"),
      "xcsh: 1 agent file has warnings (xcsh agents check)",
    );
    assert.equal(
      warningSummary([w("c.md")], "command"),
      "xcsh: 1 command file has warnings (xcsh commands --verbose)",
    );
    assert.equal(warningSummary([], "agent"), undefined);
  });
});

describe("isVerbose", () => {
  const rows: [boolean | undefined, string | undefined, boolean][] = [
    [undefined, undefined, false],
    [true, undefined, true],
    [undefined, "1", true],
    [undefined, "yes", true],
    [undefined, "0", false],
    [undefined, "", false],
    [false, " ", false],
  ];
  for (const [flag, env, expected] of rows) {
    test(`--verbose ${flag}, XCSH_VERBOSE=${JSON.stringify(env)}`, () => {
      assert.equal(isVerbose(flag, { XCSH_VERBOSE: env }), expected);
    });
  }
});
