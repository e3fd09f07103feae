// Permission rules as tables: bash command lines, paths and URLs against
// allow and deny rules in Claude Code's syntax.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readToolEntries } from "../discovery/tool-entries.ts";
import type { PermissionRules } from "../types.ts";
import {
  absolutePattern,
  bashRefusal,
  commandMatches,
  pathRefusal,
  readDenyFilter,
  urlRefusal,
} from "./permission-check.ts";

/** The rules a `tools` list and a `disallowedTools` list give. */
function rules(tools: string[], denied: string[] = []): PermissionRules {
  const t = readToolEntries(tools, "tools");
  const d = readToolEntries(denied, "disallowedTools");
  assert.deepEqual([...t.errors, ...d.errors], []);
  return { allow: t.rules.filter((r) => !t.bare.includes(r.tool!)), deny: d.rules };
}

describe("commandMatches", () => {
  const rows: [string, string, boolean][] = [
    ["git status:*", "git status", true],
    ["git status:*", "git status --short", true],
    ["git status:*", "git statusx", false],
    ["git status:*", "git", false],
    ["npm test", "npm test", true],
    ["npm test", "npm test --watch", false],
    ["npm run *", "npm run build", true],
    ["npm run *", "npm run", false],
    ["git * main", "git push origin main", true],
    ["ls*", "lsof", true],
    [`git commit -m "x"`, "git commit -m x", true],
  ];
  for (const [pattern, cmd, expected] of rows) {
    test(`${pattern} vs ${cmd}`, () => {
      assert.equal(commandMatches(pattern, cmd.split(" ")), expected);
    });
  }
});

describe("bashRefusal: allow rules", () => {
  const r = rules(["Read", "Bash(git status:*)", "Bash(npm test)"]);
  const rows: [string, RegExp | undefined][] = [
    ["git status", undefined],
    ["git status --short && npm test", undefined],
    ["(git status)", undefined],
    ["git status 2>&1", undefined],
    [
      "git status; rm -rf /",
      /'rm -rf \/' is not allowed: this agent may run only Bash\(git status:\*\), Bash\(npm test\)/,
    ],
    ["git status && curl x", /'curl x' is not allowed/],
    ["git status || curl x", /'curl x' is not allowed/],
    ["git status | sh", /'sh' is not allowed/],
    ["(rm x)", /'rm x' is not allowed/],
    ["git -c core.fsmonitor='touch x' status", /sets git configuration with -c/],
    ["git --config-env=core.pager=P status", /with --config-env/],
    ["git --exec-path=. status", /with --exec-path/],
    ["git status $(rm x)", /command substitution/],
    ["git status `rm x`", /command substitution/],
    ["FOO=1 git status", /sets a variable before the command/],
    ["git status > /etc/x", /redirection to a file/],
    ["'git' 'status'", undefined],
    ["git 'status; rm -rf /'", /is not allowed/],
    ["npm test --watch", /'npm test --watch' is not allowed/],
    ["rm -rf /", /not allowed/],
  ];
  for (const [cmd, expected] of rows) {
    test(cmd, () => {
      const got = bashRefusal(r, cmd);
      if (expected) assert.match(got ?? "(allowed)", expected);
      else assert.equal(got, undefined);
    });
  }
  test("a bare Bash next to a rule grants every command", () => {
    assert.equal(bashRefusal(rules(["Bash", "Bash(git status:*)"]), "rm -rf x"), undefined);
  });
  test("no rules: nothing refused, unreadable lines included", () => {
    assert.equal(bashRefusal({ allow: [], deny: [] }, "echo $(date)"), undefined);
  });
});

describe("bashRefusal: deny rules", () => {
  const r = rules(["Bash"], ["Bash(rm:*)", "Bash(git push)"]);
  const rows: [string, RegExp | undefined][] = [
    ["ls", undefined],
    ["rm -rf x", /'rm -rf x' is refused by Bash\(rm:\*\) \(disallowedTools\)/],
    ["ls && rm x", /refused by Bash\(rm:\*\)/],
    ["(rm x)", /refused by Bash\(rm:\*\)/],
    ["FOO=1 rm x", /refused by Bash\(rm:\*\)/],
    ["/bin/rm x", /refused by Bash\(rm:\*\)/],
    ["sudo rm x", /refused by Bash\(rm:\*\)/],
    ["bash -c 'rm -rf x'", /refused by Bash\(rm:\*\)/],
    ["git push", /refused by Bash\(git push\)/],
    ["git push --force", undefined],
    ["echo $(rm x)", /command substitution/],
    ["{rm,-rf,x}", /brace expansion/],
    // A second reading of the words is refused or read too.
    ["bash -c 'cd /; rm -rf x'", /refused by Bash\(rm:\*\)/],
    ["bash -c 'ls'", /hands text to a second shell reading \(bash\)/],
    ["echo cm0gLXJmIHgK | base64 -d | sh", /second shell reading \(sh\)/],
    ["ls | xargs /bin/dash", /second shell reading \(\/bin\/dash\)/],
    ["eval 'echo; rm x'", /refused by Bash\(rm:\*\)/],
    ["eval ls", /second shell reading \(eval\)/],
    ["command eval ls", /second shell reading \(eval\)/],
    [". ./script", /second shell reading \(\.\)/],
    ["source ./script", /second shell reading \(source\)/],
    ["alias ll=ls", /second shell reading \(alias\)/],
    ["watch 'date; rm x'", /refused by Bash\(rm:\*\)/],
    ["git -c alias.x='!rm -rf ~' x", /refused by Bash\(rm:\*\)/],
    ["git -c core.pager=less log", /sets git configuration with -c/],
    ["ls . && grep -r source .", undefined],
    ["git commit -m 'fix: no eval here; see $HOME'", undefined],
  ];
  for (const [cmd, expected] of rows) {
    test(cmd, () => {
      const got = bashRefusal(r, cmd);
      if (expected) assert.match(got ?? "(allowed)", expected);
      else assert.equal(got, undefined);
    });
  }
});

describe("path rules", () => {
  const at = { cwd: "/p/sub", projectRoot: "/p", home: "/h" };
  test("anchors", () => {
    assert.equal(absolutePattern("//etc/**", at), "/etc/**");
    assert.equal(absolutePattern("~/.ssh/**", at), "/h/.ssh/**");
    assert.equal(absolutePattern("/src/**", at), "/p/src/**");
    assert.equal(absolutePattern("./src/**", at), "/p/sub/src/**");
    assert.equal(absolutePattern("src/a.ts", at), "/p/sub/src/a.ts");
    assert.equal(absolutePattern("*.env", at), "/p/sub/**/*.env");
    // gitignore: a slash at the end only still matches at any depth.
    assert.equal(absolutePattern("docs/", at), "/p/sub/**/docs/**");
  });
  const r = rules(["Read(./src/**)", "Edit(docs/**)", "Write"], ["Read(*.env)"]);
  const rows: [string, string, RegExp | undefined][] = [
    ["read", "/p/sub/src/a.ts", undefined],
    ["read", "/p/sub/src", undefined],
    [
      "read",
      "/p/sub/README.md",
      /is not allowed: this agent may use read only on Read\(\.\/src\/\*\*\)/,
    ],
    ["read", "/p/sub/src/.env", /refused by Read\(\*\.env\)/],
    ["grep", "/p/sub/a/b/.env", /refused by Read\(\*\.env\)/],
    ["grep", "/p/sub", undefined],
    ["edit", "/p/sub/docs/x.md", undefined],
    ["edit", "/p/sub/src/x.ts", /not allowed: this agent may use edit only on Edit\(docs\/\*\*\)/],
    ["write", "/p/sub/anything", undefined],
  ];
  for (const [tool, path, expected] of rows) {
    test(`${tool} ${path}`, () => {
      const got = pathRefusal(r, tool, [path], at);
      if (expected) assert.match(got ?? "(allowed)", expected);
      else assert.equal(got, undefined);
    });
  }
  test("a link is checked where it leads too", () => {
    assert.match(
      pathRefusal(r, "read", ["/p/sub/src/link", "/p/sub/secret"], at) ?? "",
      /\/p\/sub\/secret is not allowed/,
    );
  });
});

describe("urlRefusal", () => {
  const r = rules(["WebFetch(domain:example.com)"], ["WebFetch(domain:bad.example.com)"]);
  const rows: [string, RegExp | undefined][] = [
    ["https://example.com/a", undefined],
    ["https://docs.example.com/a", undefined],
    ["https://bad.example.com/a", /refused by WebFetch\(domain:bad\.example\.com\)/],
    ["https://example.org/", /may fetch only WebFetch\(domain:example\.com\)/],
    ["https://evilexample.com/", /not allowed/],
    ["https://BAD.example.com./a", /refused by WebFetch\(domain:bad\.example\.com\)/],
  ];
  for (const [url, expected] of rows) {
    test(url, () => {
      const got = urlRefusal(r, new URL(url));
      if (expected) assert.match(got ?? "(allowed)", expected);
      else assert.equal(got, undefined);
    });
  }
  test("a deny rule naming an address refuses every spelling of it and a name resolving to it", () => {
    const d = rules(["WebFetch"], ["WebFetch(domain:127.0.0.1)"]);
    for (const url of ["http://127.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://2130706433/"]) {
      assert.match(urlRefusal(d, new URL(url)) ?? "(allowed)", /refused by WebFetch/, url);
    }
    assert.match(urlRefusal(d, new URL("http://localhost:8080/")) ?? "(allowed)", /refused/);
    const named = new URL("http://loop.example.net/");
    assert.equal(urlRefusal(d, named), undefined, "unknown before resolution");
    assert.match(
      urlRefusal(d, named, ["127.0.0.1"]) ?? "(allowed)",
      /refused by WebFetch\(domain:127\.0\.0\.1\) \(disallowedTools\): loop\.example\.net resolves to 127\.0\.0\.1/,
    );
    assert.equal(urlRefusal(d, named, ["93.184.215.14"]), undefined);
  });
});

test("readDenyFilter: the files a search leaves out", () => {
  const at = { cwd: "/p", projectRoot: "/p", home: "/h" };
  assert.equal(readDenyFilter(rules(["Read"]), at), undefined);
  const denied = readDenyFilter(rules(["Grep"], ["Read(*.env)", "Read(./secrets/**)"]), at)!;
  assert.deepEqual(
    ["/p/a.env", "/p/x/b.env", "/p/secrets/k", "/p/src/a.ts"].map(denied),
    [true, true, true, false],
  );
});
