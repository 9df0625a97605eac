// The labeled set as the service reads it, and the engine's steps after the matching method, shared by
// the offline evaluation (eval-matching-offline.ts --as-api) and the weight fit (fit-matching.ts) so that
// the fit learns from exactly the scores the evaluation measures. Also the two fixed folds of a set.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompanyProfile } from "../shared/contract/catalog.ts";
import type { Signals } from "../shared/contract/opportunities.ts";
import { judgeEligibility } from "../services/matching/eligibility.ts";
import { BARRED_FACTOR, RECORD_MIN_SCORE } from "../services/matching/engine.ts";
import type { DevSet } from "../services/matching/method/eval/dev-set.ts";
import type { AfterScoring } from "../services/matching/method/eval/evaluate.ts";
import type { NoticeView } from "../services/matching/method/types.ts";
import { explainSignals } from "../services/matching/signals/extract.ts";
import { noticeView, signalsInput } from "../services/matching/views.ts";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import type { NormalizedNotice } from "../services/opportunities/feeds/notice.ts";
import { forMatching } from "./eval-signals.ts";

/** Fold a or b of a notice (by a hash of its ocid): a change tuned on one fold is checked on the other. */
export function foldOf(ocid: string): "a" | "b" {
	return Number.parseInt(createHash("sha256").update(`fold:${ocid}`).digest("hex")[0] ?? "0", 16) % 2 === 0 ? "a" : "b";
}

/** The set as the service reads it (parseFeed, storage, matching's view with the signals), and the engine's steps after the method. */
export function asApi(set: DevSet, devDir: string): { set: DevSet; after: AfterScoring } {
	// Every version of a process, in order: the store keeps the latest.
	const latest = new Map<string, NormalizedNotice>();
	for (const n of parseFeed(readFileSync(join(devDir, "notices.ocds.json"))).notices) latest.set(n.source_id, n);
	const read = new Map<string, { view: NoticeView; signals: Signals }>();
	for (const [id, n] of latest) {
		const stored = forMatching(n, id);
		const { signals, explanation } = explainSignals(signalsInput(stored));
		read.set(id, { view: noticeView(stored, signals, explanation.bid_eligibility.rule), signals });
	}
	const profiles = new Map<string, CompanyProfile>(
		set.tenants.map((t) => [
			t.tenantId,
			{
				company_name: t.tenantId,
				certifications: t.profile.certifications.map((name) => ({ name, number: null, expires_at: null })),
				set_asides: t.profile.setAsides as CompanyProfile["set_asides"],
				naics_codes: t.profile.naicsCodes,
				places_served: [],
				manufacturer_partners: [],
				updated_at: null,
			},
		]),
	);
	const after: AfterScoring = (tenantId, noticeId, scored) => {
		const r = read.get(noticeId);
		if (!r) return scored;
		const raw = Math.round(scored.score);
		if (scored.bestProduct === null || raw < RECORD_MIN_SCORE) return { ...scored, score: 0 };
		const e = judgeEligibility(r.signals, profiles.get(tenantId) ?? null, true, r.view.openCall === true);
		return e.barred ? { ...scored, score: Math.round(raw * BARRED_FACTOR) } : { ...scored, score: raw };
	};
	const notices = set.notices.map((n) => {
		const r = read.get(n.view.noticeId);
		return r ? { ...n, view: { ...r.view, noticeId: n.view.noticeId } } : n;
	});
	return { set: { ...set, notices }, after };
}
