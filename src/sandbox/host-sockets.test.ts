import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chooseHiding, HIDDEN_FOLDERS, hostHiding } from "./host-sockets.ts";

describe("which host folders the sandbox hides", () => {
  test("the socket folders that exist, each once, a folder inside another with it", () => {
    assert.deepEqual(chooseHiding({ dirs: ["/run", "/run", "/var/tmp"] }), {
      folders: ["/run", "/var/tmp"],
      files: [],
    });
    assert.deepEqual(chooseHiding({ dirs: ["/run/user", "/run"] }).folders, ["/run"]);
    assert.deepEqual(chooseHiding({ dirs: [] }), { folders: [], files: [] });
    assert.deepEqual(chooseHiding({ dirs: ["/"] }).folders, [], "never the whole file system");
  });

  test("resolv.conf pointing into /run is bound back; one elsewhere needs nothing", () => {
    const stub = "/run/systemd/resolve/stub-resolv.conf";
    assert.deepEqual(chooseHiding({ dirs: ["/run"], resolvConf: stub }).files, [stub]);
    assert.deepEqual(chooseHiding({ dirs: ["/run"], resolvConf: "/etc/resolv.conf" }).files, []);
    assert.deepEqual(chooseHiding({ dirs: ["/running"], resolvConf: "/run/x" }).files, []);
  });

  test("on this machine: only real, existing folders from the list", () => {
    const h = hostHiding();
    for (const d of h.folders) assert.ok(d.startsWith("/") && d !== "/", d);
    assert.ok(h.folders.length <= HIDDEN_FOLDERS.length);
    assert.equal(hostHiding(), h, "looked at once");
  });
});
