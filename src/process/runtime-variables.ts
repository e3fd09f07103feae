/**
 * Which environment variables steer a JavaScript runtime, and so never reach
 * a process xcsh starts.
 *
 * Bun, Deno and Node read variables that add code or flags to a program's
 * start (`BUN_OPTIONS="--preload ./x.js"`, `NODE_OPTIONS`, `DENO_V8_FLAGS`,
 * `BUN_JSC_*`), open a debugger port (`BUN_INSPECT*`), turn the program into
 * the bare runtime (`BUN_BE_BUN`), move where modules are resolved from
 * (`NODE_PATH`, `NODE_PRESERVE_SYMLINKS`) or make it write or send files
 * (`BUN_BYTECODE_ORDER_OUT`, `BUN_CRASH_REPORT_URL`, `NODE_V8_COVERAGE`,
 * `DENO_COVERAGE_DIR`). The rule: every `BUN_*` name but the four that only
 * say where Bun is installed; every `DENO_*` name but those that only locate
 * Deno's cache, install folder or certificates; the `NODE_*` names above.
 *
 * xcsh's own process keeps what the user's environment gave it (that
 * environment is the user's); its child xcsh processes, launchers, hooks,
 * MCP servers, commands and git never get these. Pure.
 *
 * @example
 * ```ts
 * withoutRuntimeVariables({ PATH: "/usr/bin", BUN_OPTIONS: "--preload ./x.js", NODE_PATH: "." });
 * // { PATH: "/usr/bin" }
 * ```
 *
 * @module
 */

/** `BUN_*` names that only say where Bun is installed. */
const BUN_KEPT = new Set([
  "BUN_INSTALL",
  "BUN_INSTALL_BIN",
  "BUN_INSTALL_CACHE_DIR",
  "BUN_INSTALL_GLOBAL_DIR",
]);

/** `DENO_*` names that only locate Deno's cache, install folder or certificates. */
const DENO_KEPT = new Set([
  "DENO_DIR",
  "DENO_INSTALL_ROOT",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_NO_UPDATE_CHECK",
  "DENO_NO_PROMPT",
]);

/** `NODE_*` names Node (and Bun's Node compatibility) reads to load or trace code. */
const NODE_STEERING = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_PRESERVE_SYMLINKS",
  "NODE_PRESERVE_SYMLINKS_MAIN",
  "NODE_REPL_EXTERNAL_MODULE",
  "NODE_V8_COVERAGE",
  "NODE_COMPILE_CACHE",
  "NODE_ICU_DATA",
]);

/** Whether `name` changes how a runtime started with it loads or runs code. */
export function steersRuntime(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper.startsWith("BUN_")) return !BUN_KEPT.has(upper);
  if (upper.startsWith("DENO_")) return !DENO_KEPT.has(upper);
  return NODE_STEERING.has(upper);
}

/** `env` without the variables that steer a runtime, and without unset ones. */
export function withoutRuntimeVariables(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !steersRuntime(name)) out[name] = value;
  }
  return out;
}
