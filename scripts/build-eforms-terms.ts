// Builds data/ask/eforms-terms.json: the official names of the procurement notions ask's concepts stand for
// ("Deadline for receipt of tenders", "Place of performance", "Tender validity", "Variants"), in every EU
// language, as the eForms SDK's translation files give them. The glossary (data/ask/glossary.json) was written
// by hand and is thinner in some languages (Hungarian, Slovak, Croatian, the Baltic languages, Bulgarian); the
// SDK's labels are the words the EU's own notices use for the same notions, kept by the Publications Office.
//
// Reads a fetched snapshot of github:OP-TED/eForms-SDK (its git directory; no SDK code is copied, only
// labels): `git show COMMIT:translations/<kind>_<lang>.xml`. Which label stands for which concept is the
// list TERMS below (one line per label, with why). Licence of the labels: CC BY 4.0 (the SDK's LICENSE),
// recorded in the output with the commit.
//
// Usage: node_modules/.bin/tsx scripts/build-eforms-terms.ts [--mirror DIR]   (DIR: the snapshot's git
// directory, default /work/.mirror/OP-TED+eForms-SDK/repo)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EU_LANGUAGES, isTextLanguage } from "../shared/text/languages.ts";

const COMMIT = "3242fbf7c703810ce36eb797c467b54ce6ae7f0f";
// The EU languages the text toolkit reads.
const LANGUAGES = EU_LANGUAGES.filter((l) => isTextLanguage(l));

// Concept (data/ask/glossary.json) -> the SDK labels naming it: a translation file kind and an entry key. Only
// short labels that name the notion itself (a heading a notice or a bidder uses), never a description or a hint.
const TERMS: [concept: string, file: string, key: string][] = [
	["deadline", "business-term", "business-term|name|BT-131"], // Deadline for receipt of tenders
	["deadline", "business-term", "business-term|name|BT-1311"], // Deadline for receipt of requests to participate
	["enquiry", "business-term", "business-term|name|BT-13"], // Deadline for requesting additional information
	["value", "auxiliary", "auxiliary|text|value"], // Value
	["duration", "business-term", "business-term|name|BT-36"], // Duration
	["duration", "group", "group|name|GR-Lot-PlannedDuration"], // Estimated duration
	["start", "business-term", "business-term|name|BT-536"], // Start date
	["place", "auxiliary", "auxiliary|text|place-performance"], // Place of performance
	["option", "business-term", "business-term|name|BT-53"], // Options
	["option", "auxiliary", "auxiliary|text|renewal"], // Renewal
	["equivalent", "business-term", "business-term|name|BT-63"], // Variants
	["security", "group", "group|name|GR-Lot-FinancialGuarantee"], // Financial guarantee
	["validity", "group", "group|name|GR-Lot-TenderValidity"], // Tender validity
	["subcontracting", "auxiliary", "auxiliary|text|subcontracting-terms"], // Subcontracting
	["evaluation", "auxiliary", "auxiliary|text|award-criteria"], // Award criteria
	["framework", "auxiliary", "auxiliary|text|framework-agreement"], // Framework agreement
	["auction", "auxiliary", "auxiliary|text|electronic-auction"], // Electronic auction
	["documents", "auxiliary", "auxiliary|text|procurement-documents"], // Procurement documents
	["submission", "business-term", "business-term|name|BT-18"], // Address for submission
	["submission", "business-term", "business-term|name|BT-17"], // Electronic submission
	["lots", "auxiliary", "auxiliary|text|lot"], // Lot
	["buyer", "auxiliary", "auxiliary|text|buyer"], // Buyer
	["procedure", "field", "field|name|BT-105-Procedure"], // Type of procedure
	["contact", "group", "group|name|GR-Company-Contact"], // Contact point
	["information", "group", "group|name|GR-Lot-AdditionalInformation"], // Additional information
	["information", "business-term", "business-term|name|BT-728"], // Additional information (another wording in some languages)
	["codes", "business-term", "business-term|name|BT-262"], // Main classification
	["codes", "group", "group|name|GR-Lot-Scope-AdditionalClassification"], // Additional classification
	["eligibility", "business-term", "business-term|name|BT-71"], // Reserved participation
];

/** A label longer than this many words is a definition, not a name a question would use. */
const MAX_WORDS = 6;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const mirror = args.includes("--mirror") ? args[args.indexOf("--mirror") + 1]! : "/work/.mirror/OP-TED+eForms-SDK/repo";

const decode = (s: string) =>
	s
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
		.replace(/&amp;/g, "&");

const files = new Map<string, Map<string, string>>();
function entries(file: string, lang: string): Map<string, string> {
	const name = `translations/${file}_${lang}.xml`;
	let map = files.get(name);
	if (!map) {
		const xml = execFileSync("git", [`--git-dir=${mirror}`, "show", `${COMMIT}:${name}`], { encoding: "utf8", maxBuffer: 64 << 20 });
		map = new Map([...xml.matchAll(/<entry key="([^"]+)">([^<]*)<\/entry>/g)].map((m) => [m[1]!, decode(m[2]!).trim()]));
		files.set(name, map);
	}
	return map;
}

const concepts: Record<string, { keys: string[]; words: Record<string, string[]> }> = {};
for (const [concept, file, key] of TERMS) {
	const c = (concepts[concept] ??= { keys: [], words: {} });
	c.keys.push(key);
	for (const lang of LANGUAGES) {
		const label = entries(file, lang).get(key);
		// Labels with brackets or slashes hold alternatives or abbreviations ("(áfa)", "participation/candidatures"): not one name.
		if (!label || /[()/]/.test(label) || label.split(/\s+/).length > MAX_WORDS) continue;
		const word = label.toLocaleLowerCase(lang);
		const list = (c.words[lang] ??= []);
		if (!list.includes(word)) list.push(word);
	}
}

const out = {
	about:
		"Official names of the notions ask's concepts stand for, in the EU languages, from the eForms SDK's translation files " +
		"(scripts/build-eforms-terms.ts; services/ask/concepts.ts adds them to the glossary's words).",
	source: {
		repository: "https://github.com/OP-TED/eForms-SDK",
		commit: COMMIT,
		path: "translations/",
		licence:
			"CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), the eForms SDK's LICENSE; labels © European Union, Publications Office",
	},
	concepts,
};
writeFileSync(resolve(root, "data/ask/eforms-terms.json"), `${JSON.stringify(out, null, "\t")}\n`);
console.error(`eforms-terms: ${Object.keys(concepts).length} concepts, ${TERMS.length} labels in ${LANGUAGES.length} languages`);
