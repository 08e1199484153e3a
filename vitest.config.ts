import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Hooks, the MCP server and concurrent-writer tests spawn real processes; on a 2-core
    // machine more workers only add contention.
    maxWorkers: 2,
  },
});
