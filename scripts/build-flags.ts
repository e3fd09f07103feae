/**
 * The `bun build --compile` flags every binary of the project is built with:
 * dist/xcsh (scripts/build.ts) and the baselines the bench compares it with
 * (bench/measure.ts), so that a baseline is compiled the way xcsh is.
 *
 * The autoload flags make the binary read nothing of the folder it starts
 * in: no bunfig.toml (whose preload would run a repository's code inside
 * xcsh), no .env (whose variables would steer it), no tsconfig.json or
 * package.json.
 *
 * `--compile-jit-policy` makes the JIT that many times more reluctant to
 * compile: a start (a child's whole life against a quick model, `--version`,
 * `agents`) runs most of its code once, and compiling it cost a child about
 * 4 ms of its 24 ms of CPU. A process that keeps running gets the normal
 * policy back after its first second (`normalJitAfter`, src/runtime.ts), and
 * code that is hot before that still compiles, only later.
 *
 * @module
 */
export const COMPILE_FLAGS: readonly string[] = [
  "--compile",
  "--minify",
  "--bytecode",
  "--compile-jit-policy=20",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
];
