// Why: the code stays in one format (Biome, tabs, 140 columns; biome.json) so that a review reads
// changes, not reflowed lines. `npm run format` fixes what this finds.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

describe("source format", () => {
	it("has nothing for the formatter to change", () => {
		const run = spawnSync(resolve(ROOT, "node_modules/.bin/biome"), ["format"], { cwd: ROOT, encoding: "utf8" });
		expect(run.status, `${run.stdout}\n${run.stderr}`.slice(0, 2000)).toBe(0);
	});
});
