import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "../../services/gateway/openapi.ts";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { ROOT } from "../support/processes.ts";

// A gateway process alone imports the contract modules in another order than a process with
// every service; the served document (and the client generated from it) must not change.

const run = promisify(execFile);

describe("the OpenAPI document", () => {
	it("does not depend on the order the contract modules were imported in", async () => {
		const script = [
			'await import("./shared/contract/settings.ts");',
			'await import("./shared/contract/opportunities.ts");',
			'await import("./shared/contract/catalog.ts");',
			'const { buildOpenApi } = await import("./services/gateway/openapi.ts");',
			'const { API_ROUTES } = await import("./services/gateway/routes.ts");',
			"process.stdout.write(JSON.stringify(buildOpenApi(API_ROUTES)));",
		].join("\n");
		const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
			cwd: ROOT,
			maxBuffer: 32 * 1024 * 1024,
		});
		const here = buildOpenApi(API_ROUTES);
		const there = JSON.parse(stdout);
		expect(Object.keys(there.components.schemas)).toEqual(Object.keys(here.components.schemas));
		expect(JSON.stringify(there)).toBe(JSON.stringify(here));
	}, 60_000);
});
