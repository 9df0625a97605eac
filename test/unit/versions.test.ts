import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROOT } from "../support/processes.ts";

// Version tokens (shared/outbox.ts newVersion) decide which of two results, requests or marks is
// newer, and they are made by several processes (two matching workers record matches for the
// same opportunity).

const freshProcess = async () => {
	vi.resetModules();
	return (await import("../../shared/outbox.ts")).newVersion;
};

afterEach(() => {
	vi.useRealTimers();
});

/** A process that answers each line it reads with a fresh token. */
function tokenProcess(): { next(): Promise<string>; stop(): void } {
	const child = spawn(
		process.execPath,
		[
			"--import",
			"tsx",
			"-e",
			`import { newVersion } from "./shared/outbox.ts"; process.stdin.on("data", () => process.stdout.write(newVersion() + "\\n"));`,
		],
		{ cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] },
	);
	const lines = createInterface({ input: child.stdout! });
	const waiting: Array<(line: string) => void> = [];
	lines.on("line", (l) => waiting.shift()?.(l));
	return {
		next: () =>
			new Promise((res) => {
				waiting.push(res);
				child.stdin!.write("\n");
			}),
		stop: () => child.kill(),
	};
}

describe("newVersion", () => {
	it("orders two processes' tokens by time, within the same second too", async () => {
		const [a, b] = [tokenProcess(), tokenProcess()];
		try {
			await Promise.all([a.next(), b.next()]); // both started
			let last = "";
			for (let i = 0; i < 40; i++) {
				// A few milliseconds apart (tokens of the same millisecond are concurrent), alternating processes.
				await new Promise((r) => setTimeout(r, 3));
				const v = await (i % 2 ? b : a).next();
				expect(v > last, `${last} then ${v}`).toBe(true);
				last = v;
			}
		} finally {
			a.stop();
			b.stop();
		}
	}, 30_000);

	it("increases within a process, in the same millisecond and when the clock steps back", async () => {
		vi.useFakeTimers();
		const next = await freshProcess();
		vi.setSystemTime(Date.UTC(2026, 10, 23, 12, 0, 0));
		const made = Array.from({ length: 1000 }, () => next());
		vi.setSystemTime(Date.UTC(2026, 10, 23, 11, 59, 0));
		made.push(next(), next());
		for (let i = 1; i < made.length; i++) expect(made[i]! > made[i - 1]!, `${made[i - 1]} then ${made[i]}`).toBe(true);
	});

	it("keeps the ObjectId shape, so tokens stored before compare lower", async () => {
		// The bound is taken on the real clock before the token is made: a slow moment between the two
		// (a loaded machine) must not fail the comparison.
		vi.useRealTimers();
		const before = Math.floor(Date.now() / 1000) - 1;
		const v = (await freshProcess())();
		expect(v).toMatch(/^[0-9a-f]{24}$/);
		const { Types } = await import("mongoose");
		expect(v > new Types.ObjectId(before).toHexString()).toBe(true);
	});
});
