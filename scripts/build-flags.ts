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
 * @module
 */
export const COMPILE_FLAGS: readonly string[] = [
  "--compile",
  "--minify",
  "--bytecode",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
];
