import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, listingKey } from "../../shared/cursor.ts";

describe("cursor codec", () => {
	const listing = listingKey("tenant-a", "-score");

	it("round-trips the sort key and id", () => {
		for (const p of [
			{ k: 87.5, id: "a" },
			{ k: "2026-01-01T00:00:00.000Z", id: "b" },
			{ k: null, id: "c" },
		]) {
			expect(decodeCursor(encodeCursor({ ...p, s: listing }), listing)).toEqual({ ...p, s: listing });
		}
	});

	it("rejects a tampered, truncated or foreign cursor as validation_failed", () => {
		const c = encodeCursor({ k: 10, id: "x", s: listing });
		const [data, mac] = c.split(".");
		const forged = `${Buffer.from(JSON.stringify({ k: 99, id: "x", s: listing })).toString("base64url")}.${mac}`;
		for (const bad of [forged, c.slice(0, -2), `${data}`, `${c}.x`, "%%%", `${data}.${"A".repeat(22)}`]) {
			expect(() => decodeCursor(bad, listing)).toThrowError(expect.objectContaining({ type: "validation_failed" }));
		}
	});

	it("binds a cursor to its company and order", () => {
		const c = encodeCursor({ k: 10, id: "x", s: listing });
		expect(listingKey("tenant-b", "-score")).not.toBe(listing);
		for (const other of [listingKey("tenant-b", "-score"), listingKey("tenant-a", "deadline")]) {
			expect(() => decodeCursor(c, other)).toThrowError(expect.objectContaining({ type: "validation_failed" }));
		}
	});
});
