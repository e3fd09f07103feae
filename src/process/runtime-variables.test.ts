import { test } from "node:test";
import assert from "node:assert/strict";
import { steersRuntime, withoutRuntimeVariables } from "./runtime-variables.ts";

test("every BUN_ name steers the runtime but those that say where Bun is installed", () => {
  for (
    const name of [
      "BUN_OPTIONS",
      "BUN_BE_BUN",
      "BUN_INSPECT",
      "BUN_INSPECT_CONNECT_TO",
      "BUN_INSPECT_PRELOAD",
      "BUN_JSC_useJIT",
      "BUN_CONFIG_VERBOSE_FETCH",
      "BUN_FEATURE_FLAG_DISABLE_SOURCE_MAPS",
      "BUN_BYTECODE_ORDER_OUT",
      "BUN_RUNTIME_TRANSPILER_CACHE_PATH",
      "BUN_CRASH_REPORT_URL",
      "bun_options",
    ]
  ) assert.equal(steersRuntime(name), true, name);
  for (const name of ["BUN_INSTALL", "BUN_INSTALL_BIN", "BUN_INSTALL_CACHE_DIR"]) {
    assert.equal(steersRuntime(name), false, name);
  }
});

test("Deno's flags steer it; its cache and certificate locations do not", () => {
  for (const name of ["DENO_V8_FLAGS", "DENO_COMPAT", "DENO_CONDITIONS", "DENO_COVERAGE_DIR"]) {
    assert.equal(steersRuntime(name), true, name);
  }
  for (const name of ["DENO_DIR", "DENO_CERT", "DENO_NO_UPDATE_CHECK"]) {
    assert.equal(steersRuntime(name), false, name);
  }
});

test("NODE_OPTIONS and NODE_PATH steer; other NODE_ names and ordinary ones do not", () => {
  for (const name of ["NODE_OPTIONS", "NODE_PATH", "NODE_PRESERVE_SYMLINKS", "NODE_V8_COVERAGE"]) {
    assert.equal(steersRuntime(name), true, name);
  }
  for (
    const name of ["NODE_ENV", "NODE_EXTRA_CA_CERTS", "PATH", "HOME", "XBUN_OPTIONS", "MY_BUN_X"]
  ) {
    assert.equal(steersRuntime(name), false, name);
  }
});

test("withoutRuntimeVariables keeps the rest and leaves out unset ones", () => {
  assert.deepEqual(
    withoutRuntimeVariables({
      PATH: "/usr/bin",
      BUN_OPTIONS: "--preload ./x.js",
      NODE_PATH: ".",
      UNSET: undefined,
      BUN_INSTALL: "/opt/bun",
    }),
    { PATH: "/usr/bin", BUN_INSTALL: "/opt/bun" },
  );
});
