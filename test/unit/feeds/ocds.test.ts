import { describe, expect, it } from "vitest";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { parseOcds } from "../../../services/opportunities/feeds/ocds.ts";
import type { MergeResult, StoredNotice } from "../../../services/opportunities/feeds/versions.ts";
import { mergeVersion } from "../../../services/opportunities/feeds/versions.ts";
import { EVAL_NOTICES, OCDS_SAMPLE, readJson, readText } from "./files.ts";

type Json = Record<string, unknown>;
const evalPackage = () => readJson(EVAL_NOTICES) as { releases: Json[] } & Json;

/** Merges notices in order into an in-memory store, as ingestion would. */
function ingest(notices: NormalizedNotice[], store = new Map<string, StoredNotice>()) {
	const results: (MergeResult & { incoming: NormalizedNotice })[] = [];
	for (const n of notices) {
		const key = `${n.source}|${n.source_id}`;
		const r = mergeVersion(store.get(key) ?? null, n);
		if (r.action === "created" || r.action === "updated") store.set(key, r.notice);
		results.push({ ...r, incoming: n });
	}
	return { store, results, count: (action: string) => results.filter((r) => r.action === action).length };
}

describe("OCDS: the real Contracts Finder release", () => {
	const { notices, rejected } = parseOcds(readJson(OCDS_SAMPLE));
	const n = notices[0] as NormalizedNotice;

	it("keeps the publisher's words on how to submit (submissionMethodDetails; submissionMethod is null there)", () => {
		expect(n.submission).toEqual({
			methods: [],
			url: null,
			text: "Please apply directly to the buyer using the contact details provided.",
		});
	});

	it("normalizes it with concrete values", () => {
		expect(rejected).toEqual([]);
		expect(notices).toHaveLength(1);
		expect(n).toMatchObject({
			source: "ocds:uk-contracts-finder",
			source_id: "ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b",
			rfp_id: "ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b-dcc-9q5h-gs44aq",
			title: "CP1093-14 Connecting Devon and Somerset Superfast Extension Programme",
			issuing_body: "Devon County Council",
			description:
				"Connecting Devon & Somerset\nSUPERFAST EXTENSION PROGRAMME\nPlease find attached the slides and delegate list from the Bidder Information Day held on Thursday 13th November 2014.",
			deadline: "2015-01-31T00:00:00Z",
			published_at: "2014-12-17T16:44:59Z",
			estimated_value: 600000,
			currency: "GBP",
			// tender.status "unsuccessful": the procurement ended without an award.
			status: "closed",
			contacts: [{ name: "Mr Iain Perkins", email: "iain.perkins@devon.gov.uk", phone: null }],
			place_of_performance: {
				country: "United Kingdom",
				region: null,
				city: "Exeter",
				postal_code: "EX2 4QD",
				text: "County Hall Room 120 Topsham Road",
			},
		});
		expect(n.categories).toEqual([
			{ scheme: "CPV", code: "32000000", label: "Radio, television, communication, telecommunication and related equipment" },
			{ scheme: "CPV", code: "64000000", label: "Postal and telecommunications services" },
			{ scheme: "CPV", code: "72000000", label: "IT services: consulting, software development, Internet and support" },
		]);
		expect(n.items.map((i) => i.classification?.code)).toEqual(["32000000", "64000000", "72000000"]);
		expect(n.version).toEqual({
			label: "ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b-59438-dcc-9q5h-gs44aq",
			released_at: "2014-12-17T16:44:59Z",
			sort_key: "2014-12-17T16:44:59Z|ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b-59438-dcc-9q5h-gs44aq",
			supersedes: null,
			note: null,
		});
	});

	it("gives the same result inside a release package", () => {
		const wrapped = parseOcds({ uri: "https://example.org/p.json", version: "1.1", releases: [readJson(OCDS_SAMPLE)] });
		expect(wrapped.notices).toEqual(notices);
	});
});

describe("OCDS: the dev evaluation package", () => {
	const pkg = evalPackage();
	const parsed = parseOcds(pkg);
	const tagOf = (n: NormalizedNotice) => pkg.releases.find((r) => r.id === n.version.label)?.tag;

	it("parses every release", () => {
		expect(parsed.rejected).toEqual([]);
		expect(parsed.notices).toHaveLength(pkg.releases.length);
		expect(new Set(parsed.notices.map((n) => n.source))).toEqual(new Set(["ocds:evaldev"]));
		for (const n of parsed.notices) {
			expect(n.title.length).toBeGreaterThan(0);
			expect(n.issuing_body.length).toBeGreaterThan(0);
			expect(n.deadline).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
			expect(n.categories.length).toBeGreaterThan(0);
		}
		const schemes = new Set(parsed.notices.flatMap((n) => n.categories.map((c) => c.scheme)));
		expect(schemes).toEqual(new Set(["UNSPSC", "NAICS", "PSC", "CPV"]));
	});

	it("lists each process's versions oldest first", () => {
		const seen = new Map<string, string>();
		for (const n of parsed.notices) {
			const prior = seen.get(n.source_id);
			if (prior !== undefined) expect(n.version.sort_key > prior).toBe(true);
			seen.set(n.source_id, n.version.sort_key);
		}
	});

	it("merges amendments in order and lets cancellations close their notice", () => {
		const { store, results, count } = ingest(parsed.notices);
		const processes = new Set(pkg.releases.map((r) => r.ocid)).size;
		expect(count("created")).toBe(processes);
		expect(count("updated")).toBe(pkg.releases.length - processes);
		expect(count("stale") + count("unchanged")).toBe(0);
		for (const r of results.filter((x) => x.action === "updated")) {
			expect(r.change?.fields.length).toBeGreaterThan(0);
			if (String(tagOf(r.incoming)) === "tenderCancellation") {
				expect(r.notice.status).toBe("cancelled");
				expect(r.change?.fields).toContain("status");
				expect(r.change?.summary).toContain("cancelled at the source");
			} else {
				expect(tagOf(r.incoming)).toEqual(["tenderAmendment"]);
				expect(r.notice.status).toBe("open");
				expect(r.notice.version.note).not.toBeNull();
			}
			expect(r.notice.history.map((h) => h.action)).toEqual(["created", "updated"]);
		}
		const extended = store.get("ocds:evaldev|ocds-evaldev-002");
		expect(extended?.deadline).toBe("2027-02-24T15:00:00Z");
		expect(extended?.history[1]?.summary).toContain("deadline moved from 2027-02-16T15:00:00Z to 2027-02-24T15:00:00Z");
		expect(extended?.published_at).toBe("2027-01-11T15:14:00Z");
	});

	it("changes nothing when the same package is ingested again", () => {
		const { store } = ingest(parsed.notices);
		const again = ingest(parseOcds(evalPackage()).notices, store);
		expect(again.count("unchanged")).toBe(pkg.releases.length);
	});

	it("ignores originals that arrive after their amendments (stale)", () => {
		const later = { ...pkg, releases: pkg.releases.filter((r) => (r.tag as string[])[0] !== "tender") };
		const earlier = { ...pkg, releases: pkg.releases.filter((r) => (r.tag as string[])[0] === "tender") };
		const first = ingest(parseOcds(later).notices);
		expect(first.count("created")).toBe(later.releases.length);
		const second = ingest(parseOcds(earlier).notices, first.store);
		expect(second.count("stale")).toBe(later.releases.length);
		expect(second.count("created")).toBe(earlier.releases.length - later.releases.length);
		const stale = second.results.find((r) => r.action === "stale");
		expect(stale?.reason).toMatch(/older than the stored version/);
	});
});

describe("OCDS: record packages, partial releases and status", () => {
	const pkg = evalPackage();
	const releasesOf = (ocid: string) => pkg.releases.filter((r) => r.ocid === ocid);

	it("reads embedded releases, falls back to the compiled release, and reports empty records", () => {
		const [original, amendment] = releasesOf("ocds-evaldev-002");
		const [other] = releasesOf("ocds-evaldev-003");
		const out = parseOcds({
			version: "1.1",
			records: [
				{ ocid: "ocds-evaldev-002", releases: [amendment, original] },
				{
					ocid: "ocds-evaldev-003",
					releases: [{ url: "https://example.org/r/3.json", date: other?.date, tag: ["tender"] }],
					compiledRelease: { ...other, tag: ["compiled"] },
				},
				{ ocid: "ocds-evaldev-999" },
			],
		});
		expect(out.notices.map((n) => n.version.label)).toEqual(["ocds-evaldev-002-1", "ocds-evaldev-002-2", "ocds-evaldev-003-1"]);
		expect(out.rejected).toEqual([{ index: 2, reason: "record has neither embedded releases nor a compiledRelease" }]);
	});

	/** A dev-set release whose tender is changed as given (members set to undefined are left out). */
	const withTender = (changes: Json): NormalizedNotice => {
		const [release] = releasesOf("ocds-evaldev-002") as [Json];
		const tender = JSON.parse(JSON.stringify({ ...(release.tender as Json), ...changes })) as Json;
		return parseOcds({ version: "1.1", releases: [{ ...release, tender }] }).notices[0] as NormalizedNotice;
	};

	it("reads the tender's own classification and Canada's GSIN goods codes as FSC/PSC", () => {
		const n = withTender({
			classification: { scheme: "CPV", id: "30200000-1", description: "Computer equipment and supplies" },
			items: [
				{ id: "1", description: "Desktop computers", classification: { scheme: "GSIN", id: "N7010" } },
				{ id: "2", description: "Service", classification: { scheme: "GSIN", id: "R019BF" } },
			],
		});
		expect(n.categories[0]).toEqual({ scheme: "CPV", code: "30200000", label: "Computer equipment and supplies" });
		// The code as the source wrote it stays beside the normalized one: bidders quote "N7010".
		expect(n.items.map((i) => i.classification)).toEqual([{ scheme: "PSC", code: "7010", as_published: "GSIN N7010" }, null]);
	});

	it("lists an item's main classification before its additional ones: the first code is what the notice mainly buys", () => {
		const n = withTender({
			classification: undefined,
			items: [
				{
					id: "1",
					description: "Vehicles",
					classification: { scheme: "GSIN", id: "N2310003", description: "Passenger Motor Vehicles - Domestic" },
					additionalClassifications: [{ scheme: "GSIN", id: "N2320L51", description: "Truck, Light, Utility, 4 X 4" }],
				},
			],
		});
		expect(n.categories.map((c) => c.code)).toEqual(["2310", "2320"]);
	});

	it("compiles a partial amendment onto the earlier release (OCDS merge)", () => {
		const [original] = releasesOf("ocds-evaldev-001") as [Json];
		const partial = {
			ocid: "ocds-evaldev-001",
			id: "ocds-evaldev-001-2",
			date: "2027-01-20T10:00:00Z",
			tag: ["tenderAmendment"],
			tender: {
				id: "36C24627Q0188",
				tenderPeriod: { endDate: "2027-02-20T16:00:00Z" },
				value: null,
				amendments: [{ id: "A1", rationale: "Site visit moved." }],
			},
		};
		const out = parseOcds({
			releases: [partial, { ...original, tender: { ...(original.tender as Json), value: { amount: 90000, currency: "USD" } } }],
		});
		const [first, second] = out.notices as [NormalizedNotice, NormalizedNotice];
		expect(second.title).toBe(first.title);
		expect(second.items).toEqual(first.items);
		expect(second.deadline).toBe("2027-02-20T16:00:00Z");
		expect(first.estimated_value).toBe(90000);
		expect(second.estimated_value).toBeNull();
		expect(second.version.note).toBe("Site visit moved.");
		const merged = mergeVersion(mergeVersion(null, first).notice, second);
		expect(merged.change?.fields).toEqual(["deadline", "value"]);
	});

	it("maps award and completion to awarded", () => {
		const [original] = releasesOf("ocds-evaldev-005") as [Json];
		const award = {
			...original,
			id: "ocds-evaldev-005-9",
			date: "2027-03-01T00:00:00Z",
			tag: ["award"],
			awards: [{ id: "1", status: "active" }],
		};
		const out = parseOcds({ releases: [original, award] });
		expect(out.notices.map((n) => n.status)).toEqual(["open", "awarded"]);
		const complete = parseOcds({ ...original, tender: { ...(original.tender as Json), status: "complete" } });
		expect(complete.notices[0]?.status).toBe("awarded");
	});

	it("keeps the deadline as the buyer wrote it, and a contact point given on the buyer reference alone", () => {
		const [original] = releasesOf("ocds-evaldev-005") as [Json];
		const release = {
			...original,
			parties: [],
			buyer: { name: "Roads Agency", contactPoint: { name: "Ana Ruiz", email: "ana@roads.example", telephone: "02 9794 4795" } },
			tender: { ...(original.tender as Json), tenderPeriod: { endDate: "2032-12-08T14:30:00+11:00" } },
		};
		const [n] = parseOcds(release).notices;
		expect(n?.deadline).toBe("2032-12-08T03:30:00Z");
		expect(n?.deadline_local).toBe("2032-12-08T14:30+11:00");
		expect(n?.contacts).toEqual([{ name: "Ana Ruiz", email: "ana@roads.example", phone: "02 9794 4795" }]);
	});

	it("reads how to submit and until when questions may be asked, and leaves both out when the release says nothing", () => {
		const [original] = releasesOf("ocds-evaldev-005") as [Json];
		expect(parseOcds(original).notices[0]).not.toHaveProperty("submission");
		expect(parseOcds(original).notices[0]).not.toHaveProperty("enquiry_deadline");
		const tender = {
			...(original.tender as Json),
			submissionMethod: ["inPerson", "written", "inPerson"],
			submissionMethodDetails: "<p>En sobre cerrado, en la oficina de compras.</p>",
			enquiryPeriod: { startDate: "2032-11-01T09:00:00-06:00", endDate: "2032-11-20T17:00:00-06:00" },
		};
		const [n] = parseOcds({ ...original, tender }).notices;
		expect(n?.submission).toEqual({ methods: ["inPerson", "written"], url: null, text: "En sobre cerrado, en la oficina de compras." });
		expect(n?.enquiry_deadline).toBe("2032-11-20T23:00:00Z");
		expect(n?.enquiry_deadline_local).toBe("2032-11-20T17:00-06:00");
		// A details field that is only a link says where to submit.
		const [linked] = parseOcds({
			...original,
			tender: { ...tender, submissionMethod: [], submissionMethodDetails: "https://tenders.example.gov/lodge" },
		}).notices;
		expect(linked?.submission).toEqual({ methods: [], url: "https://tenders.example.gov/lodge", text: null });
	});

	it("keeps the language the release declares as ISO 639-1, and leaves it out when it declares none or no language", () => {
		const [original] = releasesOf("ocds-evaldev-005") as [Json];
		const languageOf = (language: unknown) => parseOcds({ ...original, language }).notices[0]?.language;
		expect(languageOf("en-GB")).toBe("en");
		expect(languageOf("nb")).toBe("nb");
		expect(languageOf("ES")).toBe("es");
		expect(languageOf("spa")).toBe("es");
		expect(languageOf("md")).toBeUndefined();
		expect(languageOf("not a language")).toBeUndefined();
		expect(languageOf(42)).toBeUndefined();
		const { language: _none, ...undeclared } = original;
		expect(parseOcds(undeclared).notices[0]).not.toHaveProperty("language");
	});

	it("reads the minimum value beside the estimate, and leaves it out when the release states none", () => {
		const [original] = releasesOf("ocds-evaldev-005") as [Json];
		expect(parseOcds(original).notices[0]).not.toHaveProperty("minimum_value");
		const tender = { ...(original.tender as Json), minValue: { amount: 875000, currency: "gbp" } };
		expect(parseOcds({ ...original, tender }).notices[0]?.minimum_value).toEqual({ amount: 875000, currency: "GBP" });
	});

	it("rejects unusable releases by position and keeps the rest", () => {
		const [good] = releasesOf("ocds-evaldev-004") as [Json];
		const out = parseOcds({
			releases: [
				{ ...good, ocid: undefined },
				{ ...good, date: "yesterday" },
				17,
				{ ...good, id: "bad-title", tender: { ...(good.tender as Json), title: "   " } },
				good,
			],
		});
		expect(out.notices).toHaveLength(1);
		expect(out.rejected).toEqual([
			{ index: 0, ref: "ocds-evaldev-004-1", reason: "ocid missing" },
			{ index: 1, ref: "ocds-evaldev-004-1", reason: "release date missing or not a date" },
			{ index: 2, reason: "release is not an object" },
			{ index: 3, ref: "bad-title", reason: "tender.title missing" },
		]);
	});

	it("cannot be used to pollute prototypes", () => {
		const [good] = releasesOf("ocds-evaldev-004") as [Json];
		const polluting = '"__proto__":{"polluted":true},"tender":{"constructor":{"prototype":{"polluted":true}},';
		const second = JSON.stringify({ ...good, id: "x-2", date: "2027-01-30T00:00:00Z" }).replace('"tender":{', polluting);
		const hostile = JSON.parse(`[${JSON.stringify(good)}, ${second}]`);
		const out = parseOcds(hostile);
		expect(out.notices).toHaveLength(2);
		expect(({} as Json).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty("polluted");
	});

	it("truncates a huge description to the notice limit", () => {
		const [good] = releasesOf("ocds-evaldev-004") as [Json];
		const huge = { ...good, tender: { ...(good.tender as Json), description: `<p>${"Lorem ipsum dolor sit amet. ".repeat(200_000)}</p>` } };
		const started = performance.now();
		const n = parseOcds(huge).notices[0];
		expect(performance.now() - started).toBeLessThan(3_000);
		expect(n?.description.length).toBeLessThanOrEqual(20_000);
		expect(n?.description.endsWith("…")).toBe(true);
	});

	it("refuses JSON that is not OCDS", () => {
		expect(parseOcds({ hello: "world" }).rejected[0]?.reason).toMatch(/not OCDS/);
		expect(readText(OCDS_SAMPLE).length).toBeGreaterThan(0);
	});
});

describe("OCDS: lots, award criteria and long item descriptions (what ask reads)", () => {
	const base = () => ({ ...(evalPackage().releases.find((r) => r.ocid === "ocds-evaldev-004") as Json) });
	const withTender = (tender: Json) => {
		const r = base();
		return parseOcds({ ...r, tender: { ...(r.tender as Json), ...tender } }).notices[0] as NormalizedNotice;
	};

	it("keeps an item description past 1,000 characters, up to 4,000", () => {
		const long = `${"Teren inwestycji 12 845 m2, garaż podziemny ok. 5 500 m2. ".repeat(40)}`;
		const n = withTender({ items: [{ id: "1", description: long, quantity: 1 }] });
		expect(long.length).toBeGreaterThan(2_000);
		expect(n.items[0]?.description.length).toBeGreaterThan(2_000);
		const huge = withTender({ items: [{ id: "1", description: "x ".repeat(5_000) }] });
		expect(huge.items[0]?.description.length).toBeLessThanOrEqual(4_000);
	});

	it("keeps declared lots with their titles, descriptions and values even when no item names a lot", () => {
		const n = withTender({
			lots: [
				{ id: "L1", title: "Mantenimiento Preventivo ", description: "<p>Visitas mensuales</p>", value: { amount: 1000, currency: "MXN" } },
				{ id: "L2", title: "Mantenimiento Correctivo" },
				{ title: "no id: skipped" },
			],
		});
		expect(n.lots).toEqual([
			{ id: "L1", title: "Mantenimiento Preventivo", description: "Visitas mensuales", value: { amount: 1000, currency: "MXN" } },
			{ id: "L2", title: "Mantenimiento Correctivo", description: null, value: null },
		]);
		expect(n.items.every((i) => i.lot === null)).toBe(true);
	});

	it("keeps the award method, the buyer's words and each lot's weighted criteria", () => {
		const n = withTender({
			awardCriteria: "ratedCriteria",
			awardCriteriaDetails: "Mejores condiciones en cuanto a precio y calidad",
			lots: [
				{
					id: "L1",
					title: "Lote 1",
					awardCriteria: {
						criteria: [
							{
								type: "quality",
								name: "Technical merit",
								description: "Method statement",
								numbers: [{ number: 60, weighting: "percentageExact" }],
							},
							{ type: "price", numbers: [{ number: 40 }] },
							{},
						],
					},
				},
			],
		});
		expect(n.award_criteria).toEqual({
			method: "ratedCriteria",
			text: "Mejores condiciones en cuanto a precio y calidad",
			criteria: [
				{ lot: "L1", type: "quality", name: "Technical merit", description: "Method statement", weight: "60 %" },
				{ lot: "L1", type: "price", name: null, description: null, weight: "40" },
			],
		});
	});

	it("leaves lots and award criteria out when the release states none (its content hash stays)", () => {
		const n = withTender({});
		expect(n).not.toHaveProperty("lots");
		expect(n).not.toHaveProperty("award_criteria");
	});
});

describe("OCDS: contract period, milestones and an address written into the postal code", () => {
	// Written for this test, in the shapes Uganda's and Contracts Finder's releases use.
	const release = {
		ocid: "ocds-test01-42",
		id: "ocds-test01-42-tender",
		date: "2031-01-05T10:00:00Z",
		tag: ["tender"],
		buyer: { id: "b1", name: "Registry Bureau" },
		parties: [
			{
				id: "b1",
				name: "Registry Bureau",
				roles: ["buyer"],
				address: { countryName: "Uganda", postalCode: "Registry Bureau Plot 5 Main Street Kampala" },
			},
		],
		tender: {
			id: "T-42",
			title: "Hire of a public address system",
			contractPeriod: { startDate: null, durationInDays: 0 },
			milestones: [{ id: "1", title: "Contract start", description: "Anticipated contract start date", dueDate: "2031-03-14T00:00:00Z" }],
			timeframeDelivery: "<p>20 Weeks</p>",
			RFTAccess: "Open",
			lodgeResponse: "https://tenders.example.gov/lodge",
			conditionsForParticipation: "<p>Tenderers must hold public liability insurance.</p>",
		},
	};
	const n = parseOcds(release).notices[0]!;
	it("keeps the milestones and leaves out a contract period that states nothing", () => {
		expect(n.milestones).toEqual([
			{ title: "Contract start", description: "Anticipated contract start date", due: "2031-03-14T00:00:00Z" },
		]);
		expect(n.contract_period).toBeUndefined();
		const withPeriod = parseOcds({
			...release,
			tender: { ...release.tender, contractPeriod: { startDate: "2031-04-01T00:00:00Z", durationInDays: 365 } },
		});
		expect(withPeriod.notices[0]!.contract_period).toEqual({ start: "2031-04-01T00:00:00Z", end: null, duration_days: 365 });
	});
	it("keeps a publisher's own text fields under their names, not its bare codes or links", () => {
		expect(n.extensions).toEqual([
			{ name: "Timeframe delivery", text: "20 Weeks" },
			{ name: "Conditions for participation", text: "Tenderers must hold public liability insurance." },
		]);
	});
	it("reads a postal code longer than any as the address it is", () => {
		expect(n.place_of_performance).toMatchObject({
			postal_code: null,
			text: "Registry Bureau Plot 5 Main Street Kampala",
			country: "Uganda",
		});
	});
});
