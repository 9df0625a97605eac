import { describe, expect, it } from "vitest";

describe("runtime", () => {
	it("runs on Node 24 (the `node` dev dependency), whatever the system Node is", () => {
		expect(process.version).toMatch(/^v24\./);
	});

	it("loads the native msgpack addon that BullMQ's serializer uses", async () => {
		const msgpackr = await import("msgpackr");
		expect(msgpackr.isNativeAccelerationEnabled).toBe(true);
	});
});
