import { describe, expect, it } from "vitest";
import { every } from "../../shared/periodic.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("every (background loops)", () => {
	it("never starts a run while the previous one is still going", async () => {
		let active = 0;
		let most = 0;
		let runs = 0;
		const loop = every(
			5,
			async () => {
				runs++;
				most = Math.max(most, ++active);
				await sleep(30);
				active--;
			},
			() => undefined,
		);
		await sleep(150);
		await loop.stop();
		expect(runs).toBeGreaterThan(1);
		expect(most).toBe(1);
	});

	it("stops only once the run in progress has ended, and starts none after", async () => {
		const events: string[] = [];
		const loop = every(
			5,
			async () => {
				events.push("start");
				await sleep(50);
				events.push("end");
			},
			() => undefined,
		);
		await sleep(20);
		await loop.stop();
		events.push("stopped");
		await sleep(40);
		expect(events).toEqual(["start", "end", "stopped"]);
	});

	it("reports a failed run and keeps running", async () => {
		const errors: unknown[] = [];
		let runs = 0;
		const loop = every(
			5,
			async () => {
				runs++;
				throw new Error("database away");
			},
			(e) => errors.push(e),
		);
		await sleep(60);
		await loop.stop();
		expect(runs).toBeGreaterThan(1);
		expect(errors).toHaveLength(runs);
	});
});
