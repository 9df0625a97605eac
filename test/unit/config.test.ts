import { describe, expect, it } from "vitest";
import { loadConfig } from "../../shared/config.ts";

describe("configuration", () => {
	it("uses the local development issuer only when DEV_ISSUER=on", () => {
		const c = loadConfig({});
		expect(c.PORT).toBe(3000);
		expect(c.OIDC_ISSUER).toBe("");
		expect(loadConfig({ DEV_ISSUER: "on" }).OIDC_ISSUER).toBe("http://localhost:3000/dev-issuer");
		expect(c.allowedOrigins).toEqual(["http://localhost:3000"]);
	});
	it("refuses the local issuer in production", () => {
		expect(() => loadConfig({ NODE_ENV: "production", CURSOR_SECRET: "x".repeat(32) })).toThrow(/local development issuer is refused/);
		expect(() =>
			loadConfig({ NODE_ENV: "production", CURSOR_SECRET: "x".repeat(32), OIDC_JWKS_URL: "https://id.example.com/jwks" }),
		).toThrow(/OIDC_ISSUER/);
		expect(() =>
			loadConfig({
				NODE_ENV: "production",
				CURSOR_SECRET: "x".repeat(32),
				OIDC_ISSUER: "https://id.example.com",
				OIDC_JWKS_URL: "https://id.example.com/jwks",
			}),
		).not.toThrow();
	});
	it("names the setting that is wrong", () => {
		expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
	});
});
