/**
 * xcsh entry point: hands the command line to the CLI dispatcher and exits
 * with its code. Everything else lives in `src/`.
 *
 * @module
 */
import process from "node:process";
import { main } from "./src/cli/main.ts";

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
