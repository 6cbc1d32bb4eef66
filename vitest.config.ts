import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Workspace packages resolve to their TypeScript sources, so tests never run a stale build.
    conditions: ["source"],
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    // One test file more than cores: most files spend their time waiting on servers they started,
    // PostgreSQL and timers, not on the CPU (on a 2-core machine the suite took 887 s with vitest's
    // default of cores − 1 files at a time, 509 s with 3).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
