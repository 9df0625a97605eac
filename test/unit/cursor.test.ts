import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../shared/cursor.ts";

describe("cursor codec", () => {
	it("round-trips the sort key and id", () => {
		for (const p of [{ k: 87.5, id: "a" }, { k: "2026-01-01T00:00:00.000Z", id: "b" }, { k: null, id: "c" }]) expect(decodeCursor(encodeCursor(p))).toEqual(p);
	});

	it("rejects a tampered, truncated or foreign cursor as validation_failed", () => {
		const c = encodeCursor({ k: 10, id: "x" });
		const [data, mac] = c.split(".");
		const forged = `${Buffer.from(JSON.stringify({ k: 99, id: "x" })).toString("base64url")}.${mac}`;
		for (const bad of [forged, c.slice(0, -2), `${data}`, `${c}.x`, "%%%", `${data}.${"A".repeat(22)}`]) {
			expect(() => decodeCursor(bad)).toThrowError(expect.objectContaining({ type: "validation_failed" }));
		}
	});
});
