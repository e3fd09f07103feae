import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isInside, outsideMessage } from "./inside.ts";

describe("isInside", () => {
  test("a root and what is below it are inside", () => {
    assert.equal(isInside("/p", ["/p"]), true);
    assert.equal(isInside("/p/a/b.ts", ["/p"]), true);
    assert.equal(isInside("/p/..hidden", ["/p"]), true, "a name starting with .. is no parent");
  });

  test("parents, siblings sharing a prefix and other folders are outside", () => {
    assert.equal(isInside("/", ["/p"]), false);
    assert.equal(isInside("/p-sibling/x", ["/p"]), false);
    assert.equal(isInside("/etc/passwd", ["/p"]), false);
    assert.equal(isInside("/p/../etc", ["/p"]), false, "normalised before comparing");
  });

  test("any of several roots will do; none means nothing is inside", () => {
    assert.equal(isInside("/extra/data.csv", ["/p", "/extra"]), true);
    assert.equal(isInside("/p/x", []), false);
  });
});

describe("outsideMessage", () => {
  test("names the path, where it resolves and the allowed folders", () => {
    assert.equal(
      outsideMessage("link/x", "/etc/x", ["/p"]),
      "link/x is outside the project folder /p (it resolves to /etc/x): the file tools work only there",
    );
    assert.equal(
      outsideMessage("/etc/x", "/etc/x", ["/p", "/data"]),
      "/etc/x is outside the project folder /p and task.additionalDirectories (/data): " +
        "the file tools work only there",
    );
  });
});
