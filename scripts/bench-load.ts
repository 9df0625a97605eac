import { randomBytes, randomUUID } from "node:crypto";
import { cpus } from "node:os";
import autocannon from "autocannon";
import { callInternal } from "../shared/actions.ts";
import { waitFor } from "../test/support/processes.ts";
import {
	arg,
	BENCH_RATE_LIMITS,
	benchTarget,
	companyWithKey,
	json as call,
	ferretdbPid,
	machineTicks,
	postgresPids,
	procSample as sample,
	Tally,
} from "./bench-support.ts";

// npm run bench:load [-- --url http://127.0.0.1:3000 --rate 100 --duration 20 --connections 50]
// Drives the cluster with autocannon over a realistic mix of 20 companies' keys: opportunity
// list (40%), detail (25%), archive/unarchive (10%), feedback (10%) and product save (15%),
// first at a fixed rate, then at saturation, and prints throughput, p50/p99 per route, errors
// and each process's CPU and RSS (from /proc). Without --url it starts its own cluster
// (scripts/cluster.ts); with --url it uses a running `npm run start:cluster` and reaches its
// services over NATS (NAMESPACE, TRANSPORTER or NATS_URL) to create the companies and notices.

const URL_ARG = arg("url", "");
const RATE = Number(arg("rate", "100"));
const DURATION = Number(arg("duration", "20"));
const CONNECTIONS = Number(arg("connections", "50"));
const COMPANIES = 20;
const PRODUCTS = 5;
const NOTICES = 30;
const MODELS = Array.from({ length: PRODUCTS }, (_, i) => `LB-${9300 + i}-48P`);

interface Company {
	key: string;
	products: string[];
	opportunities: string[];
}

const json = (method: string, path: string, auth: Record<string, string>, body?: unknown) => call(base, method, path, auth, body);

async function seed(): Promise<Company[]> {
	const t0 = Date.now();
	const companies = await Promise.all(
		Array.from({ length: COMPANIES }, async (_, i) => {
			const { key, auth } = await companyWithKey(target, `Load Co ${i}`);
			const partner = await json("POST", "/products/partners", auth, { name: "Cisco" });
			const products: string[] = [];
			for (const model of MODELS) {
				const p = await json("POST", "/products", auth, {
					oem_partner_id: partner.id,
					name: `Cisco Catalyst switch ${model}`,
					model,
					description: "Stackable access switch with 48 PoE+ ports.",
				});
				products.push(p.id);
			}
			return { key, products, opportunities: [] as string[] };
		}),
	);
	for (let i = 0; i < NOTICES; i++) {
		const sid = randomUUID();
		await callInternal(broker, "opportunities.putNotice", {
			source: "ocds:load",
			source_id: sid,
			rfp_id: `LOAD-${sid.slice(0, 8)}`,
			reference_number: `REF-${sid.slice(0, 8)}`,
			title: `Cisco Catalyst ${MODELS[i % MODELS.length]} network switches, lot ${i}`,
			issuing_body: "Ministry of Load",
			description: "Supply of access switches as specified.",
			deadline: new Date(Date.now() + 30 * 86400_000).toISOString(),
		});
	}
	// Lists must be worth reading: wait until matching has written every company's opportunities.
	await waitFor(
		"matching to fill every company's list",
		async () => {
			for (const c of companies) {
				const page = await json("GET", "/opportunities?limit=100", { Authorization: `Bearer ${c.key}` });
				c.opportunities = page.items.map((o: { id: string }) => o.id);
			}
			return companies.every((c) => c.opportunities.length >= NOTICES * 0.9) ? true : undefined;
		},
		180_000,
	);
	const opps = companies.reduce((n, c) => n + c.opportunities.length, 0);
	console.log(
		`seeded ${COMPANIES} companies x ${PRODUCTS} products, ${NOTICES} notices -> ${opps} opportunities in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
	);
	return companies;
}

type Route = "list" | "detail" | "archive" | "feedback" | "product save";
const MIX: Array<[Route, number]> = [
	["list", 40],
	["detail", 25],
	["archive", 10],
	["feedback", 10],
	["product save", 15],
];
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;

function nextRequest(companies: Company[]): { route: Route; method: string; path: string; headers: Record<string, string>; body?: string } {
	let r = Math.random() * 100;
	const route = MIX.find(([, w]) => (r -= w) < 0)?.[0] ?? "list";
	const c = pick(companies);
	const headers = { Authorization: `Bearer ${c.key}`, "Content-Type": "application/json" };
	const opp = pick(c.opportunities);
	switch (route) {
		case "list":
			return { route, method: "GET", path: `/api/v1/opportunities?limit=25${Math.random() < 0.3 ? "&sort=deadline" : ""}`, headers };
		case "detail":
			return { route, method: "GET", path: `/api/v1/opportunities/${opp}`, headers };
		case "archive":
			return { route, method: Math.random() < 0.5 ? "POST" : "DELETE", path: `/api/v1/opportunities/${opp}/archive`, headers };
		case "feedback":
			return {
				route,
				method: "POST",
				path: `/api/v1/opportunities/${opp}/feedback`,
				headers,
				body: JSON.stringify({ verdict: pick(["relevant", "not_relevant"]) }),
			};
		case "product save":
			return {
				route,
				method: "PATCH",
				path: `/api/v1/products/${pick(c.products)}`,
				headers,
				body: JSON.stringify({ description: `Stackable access switch, revision ${randomBytes(3).toString("hex")}` }),
			};
	}
}

function processes(): Array<{ name: string; pid: number }> {
	const own = target.cluster?.members.map((m) => ({ name: m.id, pid: m.proc.child.pid! })) ?? [];
	const fdb = ferretdbPid();
	return [...own, { name: "bench (autocannon, proxy)", pid: process.pid }, ...(fdb ? [{ name: "FerretDB", pid: fdb }] : [])];
}

/** CPU ticks of PostgreSQL's processes alive at both samples (its pooled backends live on). */
function postgresTicks(pids: number[]): Map<number, number> {
	return new Map(
		pids.flatMap((pid) => {
			const s = sample(pid);
			return s ? [[pid, s.ticks] as [number, number]] : [];
		}),
	);
}

async function phase(title: string, companies: Company[], opts: Partial<autocannon.Options>): Promise<void> {
	const all = new Tally();
	const stats = new Map<Route, Tally>();
	const record = (route: Route, status: number, ms: number) => {
		all.record(status, ms);
		if (!stats.has(route)) stats.set(route, new Tally());
		stats.get(route)!.record(status, ms);
	};
	const procs = processes();
	const before = new Map(procs.map((p) => [p.pid, sample(p.pid)]));
	const pgPids = postgresPids();
	const pgBefore = postgresTicks(pgPids);
	const machineBefore = machineTicks();
	const peakRss = new Map<number, number>();
	const sampler = setInterval(() => {
		for (const p of procs) peakRss.set(p.pid, Math.max(peakRss.get(p.pid) ?? 0, sample(p.pid)?.rssKb ?? 0));
	}, 1000);
	const t0 = Date.now();
	const result = await autocannon({
		url: base,
		duration: DURATION,
		timeout: 10,
		...opts,
		requests: [
			{
				setupRequest: (req: any, context: any) => {
					const r = nextRequest(companies);
					context.route = r.route;
					return { ...req, method: r.method, path: r.path, headers: r.headers, body: r.body };
				},
			},
		],
		setupClient: (client: any) => {
			client.on("response", (status: number, _bytes: number, ms: number) => record(client.requestIterator.context.route, status, ms));
		},
	} as autocannon.Options);
	clearInterval(sampler);
	const seconds = (Date.now() - t0) / 1000;
	const pgAfter = postgresTicks(pgPids);
	const machineAfter = machineTicks();
	// Served means answered 2xx: the rate and the latencies count only those.
	console.log(
		`\n${title}: ${all.served} served (2xx) in ${seconds.toFixed(0)} s = ${(all.served / seconds).toFixed(0)} req/s; p50 ${all.latency(0.5)} ms, p99 ${all.latency(0.99)} ms` +
			`; not 2xx: ${all.otherStatuses()}; connection errors ${result.errors}, timeouts ${result.timeouts}`,
	);
	console.log("  route            served   p50 ms   p99 ms   not 2xx");
	for (const [route] of MIX) {
		const s = stats.get(route);
		if (s)
			console.log(
				`  ${route.padEnd(14)} ${String(s.served).padStart(8)} ${String(s.latency(0.5)).padStart(8)} ${String(s.latency(0.99)).padStart(8)}   ${s.otherStatuses()}`,
			);
	}
	const hz = 100; // USER_HZ on Linux
	console.log("  process                       CPU (avg % of a core)   peak RSS");
	for (const p of procs) {
		const a = before.get(p.pid);
		const b = sample(p.pid);
		if (!a || !b) continue;
		console.log(
			`  ${p.name.padEnd(29)} ${String(Math.round(((b.ticks - a.ticks) / hz / seconds) * 100)).padStart(10)} %   ${String(Math.round((peakRss.get(p.pid) ?? b.rssKb) / 1024)).padStart(8)} MB`,
		);
	}
	let pg = 0;
	for (const [pid, t] of pgAfter) pg += t - (pgBefore.get(pid) ?? t);
	console.log(`  ${"PostgreSQL (all processes)".padEnd(29)} ${String(Math.round((pg / hz / seconds) * 100)).padStart(10)} %`);
	const busy = (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total);
	console.log(`  machine: ${Math.round(busy * 100)} % of its ${cpus().length} cores busy`);
}

async function measure(companies: Company[]): Promise<void> {
	console.log(
		`bench:load on ${base} (${cpus().length} cores, Node ${process.version}); mix: ${MIX.map(([r, w]) => `${r} ${w}%`).join(", ")}; ${COMPANIES} companies' keys`,
	);
	await phase(`fixed rate ${RATE} req/s for ${DURATION} s (10 connections)`, companies, { connections: 10, overallRate: RATE });
	await phase(`saturation: ${CONNECTIONS} connections for ${DURATION} s`, companies, { connections: CONNECTIONS });
}

// Main, after the declarations above.
const target = await benchTarget("bl", URL_ARG, BENCH_RATE_LIMITS);
const { base, broker } = target;
try {
	const companies = await seed();
	await measure(companies);
} finally {
	await target.stop();
}
process.exit(0);
