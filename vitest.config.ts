import { defineConfig } from "vitest/config";

// Test files run in separate processes, two at a time (the machines have 2 cores); each
// file gets its own database prefix and Redis prefix (test/support/env.ts).
export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		pool: "forks",
		maxWorkers: 2,
		testTimeout: 30_000,
		hookTimeout: 60_000,
		setupFiles: ["test/support/env.ts"],
		reporters: ["default"],
	},
});
