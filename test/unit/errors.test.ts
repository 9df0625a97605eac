import { Errors } from "moleculer";
import { describe, expect, it } from "vitest";
import { ApiError, ERROR_CODES, ERROR_STATUS, reformatError } from "../../shared/errors.ts";

describe("reformatError", () => {
	it("keeps an ApiError's code, status, message and issues", () => {
		const f = reformatError(
			new ApiError("validation_failed", "bad", { issues: [{ path: "name", code: "too_small", message: "short" }] }),
			"r1",
		);
		expect(f.status).toBe(400);
		expect(f.body).toEqual({
			error: "validation_failed",
			message: "bad",
			requestId: "r1",
			issues: [{ path: "name", code: "too_small", message: "short" }],
			issue_count: 1,
		});
		expect(f.internal).toBe(false);
	});

	it("maps every contract code to its DESIGN.md status", () => {
		expect(ERROR_CODES).toHaveLength(23);
		for (const code of ERROR_CODES) expect(reformatError(new ApiError(code, "m"), "r").status).toBe(ERROR_STATUS[code]);
		expect(ERROR_STATUS.rate_limited).toBe(429);
		expect(ERROR_STATUS.identity_conflict).toBe(409);
		expect(ERROR_STATUS.unsupported_type).toBe(415);
	});

	it("survives a trip over the transporter as a plain object", () => {
		const e = new ApiError("rate_limited", "slow down", { headers: { "Retry-After": "3" } });
		const plain = JSON.parse(JSON.stringify({ name: e.name, message: e.message, code: e.code, type: e.type, data: e.data }));
		const f = reformatError(plain, "r");
		expect(f.status).toBe(429);
		expect(f.headers["Retry-After"]).toBe("3");
	});

	it("hides everything else behind `internal`", () => {
		const f = reformatError(new TypeError("secret stack detail at db.ts:12"), "r2");
		expect(f).toEqual({
			status: 500,
			body: { error: "internal", message: "Internal error", requestId: "r2" },
			headers: {},
			internal: true,
		});
		expect(reformatError(new Errors.MoleculerClientError("x", 400, "SOMETHING"), "r").body.error).toBe("internal");
	});

	it("answers 503 with Retry-After when a service is unreachable", () => {
		const f = reformatError(new Errors.ServiceNotFoundError({ action: "catalog.list" }), "r3");
		expect(f.status).toBe(503);
		expect(f.body.error).toBe("internal");
		expect(f.headers["Retry-After"]).toBe("5");
		expect(f.body.message).not.toContain("catalog");
	});
});
