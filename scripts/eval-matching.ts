import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import { loadDevSet } from "../services/matching/method/eval/dev-set.ts";
import { evaluate } from "../services/matching/method/eval/evaluate.ts";
import { averagePrecision, counts, f1, ndcgAt, rankByScore } from "../services/matching/method/eval/metrics.ts";
import { QUEUES } from "../shared/queue.ts";
import { cli, freePort, ROOT, startServiceProcess, waitFor } from "../test/support/processes.ts";

// npm run eval:matching [-- DATASET_DIR] [--verbose]   (default ../shared/eval/dev; e.g. eval/real/measure; --verbose lists wrong signals)
// A labeled set (catalogs.json, notices.ocds.json, qrels.json, signals.json) through the running stack, as a customer would load it: companies,
// partners, profiles and catalogs through the public API, notices through the ingest command;
// then, once matching has settled, each company's opportunities as the API lists them, scored
// against the graded labels. The BM25 baseline is computed offline on the same set.

const VERBOSE = process.argv.includes("--verbose");
const DEV = resolve(process.argv.slice(2).find((a) => !a.startsWith("-")) ?? resolve(ROOT, "../shared/eval/dev"));
/** Digest lines at which precision and recall are printed besides each company's own setting. */
const LINES = [50, 60, 70];
const catalogs = JSON.parse(readFileSync(resolve(DEV, "catalogs.json"), "utf8")) as Array<{
	tenant: string;
	profile: { certifications?: string[]; set_asides?: string[]; naics_codes?: string[] };
	partners: Array<{ name: string; relationship?: string }>;
	products: Array<Record<string, unknown>>;
}>;
const qrels = JSON.parse(readFileSync(resolve(DEV, "qrels.json"), "utf8")) as Array<{
	tenant: string;
	ocid: string;
	grade: number;
	cancelled?: boolean;
}>;
const signalLabels = JSON.parse(readFileSync(resolve(DEV, "signals.json"), "utf8")) as Record<string, Record<string, unknown>>;

const suffix = randomBytes(3).toString("hex");
// DEV_ISSUER: the evaluation signs in through the local development issuer (dev:token).
const env = {
	PORT: "",
	DEV_ISSUER: "on",
	LOG_LEVEL: "warn",
	MONGO_DB_PREFIX: `eval${suffix}`,
	REDIS_PREFIX: `oms-eval-${suffix}`,
	OUTBOX_RECONCILE_MS: "5000",
};
env.PORT = String(await freePort());
const base = `http://127.0.0.1:${env.PORT}`;
const server = startServiceProcess(env);

async function http(method: string, path: string, cookie: string, body?: unknown) {
	const res = await fetch(`${base}/api/v1${path}`, {
		method,
		headers: { Cookie: cookie, Origin: "http://localhost:3000", ...(body ? { "Content-Type": "application/json" } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	const json = (await res.json().catch(() => null)) as any;
	if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
	return json;
}

/** Matching has settled when its queues stay empty for a few seconds. */
async function settle(): Promise<void> {
	const connection = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
	const queues = [QUEUES.productIndex, QUEUES.noticeMatch].map((q) => new Queue(q, { connection, prefix: `${env.REDIS_PREFIX}:bull` }));
	let quiet = 0;
	const t0 = Date.now();
	while (quiet < 3 && Date.now() - t0 < 600_000) {
		const pending = (await Promise.all(queues.map((q) => q.getJobCounts("waiting", "active", "delayed", "prioritized")))).reduce(
			(n, c) => n + Object.values(c).reduce((a, b) => a + b, 0),
			0,
		);
		quiet = pending === 0 ? quiet + 1 : 0;
		await new Promise((r) => setTimeout(r, 1000));
	}
	await Promise.all(queues.map((q) => q.close()));
	connection.disconnect();
}

try {
	await waitFor("the service to start", async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 60_000);
	const t0 = Date.now();
	const sessions = new Map<string, string>();
	for (const [i, c] of catalogs.entries()) {
		const email = `owner${i}-${suffix}@eval.example`;
		const created = await cli(["tenant:create", "--name", c.tenant, "--owner", email], env);
		if (created.code !== 0) throw new Error(created.stderr);
		const token = (await cli(["dev:token", "--email", email], env)).stdout.trim();
		const signIn = await fetch(`${base}/api/v1/session`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
		const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
		sessions.set(c.tenant, cookie);
		await http("PATCH", "/profile", cookie, {
			company_name: c.tenant,
			certifications: (c.profile.certifications ?? []).map((name) => ({ name })),
			set_asides: c.profile.set_asides ?? [],
			naics_codes: c.profile.naics_codes ?? [],
		});
		for (const p of c.partners)
			await http("POST", "/products/partners", cookie, { name: p.name, ...(p.relationship ? { relationship: p.relationship } : {}) });
		const report = await http("POST", "/products/import", cookie, c.products);
		if (report.created !== c.products.length) throw new Error(`${c.tenant}: import created ${report.created} of ${c.products.length}`);
	}
	const ingested = await cli(["ingest", resolve(DEV, "notices.ocds.json")], env);
	if (ingested.code !== 0) throw new Error(ingested.stderr);
	await settle();
	const loadSeconds = (Date.now() - t0) / 1000;

	// ocid -> the rfp_id the API shows, from the same parser ingestion used.
	const rfpToOcid = new Map<string, string>();
	for (const n of parseFeed(readFileSync(resolve(DEV, "notices.ocds.json"))).notices) rfpToOcid.set(n.rfp_id, n.source_id);

	console.log(
		`eval:matching on ${DEV}: ${catalogs.length} companies, loaded through the API and the ingest command in ${loadSeconds.toFixed(0)} s`,
	);
	console.log("company                            min  rel  dig  TP  FP  FN      P      R     F1  traps    MAP  nDCG10");
	const pooled = { tp: 0, fp: 0, fn: 0 };
	const atLine = LINES.map(() => ({ tp: 0, fp: 0, fn: 0 }));
	let traps = 0;
	const maps: number[] = [];
	const ndcgs: number[] = [];
	const signalHits: Record<string, [number, number]> = {};
	const signalMisses: string[] = [];
	const seenSignals = new Set<string>();
	for (const c of catalogs) {
		const cookie = sessions.get(c.tenant)!;
		const minScore = (await http("GET", "/settings/notifications", cookie)).digest_min_score as number;
		const scores = new Map<string, number>();
		const ids = new Map<string, string>();
		let cursor: string | null = null;
		do {
			const page: { items: any[]; nextCursor: string | null } = await http(
				"GET",
				`/opportunities?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
				cookie,
			);
			for (const o of page.items) {
				const ocid = rfpToOcid.get(o.rfp_id);
				if (ocid && o.score !== null && o.source_status !== "cancelled") scores.set(ocid, o.score);
				if (ocid) ids.set(ocid, o.id);
			}
			cursor = page.nextCursor;
		} while (cursor);
		const mine = qrels.filter((q) => q.tenant === c.tenant);
		const grades = new Map(mine.map((q) => [q.ocid, q.cancelled ? 0 : q.grade]));
		const relevant = new Set(mine.filter((q) => !q.cancelled && q.grade >= 2).map((q) => q.ocid));
		const digest = new Set([...scores].filter(([, s]) => s >= minScore).map(([id]) => id));
		LINES.forEach((line, i) => {
			const at = counts(new Set([...scores].filter(([, s]) => s >= line).map(([id]) => id)), relevant);
			atLine[i]!.tp += at.tp;
			atLine[i]!.fp += at.fp;
			atLine[i]!.fn += at.fn;
		});
		const k = counts(digest, relevant);
		const m = f1(k);
		const t = [...digest].filter((id) => grades.get(id) === 0 && mine.some((q) => q.ocid === id)).length;
		const ranking = rankByScore(scores);
		const ap = averagePrecision(ranking, relevant);
		const nd = ndcgAt(ranking, grades, 10);
		pooled.tp += k.tp;
		pooled.fp += k.fp;
		pooled.fn += k.fn;
		traps += t;
		maps.push(ap);
		ndcgs.push(nd);
		console.log(
			`${c.tenant.slice(0, 34).padEnd(34)} ${String(minScore).padStart(4)} ${String(relevant.size).padStart(4)} ` +
				`${String(digest.size).padStart(4)} ${String(k.tp).padStart(3)} ${String(k.fp).padStart(3)} ${String(k.fn).padStart(3)}  ` +
				`${m.precision.toFixed(3)}  ${m.recall.toFixed(3)}  ${m.f1.toFixed(3)}  ` +
				`${String(t).padStart(5)}  ${ap.toFixed(3)}   ${nd.toFixed(3)}`,
		);
		// Signals as the API shows them, once per notice.
		for (const [ocid, id] of ids) {
			if (seenSignals.has(ocid) || !signalLabels[ocid]) continue;
			seenSignals.add(ocid);
			const s = (await http("GET", `/opportunities/${id}`, cookie)).signals as Record<string, unknown> | null;
			if (!s) continue;
			for (const field of [
				"bid_eligibility",
				"requires_manufacturer",
				"requires_oem_documentation",
				"procurement_nature",
				"mandatory_certifications",
			]) {
				const want = signalLabels[ocid]![field];
				const got = s[field];
				const ok = Array.isArray(want) ? JSON.stringify([...want].sort()) === JSON.stringify([...(got as string[])].sort()) : want === got;
				const h = (signalHits[field] ??= [0, 0]);
				h[0] += ok ? 1 : 0;
				h[1]++;
				if (!ok) signalMisses.push(`${field} ${ocid}: labeled ${JSON.stringify(want)}, shown ${JSON.stringify(got)}`);
			}
		}
	}
	const overall = f1(pooled);
	const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
	console.log(
		`overall: digest F1 ${overall.f1.toFixed(3)} (P ${overall.precision.toFixed(3)}, R ${overall.recall.toFixed(3)}), ` +
			`traps in digests ${traps}, MAP ${mean(maps).toFixed(3)}, nDCG@10 ${mean(ndcgs).toFixed(3)}`,
	);
	for (const [i, line] of LINES.entries()) {
		const m = f1(atLine[i]!);
		console.log(`  at score >= ${line}: P ${m.precision.toFixed(3)}, R ${m.recall.toFixed(3)}, F1 ${m.f1.toFixed(3)}`);
	}
	console.log(`signals (the ${seenSignals.size} notices that reached a company's list, as GET /opportunities/{id} shows them):`);
	for (const [field, [ok, n]] of Object.entries(signalHits)) console.log(`  ${field.padEnd(28)} ${((100 * ok) / n).toFixed(1)}% of ${n}`);
	// Which notices a signal is wrong on, only when asked: a measured-only part is read for its figures, not its cases.
	if (VERBOSE) for (const miss of signalMisses.slice(0, 20)) console.log(`    miss: ${miss}`);
	const b = evaluate(loadDevSet(DEV)).overall.bm25;
	console.log(
		`BM25 baseline (product names as saved searches, offline): F1 when every match is alerted ${b.f1AllMatches.toFixed(3)}; ` +
			`best F1 with a threshold chosen after seeing the labels ${b.bestF1.toFixed(3)}; ` +
			`MAP ${b.map.toFixed(3)}; nDCG@10 ${b.ndcg10.toFixed(3)}`,
	);
} finally {
	await server.stop();
}
