// Measures the offline ask answerer on the dev question set (../shared/eval/dev, or ASK_EVAL_DIR):
// for each question, the notice is built from the first tender release of its ocid in
// notices.ocds.json (the questions' notices are not amended), mapped the way ingestion maps OCDS
// (title, description, buyer, tender period, value, items, eligibility, contacts, place, documents
// as `details`), and answered by the extractive answerer directly: no stack needed.
//
// Scores:
//   answerable    the answer contains every expected fact (case-insensitive) and is not a
//                 "not stated" answer (a refusal that happens to quote the fact does not count)
//   unanswerable  the answer says the notice does not state it ("not stated" / "does not state")
//
// Usage: npm run eval:ask [-- --verbose] [-- --questions file.json]
//   --verbose prints every miss with its answer; --questions scores another question set over the
//   same notices (test/unit/ask/heldout-questions.json: questions written without tuning on them).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildGrounding, type AskNotice } from "../services/ask/context.ts";
import { answerExtractive } from "../services/ask/extractive.ts";

export interface Question {
	ocid: string;
	question: string;
	answerable: boolean;
	expected: string[];
}

type Json = Record<string, any>;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = process.env.ASK_EVAL_DIR ?? resolve(root, "../shared/eval/dev");
const verbose = process.argv.includes("--verbose");
// --questions <file>: another question set over the same notices (e.g. test/unit/ask/heldout-questions.json).
const questionsArg = process.argv.indexOf("--questions");
const questionsFile = questionsArg > 0 && process.argv[questionsArg + 1] ? resolve(process.argv[questionsArg + 1]!) : resolve(dir, "questions.json");

/** The "not stated" answers: the answerer's fixed phrase, or the words the task names. */
export const NOT_STATED_RE = /\b(not stated|does not state|do not state|doesn't state)\b/i;

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** One OCDS tender release as the notice ingestion would store (NoticeInput fields, details included). */
function noticeOf(release: Json): AskNotice {
	const tender: Json = release.tender ?? {};
	const parties: Json[] = Array.isArray(release.parties) ? release.parties : [];
	const buyer = parties.find((p) => p.id === release.buyer?.id) ?? parties.find((p) => (p.roles ?? []).includes("buyer"));
	const items: Json[] = Array.isArray(tender.items) ? tender.items : [];
	const address = (a: Json | undefined) =>
		a ? { text: str(a.streetAddress), city: str(a.locality), region: str(a.region), postal_code: str(a.postalCode), country: str(a.countryName) } : null;
	const delivery = items.map((i) => i.deliveryAddress).find(Boolean);
	const contact = buyer?.contactPoint;
	return {
		title: tender.title ?? "",
		issuing_body: release.buyer?.name ?? buyer?.name ?? "",
		description: tender.description ?? "",
		rfp_id: tender.id ?? release.ocid,
		reference_number: tender.id ?? "",
		deadline: tender.tenderPeriod?.endDate ?? null,
		categories: items.flatMap((i) => [i.classification, ...(i.additionalClassifications ?? [])].filter(Boolean).map((c: Json) => ({ scheme: c.scheme, code: String(c.id), ...(c.description ? { label: c.description } : {}) }))),
		estimated_value: typeof tender.value?.amount === "number" ? tender.value.amount : null,
		currency: tender.value?.currency ?? null,
		source_url: null,
		details: {
			items: items.map((i) => ({
				description: i.description ?? "",
				quantity: typeof i.quantity === "number" ? i.quantity : null,
				unit: i.unit?.name ?? null,
				classification: i.classification ? { scheme: i.classification.scheme, code: String(i.classification.id), label: i.classification.description } : null,
				lot: i.relatedLot ?? null,
			})),
			eligibility: str(tender.eligibilityCriteria),
			place_of_performance: address(delivery) ?? address(buyer?.address),
			contacts: contact ? [{ name: str(contact.name), email: str(contact.email), phone: str(contact.telephone) }] : [],
			documents: (Array.isArray(tender.documents) ? tender.documents : []).map((d: Json) => ({ title: str(d.title), url: str(d.url) })),
			procurement_method: str(tender.procurementMethod),
			procurement_category: str(tender.mainProcurementCategory),
		},
	};
}

export interface EvalResult {
	answerable: number;
	answerableRight: number;
	refusedAnswerable: number;
	unanswerable: number;
	unanswerableRight: number;
	misses: { question: Question; answer: string }[];
	ms: number;
}

/** Answers every question of `questionsFile` over the notices of `noticesDir` and scores them. */
export function evaluate(questionsFile: string, noticesDir: string): EvalResult {
	const questions = JSON.parse(readFileSync(questionsFile, "utf8")) as Question[];
	const pkg = JSON.parse(readFileSync(resolve(noticesDir, "notices.ocds.json"), "utf8")) as { releases: Json[] };
	const firstTender = new Map<string, Json>();
	for (const r of pkg.releases) if ((r.tag ?? []).includes("tender") && !firstTender.has(r.ocid)) firstTender.set(r.ocid, r);
	const out: EvalResult = { answerable: 0, answerableRight: 0, refusedAnswerable: 0, unanswerable: 0, unanswerableRight: 0, misses: [], ms: 0 };
	const started = performance.now();
	for (const q of questions) {
		const release = firstTender.get(q.ocid);
		if (!release) throw new Error(`no tender release for ${q.ocid}`);
		const grounding = buildGrounding({ notice: noticeOf(release), opportunity: null, profile: null });
		const { answer } = answerExtractive(grounding, q.question);
		const refused = NOT_STATED_RE.test(answer);
		let right: boolean;
		if (q.answerable) {
			out.answerable++;
			if (refused) out.refusedAnswerable++;
			right = !refused && q.expected.every((fact) => answer.toLowerCase().includes(fact.toLowerCase()));
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

function main(): void {
	const r = evaluate(questionsFile, dir);
	if (verbose) {
		for (const { question: q, answer } of r.misses) {
			console.log(`MISS ${q.ocid} ${q.answerable ? "answerable" : "unanswerable"}: ${q.question}\n  expected: ${q.expected.join(" | ") || "(not stated)"}\n  answer:   ${answer.replace(/\n/g, "\n            ")}\n`);
		}
	}
	const share = (a: number, b: number) => (b ? (a / b).toFixed(3) : "n/a");
	console.log(`ask eval (offline answerer oms-extractive-1): ${questionsFile}`);
	console.log(`answerable:   ${r.answerableRight}/${r.answerable} = ${share(r.answerableRight, r.answerable)}  (answer contains every expected fact; ${r.refusedAnswerable} wrongly answered "not stated")`);
	console.log(`unanswerable: ${r.unanswerableRight}/${r.unanswerable} = ${share(r.unanswerableRight, r.unanswerable)}  (answered "not stated")`);
	const all = r.answerable + r.unanswerable;
	console.log(`overall:      ${r.answerableRight + r.unanswerableRight}/${all} = ${share(r.answerableRight + r.unanswerableRight, all)}`);
	console.log(`time:         ${r.ms.toFixed(0)} ms for ${all} questions`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
