/**
 * Runs the whole suite under Bun, then under Deno, and ends with one line
 * `N passed, N failed` summing both. Exits non-zero when either runner fails.
 *
 *   bun scripts/test.ts [FILES...]
 */
import { spawn } from "node:child_process";
import process from "node:process";

const files = process.argv.slice(2);
const deno = process.platform === "win32" ? "node_modules/.bin/deno.cmd" : "node_modules/.bin/deno";

interface Outcome {
  code: number;
  passed: number;
  failed: number;
}

function run(
  command: string,
  args: string[],
  count: (out: string) => [number, number],
): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const tee = (chunk: Buffer, to: NodeJS.WriteStream) => {
      out += chunk.toString("utf8");
      to.write(chunk);
    };
    child.stdout.on("data", (c: Buffer) => tee(c, process.stdout));
    child.stderr.on("data", (c: Buffer) => tee(c, process.stderr));
    child.on("close", (code) => {
      const [passed, failed] = count(out.replace(ANSI, ""));
      resolve({ code: code ?? 1, passed, failed });
    });
  });
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const num = (re: RegExp, s: string) => Number(re.exec(s)?.[1] ?? 0);

const bun = await run(process.execPath, ["test", "--timeout", "120000", ...files], (s) => [
  num(/^\s*(\d+) pass$/m, s),
  num(/^\s*(\d+) fail$/m, s),
]);
const den = await run(deno, ["test", "-A", "--no-check", ...files], (s) => {
  const line = /^(?:ok|FAILED) \| (.*)$/m.exec(s)?.[1] ?? "";
  const passed = num(/(\d+) passed \((\d+) steps?\)/, line) > 0
    ? num(/passed \((\d+) steps?\)/, line)
    : num(/(\d+) passed/, line);
  const failed = /failed \((\d+) steps?\)/.test(line)
    ? num(/failed \((\d+) steps?\)/, line)
    : num(/(\d+) failed/, line);
  return [passed, failed];
});

console.log(`\nbun:  ${bun.passed} passed, ${bun.failed} failed (exit ${bun.code})`);
console.log(`deno: ${den.passed} passed, ${den.failed} failed (exit ${den.code})`);
console.log(`${bun.passed + den.passed} passed, ${bun.failed + den.failed} failed`);
process.exit(bun.code !== 0 || den.code !== 0 ? 1 : 0);
