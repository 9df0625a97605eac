import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { callInternal, type Caller } from "../shared/actions.ts";
import { createBroker } from "../shared/broker.ts";
import { resetConfig } from "../shared/config.ts";
import type { ImportRowResult } from "../shared/contract/catalog.ts";
import { mintDevIdToken } from "../shared/dev-issuer.ts";
import { SERVICE_SCHEMAS } from "../services/registry.ts";
import { ingestFiles } from "./ingest-files.ts";
import { progress } from "./progress.ts";

// Development and operations commands: `npm run -s cli -- <command> [options]`.
// Results go to stdout alone (so scripts can capture them); everything else to stderr.

const COMMANDS: Record<string, { usage: string; run: (args: string[]) => Promise<string> }> = {
	"tenant:create": {
		usage: "tenant:create --name <company> --owner <email>   creates a company, its owner and an active membership; prints the tenant id",
		async run(args) {
			const { values } = parseArgs({ args, options: { name: { type: "string" }, owner: { type: "string" } }, strict: true });
			if (!values.name || !values.owner) throw new Error("tenant:create needs --name and --owner");
			const { name, owner } = values;
			return (await withService("auth-keys", (c) => callInternal(c, "auth-keys.createTenant", { name, ownerEmail: owner }))).tenantId;
		},
	},
	"member:set": {
		usage: "member:set --tenant <id> --email <email> [--disabled]   adds, re-enables or disables a member",
		async run(args) {
			const { values } = parseArgs({
				args,
				options: { tenant: { type: "string" }, email: { type: "string" }, disabled: { type: "boolean" } },
				strict: true,
			});
			if (!values.tenant || !values.email) throw new Error("member:set needs --tenant and --email");
			const { tenant, email } = values;
			const r = await withService("auth-keys", (c) =>
				callInternal(c, "auth-keys.setMembership", { tenantId: tenant, email, status: values.disabled ? "disabled" : "active" }),
			);
			return JSON.stringify(r);
		},
	},
	"catalog:import": {
		usage: "catalog:import --tenant <id> <file.csv|file.json>   imports up to 5,000 products (partner by name); prints the summary as JSON",
		async run(args) {
			const { values, positionals } = parseArgs({ args, options: { tenant: { type: "string" } }, allowPositionals: true, strict: true });
			const [file, ...extra] = positionals;
			const tenantId = values.tenant;
			if (!tenantId || !file || extra.length) throw new Error("catalog:import needs --tenant and one file");
			const text = await readFile(file, "utf8");
			// JSON by extension, else by content: a CSV header cannot start with "[".
			const body: unknown = /\.json$/i.test(file) || (!/\.csv$/i.test(file) && text.trimStart().startsWith("[")) ? JSON.parse(text) : text;
			const summary = await withService("catalog", async (c) => {
				const { rows } = await callInternal(c, "catalog.parseImport", { body });
				const results: ImportRowResult[] = [];
				const tick = progress(rows.length);
				for (let i = 0; i < rows.length; i += 100) {
					const r = await callInternal(c, "catalog.importRows", { tenantId, rows: rows.slice(i, i + 100) });
					results.push(...r.rows);
					tick(results.length);
				}
				const count = (o: string) => results.filter((r) => r.outcome === o).length;
				return {
					total: results.length,
					created: count("created"),
					already_exists: count("already_exists"),
					invalid: count("invalid"),
					rows: results,
				};
			});
			return JSON.stringify(summary);
		},
	},
	ingest: {
		usage:
			"ingest <file or folder>...   reads procurement feed files (SAM.gov JSON, OCDS JSON, TED eForms XML; format detected) and stores their notices; prints the summary as JSON",
		async run(args) {
			const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
			if (!positionals.length) throw new Error("ingest needs at least one file or folder");
			return JSON.stringify(await withService("opportunities", (c) => ingestFiles(positionals, c)));
		},
	},
	"digest:preview": {
		usage:
			"digest:preview --tenant <id> [--out <file.html>]   writes the company's next digest as HTML (nothing is sent); prints the file's path",
		async run(args) {
			const { values } = parseArgs({ args, options: { tenant: { type: "string" }, out: { type: "string" } }, strict: true });
			const tenantId = values.tenant;
			if (!tenantId) throw new Error("digest:preview needs --tenant");
			const preview = await withServices(["notifications", "opportunities", "auth-keys"], (c) =>
				callInternal(c, "notifications.previewDigest", { tenantId }),
			);
			const out = resolve(values.out ?? `.data/digest-preview-${values.tenant}.html`);
			await mkdir(dirname(out), { recursive: true });
			await writeFile(out, preview.html);
			process.stderr.write(
				`${preview.subject} (${preview.items} new, ${preview.updated} updated) for ${preview.recipients.join(", ") || "no recipient"}\n`,
			);
			return out;
		},
	},
	"dev:token": {
		usage:
			"dev:token --email <email> [--unverified] [--subject <sub>]   prints an ID token signed by the local development issuer (DEV_ISSUER=on)",
		async run(args) {
			const { values } = parseArgs({
				args,
				options: { email: { type: "string" }, unverified: { type: "boolean" }, subject: { type: "string" } },
				strict: true,
			});
			if (!values.email) throw new Error("dev:token needs --email");
			return mintDevIdToken({ email: values.email, emailVerified: !values.unverified, subject: values.subject });
		},
	},
};

const CLI_CALL_TIMEOUT_MS = 10 * 60_000;

/** Runs one service in this process (no transporter, no logs on stdout) for the call. */
function withService<T>(name: string, fn: (caller: Caller) => Promise<T>): Promise<T> {
	return withServices([name], fn);
}

/** Runs services in this process for the call: no transporter, no background workers, no logs on stdout. */
async function withServices<T>(names: string[], fn: (caller: Caller) => Promise<T>): Promise<T> {
	process.env.WORKERS = "off";
	// A command's broker lives for one call: no ops server (nor a clash with a running stack's port).
	process.env.OPS_PORT = "off";
	resetConfig();
	const broker = createBroker(
		names.map((n) => SERVICE_SCHEMAS[n]!),
		{ transporter: null, logger: false, nodeID: `cli-${process.pid}` },
	);
	await broker.start();
	try {
		// A command's call is a batch of work in this process (50 notices written to a busy store), not a
		// request a client waits on: the broker's 10 s request timeout cut ingests short under load.
		return await fn({ call: (action, params) => broker.call(action, params, { timeout: CLI_CALL_TIMEOUT_MS }) });
	} finally {
		await broker.stop();
	}
}

function usage(): string {
	return `Usage: npm run -s cli -- <command> [options]\n\n${Object.values(COMMANDS)
		.map((c) => `  ${c.usage}`)
		.join("\n")}\n`;
}

const [name, ...rest] = process.argv.slice(2);
const command = name ? COMMANDS[name] : undefined;
if (!command) {
	process.stderr.write(name && name !== "help" ? `Unknown command: ${name}\n\n${usage()}` : usage());
	process.exit(name && name !== "help" ? 2 : 0);
}
try {
	process.stdout.write(`${await command.run(rest)}\n`);
	process.exit(0);
} catch (e) {
	const err = e as { message?: string; data?: { issues?: Array<{ path: string; message: string }> } };
	const issues = err.data?.issues?.map((i) => `  ${i.path}: ${i.message}`).join("\n");
	process.stderr.write(`error: ${err.message ?? String(e)}${issues ? `\n${issues}` : ""}\n`);
	process.exit(1);
}
