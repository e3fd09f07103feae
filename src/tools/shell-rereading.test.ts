// Which commands run text their words do not show: shells and reading
// builtins, command lines inside words, and git's configuration options.

import { test } from "node:test";
import assert from "node:assert/strict";
import { embeddedLines, gitConfigOption, secondReading } from "./shell-rereading.ts";

const w = (s: string) => s.split(" ");

test("secondReading: shells at any word, reading builtins as the command", () => {
  assert.equal(secondReading(w("sh")), "sh");
  assert.equal(secondReading(w("sudo -u x /usr/bin/bash script")), "/usr/bin/bash");
  assert.equal(secondReading(w("find . -exec zsh -c x ;")), "zsh");
  assert.equal(secondReading(w("builtin source f")), "source");
  assert.equal(secondReading(w("command -p . f")), ".");
  assert.equal(secondReading(w("eval x")), "eval");
  assert.equal(secondReading(w("grep -r eval .")), undefined);
  assert.equal(secondReading(w("ls .")), undefined);
  assert.equal(secondReading(w("shellcheck x.sh")), undefined);
  // A program name that comes from input.
  assert.equal(secondReading(w("xargs env")), "xargs env");
  assert.equal(secondReading(w("xargs -0 sudo -u me")), "xargs sudo");
  assert.equal(secondReading(w("xargs -n 1 /usr/bin/nice")), "xargs /usr/bin/nice");
  assert.equal(secondReading(w("xargs -I % % x")), "xargs %");
  assert.equal(secondReading(w("xargs -0 -I{} {}")), "xargs {}");
  assert.equal(secondReading(w("xargs -i {} -rf")), "xargs {}");
  assert.equal(secondReading(w("find . -name r* -exec {} x ;")), "find -exec {}");
  assert.equal(secondReading(w("xargs -I {} cp {} /tmp")), undefined);
  assert.equal(secondReading(w("xargs -n 1 echo")), undefined);
  assert.equal(secondReading(w("xargs")), undefined);
  assert.equal(secondReading(w("xargs -a env grep x")), undefined, "-a takes the next word");
  assert.equal(secondReading(w("find . -exec grep x {} ;")), undefined);
  assert.equal(secondReading(w("find . -exec env A=1 {} ;")), "find -exec {}");
  assert.equal(secondReading(w("find . -execdir sudo -n {} +")), "find -execdir {}");
});

test("embeddedLines: words that are command lines, values of name=value", () => {
  assert.deepEqual(embeddedLines(["watch", "date; rm x"]), ["date; rm x"]);
  assert.deepEqual(embeddedLines(["git", "-c", "alias.x=!rm -rf ~", "x"]), ["rm -rf ~"]);
  assert.deepEqual(embeddedLines(["env", "A=rm"]), ["rm"]);
  assert.deepEqual(embeddedLines(["ls", "-la", "src"]), []);
  // The command's own name is never one.
  assert.deepEqual(embeddedLines(["a b"]), []);
});

test("gitConfigOption: only git's global options before the subcommand", () => {
  assert.equal(gitConfigOption(w("git -c core.pager=sh log")), "-c");
  assert.equal(gitConfigOption(w("git -C sub -c a=b status")), "-c");
  assert.equal(
    gitConfigOption(w("sudo /usr/bin/git --config-env=core.editor=E commit")),
    "--config-env",
  );
  assert.equal(gitConfigOption(w("git --exec-path=/tmp status")), "--exec-path");
  assert.equal(gitConfigOption(w("git -C -c status")), undefined); // -C takes the next word
  assert.equal(gitConfigOption(w("git commit -c HEAD")), undefined);
  assert.equal(gitConfigOption(w("git status")), undefined);
  assert.equal(gitConfigOption(w("echo -c")), undefined);
});
