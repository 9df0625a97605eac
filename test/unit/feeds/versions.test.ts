import { describe, expect, it } from "vitest";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { parseOcds } from "../../../services/opportunities/feeds/ocds.ts";
import {
	contentHash,
	MAX_HISTORY,
	mergeVersion,
	NORMALIZER_VERSION,
	StoredNotice,
} from "../../../services/opportunities/feeds/versions.ts";
import { EVAL_NOTICES, readJson } from "./files.ts";

// A realistic base notice (the first tender of the dev set), then versions derived from it.
const base = parseOcds((readJson(EVAL_NOTICES) as { releases: unknown[] }).releases[0]).notices[0] as NormalizedNotice;

let n = 0;
/** The next version of `from`: a later release date and id, with `changes` applied. */
function next(from: NormalizedNotice, changes: Partial<NormalizedNotice> = {}): NormalizedNotice {
	n += 1;
	const at = new Date(Date.parse(from.version.released_at ?? "2027-01-01T00:00:00Z") + 86_400_000).toISOString().replace(".000Z", "Z");
	const label = `${from.source_id}-v${n}`;
	return {
		...structuredClone(from),
		...changes,
		version: { label, released_at: at, sort_key: `${at}|${label}`, supersedes: null, note: null },
	};
}

describe("mergeVersion", () => {
	it("does not count a declared language as a change: notices stored before it was kept stay the same version", () => {
		expect(contentHash({ ...base, language: "en" })).toBe(contentHash(base));
		expect(mergeVersion(mergeVersion(null, base).notice, { ...base, language: "en" }).action).toBe("unchanged");
	});

	it("creates a notice with its first history entry and a content hash", () => {
		const r = mergeVersion(null, base);
		expect(r.action).toBe("created");
		expect(r.notice.content_hash).toBe(contentHash(base));
		expect(r.notice.history).toEqual([
			{
				version: base.version.label,
				sort_key: base.version.sort_key,
				at: base.version.released_at,
				content_hash: r.notice.content_hash,
				action: "created",
				fields: [],
				summary: "first seen",
			},
		]);
		expect(StoredNotice.parse(r.notice)).toEqual(r.notice);
	});

	it("answers unchanged for the same version again, compared by content rather than identity", () => {
		const stored = mergeVersion(null, base).notice;
		const reparsed = parseOcds((readJson(EVAL_NOTICES) as { releases: unknown[] }).releases[0]).notices[0] as NormalizedNotice;
		expect(reparsed).not.toBe(base);
		const r = mergeVersion(stored, reparsed);
		expect(r).toMatchObject({ action: "unchanged", reason: `version ${base.version.label} is already stored` });
		expect(r.notice).toBe(stored);
	});

	it("updates in place and says what changed: deadline moved, documents added, value changed", () => {
		const stored = mergeVersion(null, base).notice;
		const amended = next(base, {
			deadline: "2027-02-23T16:00:00Z",
			documents: [{ title: "Amendment 0001", url: "https://example.gov/a0001.pdf" }],
			estimated_value: 250000,
			currency: "USD",
			categories: [...base.categories, { scheme: "UNSPSC", code: "47131700" }],
		});
		const r = mergeVersion(stored, amended);
		expect(r.action).toBe("updated");
		expect(r.change?.fields).toEqual(["deadline", "documents", "value", "categories"]);
		expect(r.change?.summary).toBe(
			`deadline moved from ${base.deadline} to 2027-02-23T16:00:00Z; documents added: Amendment 0001; estimated value changed from none to USD 250000; categories added: UNSPSC 47131700`,
		);
		expect(r.notice).toMatchObject({ deadline: "2027-02-23T16:00:00Z", version: amended.version, published_at: base.published_at });
		expect(r.notice.history).toHaveLength(2);
		expect(r.notice.history[1]).toMatchObject({
			version: amended.version.label,
			action: "updated",
			fields: r.change?.fields,
			summary: r.change?.summary,
		});
		expect(StoredNotice.parse(r.notice)).toEqual(r.notice);
	});

	it("ignores an older version that arrives after a newer one (stale)", () => {
		const newer = next(base, { title: "Janitorial Services (amended)" });
		const stored = mergeVersion(null, newer).notice;
		const r = mergeVersion(stored, base);
		expect(r.action).toBe("stale");
		expect(r.reason).toBe(`version ${base.version.label} is older than the stored version ${newer.version.label}`);
		expect(r.notice).toBe(stored);
		expect(r.change).toBeUndefined();
	});

	it("answers unchanged for an older version already applied, so re-ingesting a whole history changes nothing", () => {
		const v2 = next(base, { description: "Amended description." });
		const stored = mergeVersion(mergeVersion(null, base).notice, v2).notice;
		expect(mergeVersion(stored, base).action).toBe("unchanged");
		expect(mergeVersion(stored, v2).action).toBe("unchanged");
		expect(mergeVersion(stored, { ...structuredClone(base), title: "Tampered" }).action).toBe("stale");
	});

	it("answers unchanged for a newer version that changes nothing normalized", () => {
		const stored = mergeVersion(null, base).notice;
		expect(mergeVersion(stored, next(base))).toMatchObject({ action: "unchanged", notice: stored });
	});

	it("closes the notice on a cancellation or an award", () => {
		const stored = mergeVersion(null, base).notice;
		const cancelled = mergeVersion(stored, next(base, { status: "cancelled" }));
		expect(cancelled).toMatchObject({
			action: "updated",
			notice: { status: "cancelled" },
			change: { fields: ["status"], summary: "cancelled at the source" },
		});
		const awarded = mergeVersion(stored, next(base, { status: "awarded" }));
		expect(awarded).toMatchObject({ action: "updated", notice: { status: "awarded" }, change: { fields: ["status"], summary: "awarded" } });
	});

	it("treats a version that names the stored one as superseded as newer, whatever its date", () => {
		const stored = mergeVersion(null, base).notice;
		const correction = next(base, { title: "Corrected title" });
		correction.version = { ...correction.version, sort_key: "1999-01-01T00:00:00Z|x", supersedes: base.version.label };
		expect(mergeVersion(stored, correction).action).toBe("updated");
	});

	it("accepts the stored version restated with other content as an update", () => {
		const stored = mergeVersion(null, base).notice;
		const r = mergeVersion(stored, {
			...structuredClone(base),
			contacts: [{ name: "New Contact", email: "new@example.gov", phone: null }],
		});
		expect(r).toMatchObject({ action: "updated", change: { fields: ["other"], summary: "other details changed: contacts" } });
	});

	it("reads the stored version again quietly when an older normalizer stored it", () => {
		const { normalizer: _, ...older } = mergeVersion(null, base).notice; // as stored before the stamp
		const reread = { ...structuredClone(base), categories: [...base.categories].reverse(), contacts: [] };
		const r = mergeVersion(older, reread);
		expect(r.action).toBe("renormalized");
		expect(r.change).toBeUndefined();
		expect(r.notice).toMatchObject({ normalizer: NORMALIZER_VERSION, content_hash: contentHash(reread), contacts: [] });
		expect(r.notice.history).toEqual([{ ...older.history[0], content_hash: contentHash(reread) }]);
		expect(mergeVersion(r.notice, reread).action).toBe("unchanged");
		// Read by today's normalizer, the same version with other content is the source's own correction.
		const corrected = { ...reread, contacts: [{ name: "New Contact", email: "new@example.gov", phone: null }] };
		expect(mergeVersion(r.notice, corrected).action).toBe("updated");
	});

	it("answers unchanged, not stale, for an earlier version an older normalizer read otherwise", () => {
		const first = mergeVersion(null, base).notice;
		const { normalizer: _, ...older } = mergeVersion(first, next(base, { description: "Amended" })).notice;
		const r = mergeVersion(older, { ...structuredClone(base), contacts: [] });
		expect(r.action).toBe("unchanged");
		expect(r.notice).toBe(older);
	});

	it("keeps at most MAX_HISTORY entries, newest last", () => {
		let stored = mergeVersion(null, base).notice;
		let current = base;
		for (let i = 0; i < MAX_HISTORY + 10; i++) {
			current = next(current, { description: `Amendment ${i}` });
			stored = mergeVersion(stored, current).notice;
		}
		expect(stored.history).toHaveLength(MAX_HISTORY);
		expect(stored.history.at(-1)?.version).toBe(current.version.label);
	});

	it("refuses to merge two different notices", () => {
		const stored = mergeVersion(null, base).notice;
		expect(() => mergeVersion(stored, { ...base, source_id: "another" })).toThrow(/is not/);
	});
});
