import { parseArgs } from "node:util";
import { createBroker } from "../shared/broker.ts";
import { mintDevIdToken } from "../shared/dev-issuer.ts";
import { SERVICE_SCHEMAS } from "../services/registry.ts";

// Development and operations commands: `npm run -s cli -- <command> [options]`.
// Results go to stdout alone (so scripts can capture them); everything else to stderr.

const COMMANDS: Record<string, { usage: string; run: (args: string[]) => Promise<string> }> = {
	"tenant:create": {
		usage: "tenant:create --name <company> --owner <email>   creates a company, its owner and an active membership; prints the tenant id",
		async run(args) {
			const { values } = parseArgs({ args, options: { name: { type: "string" }, owner: { type: "string" } }, strict: true });
			if (!values.name || !values.owner) throw new Error("tenant:create needs --name and --owner");
			const r = await withService("auth-keys", (call) => call("auth-keys.createTenant", { name: values.name, ownerEmail: values.owner }));
			return (r as { tenantId: string }).tenantId;
		},
	},
	"member:set": {
		usage: "member:set --tenant <id> --email <email> [--disabled]   adds, re-enables or disables a member",
		async run(args) {
			const { values } = parseArgs({ args, options: { tenant: { type: "string" }, email: { type: "string" }, disabled: { type: "boolean" } }, strict: true });
			if (!values.tenant || !values.email) throw new Error("member:set needs --tenant and --email");
			const r = await withService("auth-keys", (call) => call("auth-keys.setMembership", { tenantId: values.tenant, email: values.email, status: values.disabled ? "disabled" : "active" }));
			return JSON.stringify(r);
		},
	},
	"dev:token": {
		usage: "dev:token --email <email> [--unverified] [--subject <sub>]   prints an ID token signed by the local development issuer",
		async run(args) {
			const { values } = parseArgs({ args, options: { email: { type: "string" }, unverified: { type: "boolean" }, subject: { type: "string" } }, strict: true });
			if (!values.email) throw new Error("dev:token needs --email");
			if (process.env.NODE_ENV === "production") throw new Error("dev:token is refused in production");
			return mintDevIdToken({ email: values.email, emailVerified: !values.unverified, subject: values.subject });
		},
	},
};

type Call = (action: string, params: unknown) => Promise<unknown>;

/** Runs one service in this process (no transporter, no logs on stdout) for the call. */
async function withService<T>(name: string, fn: (call: Call) => Promise<T>): Promise<T> {
	const broker = createBroker([SERVICE_SCHEMAS[name]!], { transporter: null, logger: false, nodeID: `cli-${process.pid}` });
	await broker.start();
	try {
		return await fn((action, params) => broker.call(action, params as object));
	} finally {
		await broker.stop();
	}
}

function usage(): string {
	return `Usage: npm run -s cli -- <command> [options]\n\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join("\n")}\n`;
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
