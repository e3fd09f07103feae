// The home folder: $HOME when set, else the system's account home.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { displayPath, homeDirectory } from "./home.ts";

describe("homeDirectory", () => {
  test("$HOME when it is set, made absolute", () => {
    assert.equal(homeDirectory({ HOME: "/home/ada" }), "/home/ada");
    assert.equal(homeDirectory({ HOME: "rel/home" }), resolve("rel/home"));
  });

  test("unset or empty: the account's home from the system", () => {
    const system = homedir();
    const expected = system ? resolve(system) : "";
    assert.equal(homeDirectory({}), expected);
    assert.equal(homeDirectory({ HOME: "" }), expected);
  });
});

describe("displayPath", () => {
  test("a path under the home folder is shown from ~", () => {
    assert.equal(displayPath("/home/ada/x/a.md", "/home/ada"), "~/x/a.md");
    assert.equal(displayPath("/home/ada", "/home/ada"), "~");
    assert.equal(displayPath("/home/adam/a.md", "/home/ada"), "/home/adam/a.md");
    assert.equal(displayPath("/x/a.md", "/"), "/x/a.md", "a home of / shortens nothing");
    assert.equal(displayPath(undefined, "/home/ada"), "");
  });
});
