// Measures the offline ask answerer on a labelled question set, with no stack running: each notice
// is ingested as production ingests it (parseFeed, the first version of its process, the stored
// fields, the opportunities service's reading view, JSON as over the bus), grounded and answered.
//
// A set is a directory: either the synthetic shape (questions.json beside notices.ocds.json, as
// ../shared/eval/dev) or a set.json naming parts, each with its questions and notices file and
// whether it is measured only (eval/real-ask: a tuning part and a measured-only part).
//
// Scores (eval/real-ask/README.md):
//   answerable    the answer contains every expected fact and is not a "not stated" answer; facts
//                 match ignoring case, runs of white space and digit-group separators ("9 920" = "9920")
//   unanswerable  the answer says the notice does not state it ("not stated" / "does not state")
//   bench         latency of one answer (grounding + answering), p50 / p95 / max over every question
//
// Usage: npm run eval:ask [-- DIR] [--verbose] [--questions FILE]
//   DIR           the set (default ../shared/eval/dev); e.g. eval/real-ask
//   --verbose     prints every miss with its answer
//   --questions   scores another question file over a one-part set's notices (test/unit/ask/heldout*.json)
//   --part NAME   only that part of a set (e.g. --part tune while tuning: the measured part stays unread)
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { buildGrounding, type AskNotice } from "../services/ask/context.ts";
import { normalizeForMatch } from "../services/ask/values.ts";
import { answerExtractive, EXTRACTIVE_MODEL } from "../services/ask/extractive.ts";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import { mergeVersion } from "../services/opportunities/feeds/versions.ts";
import { storedFields } from "../services/opportunities/ingest.ts";
import type { NoticeDoc } from "../services/opportunities/models.ts";
import { noticeForReading } from "../services/opportunities/notices.ts";
import { firstVersions } from "./eval-signals.ts";

export const Question = z.object({ ocid: z.string(), question: z.string().min(1), answerable: z.boolean(), expected: z.array(z.string()) });
export type Question = z.infer<typeof Question>;

const SetFile = z.object({
	parts: z.record(z.string(), z.object({ questions: z.string(), notices: z.string(), measured_only: z.boolean().default(false) })),
});

export interface Part {
	name: string;
	questions: string;
	notices: string;
	measuredOnly: boolean;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SYNTHETIC_DIR = resolve(root, "../shared/eval/dev");

/** The "not stated" answers: the answerer's fixed phrase, or the words the task names. */
export const NOT_STATED_RE = /\b(not stated|does not state|do not state|doesn't state)\b/i;

/** Whether an answer states an expected fact. */
export function statesFact(answer: string, fact: string): boolean {
	return normalizeForMatch(answer).includes(normalizeForMatch(fact));
}

/** The parts of a set directory: set.json's, or the one part of a synthetic-shaped directory. */
export function partsOf(dir: string, questionsOverride?: string): Part[] {
	const setFile = resolve(dir, "set.json");
	if (existsSync(setFile) && !questionsOverride) {
		const set = SetFile.parse(JSON.parse(readFileSync(setFile, "utf8")));
		return Object.entries(set.parts).map(([name, p]) => ({
			name,
			questions: resolve(dir, p.questions),
			notices: resolve(dir, p.notices),
			measuredOnly: p.measured_only,
		}));
	}
	return [
		{
			name: basename(dir),
			questions: questionsOverride ?? resolve(dir, "questions.json"),
			notices: resolve(dir, "notices.ocds.json"),
			measuredOnly: false,
		},
	];
}

/** Every process's first version, as the opportunities service hands it to ask. */
export function loadNotices(noticesFile: string): Map<string, AskNotice> {
	const out = new Map<string, AskNotice>();
	for (const [ocid, n] of firstVersions(parseFeed(readFileSync(noticesFile)).notices)) {
		const doc = { _id: "eval", ...storedFields(mergeVersion(null, n).notice, new Date(0)) } as unknown as NoticeDoc;
		out.set(ocid, JSON.parse(JSON.stringify(noticeForReading(doc))) as AskNotice);
	}
	return out;
}

export interface EvalResult {
	answerable: number;
	answerableRight: number;
	refusedAnswerable: number;
	unanswerable: number;
	unanswerableRight: number;
	misses: { question: Question; answer: string }[];
	/** Milliseconds per answer, grounding included, in question order. */
	latencies: number[];
	ms: number;
}

/** Answers every question of `questionsFile` over the notices of `notices` (a notices.ocds.json, or the directory holding it). */
export function evaluate(questionsFile: string, notices: string): EvalResult {
	const questions = z.array(Question).parse(JSON.parse(readFileSync(questionsFile, "utf8")));
	const byOcid = loadNotices(notices.endsWith(".json") ? notices : resolve(notices, "notices.ocds.json"));
	const out: EvalResult = {
		answerable: 0,
		answerableRight: 0,
		refusedAnswerable: 0,
		unanswerable: 0,
		unanswerableRight: 0,
		misses: [],
		latencies: [],
		ms: 0,
	};
	const started = performance.now();
	for (const q of questions) {
		const notice = byOcid.get(q.ocid);
		if (!notice) throw new Error(`no notice ${q.ocid} in ${notices}`);
		const t0 = performance.now();
		const { answer } = answerExtractive(buildGrounding({ notice, opportunity: null, profile: null }), q.question);
		out.latencies.push(performance.now() - t0);
		const refused = NOT_STATED_RE.test(answer);
		let right: boolean;
		if (q.answerable) {
			out.answerable++;
			if (refused) out.refusedAnswerable++;
			right = !refused && q.expected.every((fact) => statesFact(answer, fact));
			if (right) out.answerableRight++;
		} else {
			out.unanswerable++;
			right = refused;
			if (right) out.unanswerableRight++;
		}
		if (!right) out.misses.push({ question: q, answer });
	}
	out.ms = performance.now() - started;
	return out;
}

/** The q-quantile of some numbers (nearest rank). */
export function quantile(values: number[], q: number): number {
	if (!values.length) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function main(): void {
	const args = process.argv.slice(2);
	const verbose = args.includes("--verbose");
	const qi = args.indexOf("--questions");
	const questionsOverride = qi >= 0 && args[qi + 1] ? resolve(args[qi + 1]!) : undefined;
	const pi = args.indexOf("--part");
	const only = pi >= 0 ? args[pi + 1] : undefined;
	const dirArg = args.find((a, i) => !a.startsWith("--") && (qi < 0 || i !== qi + 1) && (pi < 0 || i !== pi + 1));
	const dir = dirArg ? resolve(dirArg) : SYNTHETIC_DIR;
	const share = (a: number, b: number) => (b ? (a / b).toFixed(3) : "n/a");
	const latencies: number[] = [];
	console.log(`ask eval (offline answerer ${EXTRACTIVE_MODEL}): ${dir}`);
	for (const part of partsOf(dir, questionsOverride).filter((p) => !only || p.name === only)) {
		const r = evaluate(part.questions, part.notices);
		latencies.push(...r.latencies);
		if (verbose) {
			for (const { question: q, answer } of r.misses) {
				const expected = q.expected.join(" | ") || "(not stated)";
				console.log(
					`MISS ${q.ocid} ${q.answerable ? "answerable" : "unanswerable"}: ${q.question}\n  expected: ${expected}\n  answer:   ${answer.replace(/\n/g, "\n            ")}\n`,
				);
			}
		}
		const all = r.answerable + r.unanswerable;
		console.log(`part ${part.name}${part.measuredOnly ? " (measured only)" : ""}: ${part.questions}`);
		console.log(
			`  answerable:   ${r.answerableRight}/${r.answerable} = ${share(r.answerableRight, r.answerable)}  (every expected fact; ${r.refusedAnswerable} wrongly answered "not stated")`,
		);
		console.log(
			`  unanswerable: ${r.unanswerableRight}/${r.unanswerable} = ${share(r.unanswerableRight, r.unanswerable)}  (answered "not stated")`,
		);
		console.log(
			`  overall:      ${r.answerableRight + r.unanswerableRight}/${all} = ${share(r.answerableRight + r.unanswerableRight, all)}`,
		);
	}
	const ms = (q: number) => quantile(latencies, q).toFixed(1);
	console.log(
		`bench: ${latencies.length} answers offline, p50 ${ms(0.5)} ms, p95 ${ms(0.95)} ms, max ${ms(1)} ms (grounding + answer, one process)`,
	);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
