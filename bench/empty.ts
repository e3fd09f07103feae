// The baseline for cold start: a compiled Bun binary that does nothing.
// bench/run.ts compiles it with the same flags as dist/xcsh.
