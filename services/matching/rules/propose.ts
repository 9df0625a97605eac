import { randomUUID } from "node:crypto";
import type { RuleType } from "../../../shared/contract/settings.ts";
import { isDuplicateKeyError } from "../../../shared/mongo.ts";
import { newRequest } from "../../../shared/outbox.ts";
import { isFamilyKey, type Feature } from "./features.ts";
import type { EvidenceDoc, RuleDoc, RuleModels } from "./models.ts";

// When evidence becomes a rule, and what a rule learned from evidence looks like. The decision
// (decide) is a pure function of the evidence, the rule as stored and the company's counts, so a
// replayed feedback job recomputes the same rule; reconsiderRules applies it to the store.

/** A feature becomes a rule once net evidence (negative verdicts minus relevant ones) reaches this. */
export const PROPOSE_AT = 3;
/** At most this many active rules per company (the contract's rule_cap_reached). */
export const MAX_ACTIVE_RULES = 50;
/**
 * At most this many rules (on or off) per company: past it new proposals are not created (and
 * logged). Above MAX_ACTIVE_RULES so switched-off proposals (phrases, or ones made while the
 * active cap was reached) can wait for a person without blocking the list.
 */
export const MAX_RULES = 100;
/**
 * Rule types switched on as soon as they are proposed. These features name the notice's source,
 * classification, eligibility or nature: three verdicts against one of them say the company does
 * not want such notices. A title phrase is weaker evidence (two words can sit in wanted and
 * unwanted titles alike), so a phrase rule is proposed switched off for a person to turn on.
 */
export const ACTIVE_BY_DEFAULT: ReadonlySet<RuleType> = new Set<RuleType>([
	"issuing_body",
	"category_code",
	"set_aside",
	"services_nature",
]);

const NEGATIVE = ["not_relevant", "not_eligible", "wrong_product"] as const;

export interface Tally {
	negative: number;
	positive: number;
	/** Negative verdicts by kind, for the description. */
	verdicts: Record<string, number>;
}

export function tally(docs: ReadonlyArray<Pick<EvidenceDoc, "polarity" | "verdict">>): Tally {
	const t: Tally = { negative: 0, positive: 0, verdicts: {} };
	for (const d of docs) {
		if (d.polarity === "positive") t.positive++;
		else {
			t.negative++;
			t.verdicts[d.verdict] = (t.verdicts[d.verdict] ?? 0) + 1;
		}
	}
	return t;
}

export const netEvidence = (t: Tally): number => Math.max(0, t.negative - t.positive);

function what(type: string, label: string): string {
	switch (type) {
		case "issuing_body":
			return `notices from ${label}`;
		case "category_code":
			return `notices classified ${label}`;
		case "phrase":
			return `notices whose title says "${label}"`;
		case "set_aside":
			return `notices marked ${label}`;
		default:
			return `${label} contracts (not a purchase of goods)`;
	}
}

/** "Lower the score of notices from Ministry of Health: 3 of your verdicts said not relevant". */
export function describeRule(type: string, label: string, t: Tally): string {
	const kinds = NEGATIVE.filter((v) => t.verdicts[v]).map((v) => v.replace("_", " "));
	const said = kinds.length ? kinds.join(" or ") : "not relevant";
	const against = t.positive ? `; ${t.positive} said relevant` : "";
	return `Lower the score of ${what(type, label)}: ${t.negative} of your verdicts said ${said}${against}`;
}

export interface RuleState {
	active: boolean;
	set_by: "learning" | "person";
	evidence_count: number;
	description: string;
}

export interface CompanyCounts {
	/** Rules of the company that are active. */
	active: number;
	/** Rules of the company, on or off. */
	total: number;
}

export type Decision =
	| { kind: "none" }
	| { kind: "skip"; reason: "rule_cap" | "narrower_code_explains_it" }
	| { kind: "create"; state: RuleState }
	| { kind: "update"; set: Partial<RuleState>; activeChanged: boolean };

/**
 * What the evidence on one feature means for its rule.
 * - No rule yet: one is proposed at PROPOSE_AT net evidence (switched on for ACTIVE_BY_DEFAULT
 *   types while fewer than MAX_ACTIVE_RULES are on), unless MAX_RULES exist, or it is a code
 *   family whose verdicts one code of the family explains as well (the narrower rule is enough).
 * - A rule whose `active` learning set follows the evidence: on while it holds, off when it no
 *   longer does (a verdict changed to relevant). A rule a person switched keeps that choice;
 *   only its evidence_count and description follow the verdicts.
 */
export function decide(
	type: RuleType,
	key: string,
	label: string,
	t: Tally,
	existing: RuleState | null,
	counts: CompanyCounts,
	narrowerNet = 0,
): Decision {
	const net = netEvidence(t);
	const description = describeRule(type, label, t);
	if (!existing) {
		if (net < PROPOSE_AT) return { kind: "none" };
		if (isFamilyKey(key) && net <= narrowerNet) return { kind: "skip", reason: "narrower_code_explains_it" };
		if (counts.total >= MAX_RULES) return { kind: "skip", reason: "rule_cap" };
		const active = ACTIVE_BY_DEFAULT.has(type) && counts.active < MAX_ACTIVE_RULES;
		return { kind: "create", state: { active, set_by: "learning", evidence_count: net, description } };
	}
	const active =
		existing.set_by === "person"
			? existing.active
			: ACTIVE_BY_DEFAULT.has(type) && net >= PROPOSE_AT && (existing.active || counts.active < MAX_ACTIVE_RULES);
	const set: Partial<RuleState> = {};
	if (existing.evidence_count !== net) set.evidence_count = net;
	if (existing.description !== description) set.description = description;
	if (existing.active !== active) set.active = active;
	if (Object.keys(set).length === 0) return { kind: "none" };
	return { kind: "update", set, activeChanged: existing.active !== active };
}

/** For a family key, the best net evidence of one full code of the family among its documents. */
export function narrowerNet(familyId: string, docs: ReadonlyArray<Pick<EvidenceDoc, "polarity" | "verdict" | "features">>): number {
	const prefix = familyId.slice(0, -1);
	const byCode = new Map<string, Array<Pick<EvidenceDoc, "polarity" | "verdict">>>();
	for (const d of docs)
		for (const f of d.features) if (f !== familyId && f.startsWith(prefix) && !isFamilyKey(f)) byCode.set(f, [...(byCode.get(f) ?? []), d]);
	let best = 0;
	for (const ds of byCode.values()) best = Math.max(best, netEvidence(tally(ds)));
	return best;
}

export interface Reconsidered {
	/** Rules whose `active` changed: their rescore request is written, to be sent. */
	toRescore: RuleDoc[];
	created: number;
	updated: number;
	skipped: Array<{ feature: string; reason: string }>;
}

/** Runs a function holding the company's rule lock (lock.ts withRuleLock). */
export type UnderLock = <T>(fn: () => Promise<T>) => Promise<T>;

/** Counts that never block a switch: a decision that switches nothing on under them needs no counts. */
const ROOM: CompanyCounts = { active: 0, total: 0 };

/**
 * Recounts the evidence of each feature and brings its rule in line (decide). Every count is
 * read from the evidence documents, so running it twice gives the same rules. Only a decision
 * that may switch a rule on (a new rule, or an existing one switched on) depends on the
 * company's counts, and only those run under the lock, with the counts read there: most
 * verdicts only move evidence counts and descriptions, or switch rules off, which need neither
 * (lock.ts: switching off only makes room).
 */
export async function reconsiderRules(
	m: RuleModels,
	tenantId: string,
	ids: Iterable<string>,
	labels: ReadonlyMap<string, Feature>,
	underLock: UnderLock,
): Promise<Reconsidered> {
	const out: Reconsidered = { toRescore: [], created: 0, updated: 0, skipped: [] };
	const unique = [...new Set(ids)].sort();
	// One read of each kind for every feature of the verdict (a verdict has a dozen), not two per feature.
	const [evidence, stored] = await Promise.all([
		m.evidence.find({ tenant_id: tenantId, features: { $in: unique } }, { polarity: 1, verdict: 1, features: 1 }).lean<EvidenceDoc[]>(),
		m.rules.find({ tenant_id: tenantId, key: { $in: [...new Set(unique.map((id) => splitFeature(id).key))] } }).lean<RuleDoc[]>(),
	]);
	const ruleOf = new Map(stored.map((r) => [`${r.rule_type}|${r.key}`, r]));
	const docsOf = (id: string) => evidence.filter((d) => d.features.includes(id));
	const switching: string[] = [];
	for (const id of unique) {
		const settled = await settleRule(m, tenantId, id, docsOf(id), ruleOf.get(id) ?? null, labels, ROOM, out, false);
		if (!settled) switching.push(id);
	}
	if (switching.length === 0) return out;
	await underLock(async () => {
		const [active, total] = await Promise.all([
			m.rules.countDocuments({ tenant_id: tenantId, active: true }),
			m.rules.countDocuments({ tenant_id: tenantId }),
		]);
		const counts: CompanyCounts = { active, total };
		for (const id of switching) {
			const { type, key } = splitFeature(id);
			const existing = await m.rules.findOne({ tenant_id: tenantId, rule_type: type, key }).lean<RuleDoc>();
			await settleRule(m, tenantId, id, docsOf(id), existing, labels, counts, out, true);
		}
	});
	return out;
}

const splitFeature = (id: string) => ({ type: id.slice(0, id.indexOf("|")) as RuleType, key: id.slice(id.indexOf("|") + 1) });

/**
 * Brings one feature's rule in line with its evidence. Without `mayCreate` (outside the lock) a
 * decision that creates or switches on a rule is not applied: answers false, to be settled under
 * the lock. `counts` follow what this call writes.
 */
async function settleRule(
	m: RuleModels,
	tenantId: string,
	id: string,
	docs: EvidenceDoc[],
	read: RuleDoc | null,
	labels: ReadonlyMap<string, Feature>,
	counts: CompanyCounts,
	out: Reconsidered,
	mayCreate: boolean,
): Promise<boolean> {
	const { type, key } = splitFeature(id);
	const t = tally(docs);
	for (let attempt = 0; attempt < 2; attempt++) {
		// The first attempt decides on the rule as read; a retry reads what another writer stored meanwhile.
		const existing = attempt === 0 ? read : await m.rules.findOne({ tenant_id: tenantId, rule_type: type, key }).lean<RuleDoc>();
		const label = existing?.label ?? labels.get(id)?.label ?? key;
		const state = existing
			? {
					active: existing.active,
					set_by: existing.set_by as RuleState["set_by"],
					evidence_count: existing.evidence_count,
					description: existing.description,
				}
			: null;
		const d = decide(type, key, label, t, state, counts, isFamilyKey(key) && !existing ? narrowerNet(id, docs) : 0);
		if (d.kind === "none") return true;
		if (d.kind === "skip") {
			out.skipped.push({ feature: id, reason: d.reason });
			return true;
		}
		if (!mayCreate && (d.kind === "create" || (d.activeChanged && d.set.active))) return false;
		const now = new Date();
		if (d.kind === "create") {
			try {
				const doc = await m.rules.create({
					_id: randomUUID(),
					tenant_id: tenantId,
					rule_type: type,
					key,
					label,
					...d.state,
					created_at: now,
					updated_at: now,
					rescore: d.state.active ? newRequest() : null,
				});
				counts.total++;
				if (d.state.active) {
					counts.active++;
					out.toRescore.push(doc.toObject() as RuleDoc);
				}
				out.created++;
				return true;
			} catch (e) {
				if (isDuplicateKeyError(e)) continue; // another worker proposed it first: update theirs
				throw e;
			}
		}
		// Only while the stored rule is as read, so a person's switch in between is not overwritten.
		const r = await m.rules.updateOne(
			{ _id: existing!._id, active: existing!.active, set_by: existing!.set_by },
			{ $set: { ...d.set, updated_at: now, ...(d.activeChanged ? { rescore: newRequest() } : {}) } },
		);
		if (r.matchedCount === 0) continue; // changed meanwhile: decide again on what is stored now
		out.updated++;
		if (d.activeChanged) {
			counts.active += d.set.active ? 1 : -1;
			const doc = await m.rules.findById(existing!._id).lean<RuleDoc>();
			if (doc) out.toRescore.push(doc);
		}
		return true;
	}
	return true;
}
