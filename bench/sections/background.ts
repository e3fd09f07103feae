/**
 * Background start: `dist/xcsh run --background` must return about as fast
 * as `dist/xcsh --version` (target ≤ 1.5×): it checks the flags, starts the
 * detached run and prints its id, nothing more. Each background run is
 * waited for (untimed) before the next measurement, so that no run competes
 * with the next one for the CPU.
 *
 * @module
 */
import { cleanEnv, requireXcsh, timedSync, XCSH } from "../measure.ts";
import { taskHome } from "./tasks.ts";
import { details, median, row } from "../report.ts";

export function benchBackground(): void {
  requireXcsh();
  // Nothing listens there: each run fails at once, which is all the wait needs.
  const { home, cwd } = taskHome("background", "http://127.0.0.1:9", 8);
  const env = cleanEnv({ HOME: home, XCSH_RETRY_BASE_MS: "1" });
  const start = () => timedSync(XCSH, ["run", "--background", "task", "say hi"], { cwd, env });
  const version = () => timedSync(XCSH, ["--version"], { cwd, env });
  const settle = (id: string) => {
    try {
      timedSync(XCSH, ["wait", id], { cwd, env });
    } catch {
      // the run fails by design (nothing answers); it has ended
    }
  };
  settle(start().stdout.trim());
  version();
  const bg: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = start();
    bg.push(s.ms);
    settle(s.stdout.trim());
    v.push(version().ms);
  }
  row(
    "background",
    "xcsh run --background (returns with the run id)",
    median(bg),
    median(v),
    "ms",
    1.5,
  );
  details.background = { backgroundMs: bg, versionMs: v };
}
