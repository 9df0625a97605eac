import { describe, expect, it } from "vitest";
import { Admission } from "../../shared/admission.ts";

// Run-to-completion admission (shared/admission.ts): at most `limit` requests run at once, the
// others start in the order they arrived, and a request that fails still gives up its slot.

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("Admission", () => {
	it("runs at most its limit at once, and admits the waiting in arrival order", async () => {
		const door = new Admission(2);
		let running = 0;
		let most = 0;
		const started: number[] = [];
		const all = Array.from({ length: 7 }, (_, i) =>
			door.run(async () => {
				started.push(i);
				most = Math.max(most, ++running);
				await tick();
				running--;
				return i * 10;
			}),
		);
		expect(door.load).toEqual({ active: 2, waiting: 5 });
		expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50, 60]);
		expect(most).toBe(2);
		expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
		expect(door.load).toEqual({ active: 0, waiting: 0 });
	});

	it("frees the slot of a request that throws", async () => {
		const door = new Admission(1);
		const failed = door.run(async () => {
			await tick();
			throw new Error("boom");
		});
		const next = door.run(async () => "ran");
		await expect(failed).rejects.toThrow("boom");
		expect(await next).toBe("ran");
		expect(door.load).toEqual({ active: 0, waiting: 0 });
	});
});
