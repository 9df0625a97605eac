import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { callInternal } from "../shared/actions.ts";
import { arg, benchTarget, companyWithKey, ferretdbPid, json, procSample, Tally } from "./bench-support.ts";

// npm run bench:backlog [-- --rows 5000 --notices 30 --url http://127.0.0.1:3000]
// A bulk import's indexing against a person's single saves, on the cluster: one company imports
// --rows products that --notices open notices concern; while matching drains that backlog,
// another company saves one product over and over (PATCH, then GET). Prints how long the backlog
// took to drain, the save and read latencies during the drain (and before it, for comparison),
// and each process's CPU. Without --url it starts its own cluster (scripts/cluster.ts).

const ROWS = Number(arg("rows", "5000"));
const NOTICES = Number(arg("notices", "30"));
const MAX_DRAIN_S = Number(arg("max-drain", "900"));

const t = await benchTarget("bb", arg("url", ""));
try {
	const bulk = await companyWithKey(t, "Bulk Importer");
	const one = await companyWithKey(t, "Single Saver");
	await json(t.base, "POST", "/products/partners", bulk.auth, { name: "Bulk OEM" });
	const partner = await json(t.base, "POST", "/products/partners", one.auth, { name: "HP Inc." });
	const product = await json(t.base, "POST", "/products", one.auth, {
		oem_partner_id: partner.id,
		name: "HP LaserJet Pro 4001dn",
		model: "2Z600F",
	});
	for (let i = 0; i < NOTICES; i++) {
		const sid = randomUUID();
		await callInternal(t.broker, "opportunities.putNotice", {
			source: "ocds:bench",
			source_id: sid,
			rfp_id: `BB-${sid.slice(0, 8)}`,
			reference_number: `BB-${sid.slice(0, 8)}`,
			title: `Supply of part P-${(i * 37) % ROWS}, size M${i % 20}`,
			issuing_body: "Ministry of Benchmarks",
			description: "Spare parts as specified, commodity 31161500.",
			deadline: new Date(Date.now() + 30 * 86400_000).toISOString(),
		});
	}

	const pending = async () =>
		(await callInternal(t.broker, "catalog.pendingIndexViews", { tenantId: bulk.tenantId, limit: 1 })).items.length > 0;
	// Latencies of the 2xx answers; any other answer is counted apart, by status.
	let save = new Tally();
	let read = new Tally();
	const saveAndRead = async () => {
		await save.time(() =>
			json(t.base, "PATCH", `/products/${product.id}`, one.auth, { description: `Revision ${randomUUID().slice(0, 6)}` }),
		);
		await read.time(() => json(t.base, "GET", `/products/${product.id}`, one.auth));
	};
	const report = (label: string) => {
		const row = (s: Tally) =>
			`served ${s.served} p50 ${s.latency(0.5)} ms p90 ${s.latency(0.9)} ms p99 ${s.latency(0.99)} ms max ${s.latency(1)} ms; not 2xx: ${s.otherStatuses()}`;
		console.log(`  ${label}\n    PATCH /products/:id  ${row(save)}\n    GET /products/:id    ${row(read)}`);
		save = new Tally();
		read = new Tally();
	};

	console.log(
		`bench:backlog on ${t.base} (${cpus().length} cores, Node ${process.version}): ${ROWS} products imported by one company, ${NOTICES} notices, another company saving one product`,
	);
	const idleEnd = Date.now() + 10_000;
	while (Date.now() < idleEnd) await saveAndRead();
	report("idle (10 s before the import)");

	const fdb = ferretdbPid();
	const procs = [
		...(t.cluster?.members.map((m) => ({ name: m.id, pid: m.proc.child.pid! })) ?? []),
		...(fdb ? [{ name: "ferretdb", pid: fdb }] : []),
	];
	const before = new Map(procs.map((p) => [p.pid, procSample(p.pid)]));
	const rows = Array.from({ length: ROWS }, (_, i) => ({
		partner: "Bulk OEM",
		name: `Part ${i}`,
		model: `P-${i}`,
		commodity_codes: ["31161500"],
		specs: { size: `M${i % 20}` },
	}));
	const t0 = Date.now();
	const imported = await json(t.base, "POST", "/products/import", bulk.auth, rows);
	const importS = (Date.now() - t0) / 1000;
	let checked = 0;
	while ((await pending()) && Date.now() - t0 < MAX_DRAIN_S * 1000) {
		await saveAndRead();
		checked++;
	}
	const drainS = (Date.now() - t0) / 1000;
	const drained = !(await pending());
	console.log(
		`  import: ${imported.created} created in ${importS.toFixed(1)} s; ` +
			`indexing backlog ${drained ? "drained" : "NOT drained"} ${drainS.toFixed(0)} s after the import began ` +
			`(${(imported.created / drainS).toFixed(1)} products/s), ${checked} save+read rounds meanwhile`,
	);
	report("during the drain");
	if (procs.length) {
		console.log("  process           CPU during the drain (avg % of a core)   RSS");
		for (const p of procs) {
			const a = before.get(p.pid);
			const b = procSample(p.pid);
			if (a && b)
				console.log(
					`  ${p.name.padEnd(17)} ${String(Math.round(((b.ticks - a.ticks) / 100 / drainS) * 100)).padStart(6)} %   ${String(Math.round(b.rssKb / 1024)).padStart(36)} MB`,
				);
		}
	}
	if (!drained) process.exitCode = 1;
} finally {
	await t.stop();
}
process.exit(process.exitCode ?? 0);
