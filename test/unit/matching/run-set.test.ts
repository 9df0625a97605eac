import { describe, expect, it } from "vitest";
import { compactRuns } from "../../../services/matching/method/model-number.ts";
import { RunSet, runHash } from "../../../services/matching/method/run-set.ts";
import { tokenize } from "../../../services/matching/method/text.ts";

// The hashed run set must answer exactly as the set of runs it replaces.

const text = "Supply of Cisco C9300-48P-A switches, Catalyst 9300 series or equal";

describe("RunSet", () => {
	it("holds the same runs as compactRuns, in any spelling of a model number", () => {
		const runs = RunSet.of(text);
		const exact = compactRuns(tokenize(text));
		expect(new Set(runs)).toEqual(exact);
		expect(runs.size).toBe(exact.size);
		for (const r of exact) expect(runs.has(r)).toBe(true);
		expect(runs.has("c930048pa")).toBe(true);
		expect(runs.has("c930048pb")).toBe(false);
		expect(runs.has("juniper")).toBe(false);
	});

	it("never answers yes for a key that only shares a run's hash", () => {
		// Two lowercase keys with the same 32-bit hash (a birthday search over generated keys).
		const seen = new Map<number, string>();
		let pair: [string, string] | null = null;
		for (let i = 0; !pair && i < 2_000_000; i++) {
			const key = `k${i.toString(36)}`;
			const h = runHash(key);
			const other = seen.get(h);
			if (other !== undefined) pair = [other, key];
			else seen.set(h, key);
		}
		expect(pair).not.toBeNull();
		const [present, absent] = pair!;
		expect(runHash(present)).toBe(runHash(absent));
		const runs = RunSet.of(`model ${present}`);
		expect(runs.has(present)).toBe(true);
		expect(runs.has(absent)).toBe(false);
	});
});
