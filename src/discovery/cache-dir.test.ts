// Unit tests for where the definition cache lives on each platform, and when
// there is none.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cacheDir, type CacheDirInput } from "./cache-dir.ts";

const home = "/home/me";
const base: CacheDirInput = { env: {}, home, platform: "linux", compiled: true };

describe("cacheDir", () => {
  const rows: [string, Partial<CacheDirInput>, string | undefined][] = [
    ["Linux default", {}, "/home/me/.cache/xcsh"],
    ["XDG_CACHE_HOME", { env: { XDG_CACHE_HOME: "/var/c" } }, "/var/c/xcsh"],
    [
      "a relative XDG_CACHE_HOME is ignored",
      { env: { XDG_CACHE_HOME: "rel" } },
      "/home/me/.cache/xcsh",
    ],
    ["macOS", { platform: "darwin" }, "/home/me/Library/Caches/xcsh"],
    ["XCSH_CACHE_DIR wins", { env: { XCSH_CACHE_DIR: "/x/y", XDG_CACHE_HOME: "/var/c" } }, "/x/y"],
    ["XCSH_CACHE=off", { env: { XCSH_CACHE: "off", XCSH_CACHE_DIR: "/x/y" } }, undefined],
    ["XCSH_CACHE=0", { env: { XCSH_CACHE: "0" } }, undefined],
    ["XCSH_CACHE=False", { env: { XCSH_CACHE: "False" } }, undefined],
    ["XCSH_CACHE=on keeps the default", { env: { XCSH_CACHE: "on" } }, "/home/me/.cache/xcsh"],
    ["from source: none", { compiled: false }, undefined],
    ["from source with XCSH_CACHE_DIR", { compiled: false, env: { XCSH_CACHE_DIR: "/x" } }, "/x"],
    ["no home: none", { home: "" }, undefined],
  ];
  for (const [name, over, want] of rows) {
    test(name, () => assert.equal(cacheDir({ ...base, ...over }), want));
  }

  test("Windows: LOCALAPPDATA, else the usual folder under home", () => {
    const win = { ...base, platform: "win32" };
    assert.match(
      cacheDir({ ...win, env: { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" } })!,
      /AppData.Local.xcsh.cache$/,
    );
    assert.match(cacheDir(win)!, /AppData.Local.xcsh.cache$/);
  });
});
