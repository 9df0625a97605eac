import { titleHead } from "./nature.ts";
import type { PreparedNotice } from "./text.ts";

// actual_product_category: a short lower-case noun phrase of what is bought, taken from the title's
// head (tags, purpose "for ...", place "at ...", secondary "with ..." and parentheses removed), with
// procurement verbs ("supply of", "purchase of"), quantities, brand-tag phrases and model numbers
// dropped; when a model number sits inside the phrase, the words after it are the product type
// ("Acme X200-48P Access Switches" -> "access switches"). Falls back to the first item line.

const MAX_WORDS = 6;

const LEAD_VERBS = new RegExp(
	`^(the )?(${[
		"supply and (delivery|installation) of|supply, delivery(,| and) installation( and commissioning)? of",
		"supply of|purchase of|procurement of|provision of|acquisition of|furnish(ing)?( and deliver)?|replacement of",
		"blanket purchase agreement( for| -)?|bpa for|contract for|framework (agreement )?for|dynamic market for",
		"requirement for|request for",
	].join("|")})\\s+`,
);
const BRAND_TAGS = /\b(brand name (only|or equal)|or (approved )?equal|or equivalent|brand name|no substitut\w*|genuine|oem)\b/g;
const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)\b(?= )/g;

function isModelToken(token: string): boolean {
	// Letters and digits mixed (C9300-48P, EX4400, X50s) or a number; short chemistry or calibre
	// tokens (co2, 9mm, 4x4) are words.
	if (!/\d/.test(token) || /^\d+(-|\s)?(port|inch|bay|ton|year|month|day|kva|kw|mm|cm|ml|l|gb|tb|mp|hp)s?$/.test(token)) return false;
	return /^[\d.,/-]+$/.test(token) || token.length >= 4 || token.includes("-") || /^[a-z]\d+[a-z]?$/.test(token);
}

function phraseFrom(text: string): string {
	let t = text.toLowerCase();
	t = t.replace(/\([^)]{0,80}\)/g, " ");
	t = t.replace(BRAND_TAGS, " ");
	t = t.replace(/\s+/g, " ").trim();
	for (let i = 0; i < 2; i++) t = t.replace(LEAD_VERBS, "");
	t = t.replace(NUMBER_WORDS, " ").replace(/\s+/g, " ").trim();
	const tokens = t.split(" ").filter((w) => w.length > 0);
	let lastModel = -1;
	tokens.forEach((w, i) => {
		if (isModelToken(w)) lastModel = i;
	});
	let words = lastModel >= 0 && lastModel < tokens.length - 1 ? tokens.slice(lastModel + 1) : tokens.filter((w) => !isModelToken(w));
	words = words.map((w) => w.replace(/^[^a-z0-9]+|[^a-z0-9+]+$/g, "")).filter((w) => w.length > 0 && w !== "-");
	while (words.length > 0 && /^(and|or|of|for|the|a|an|with|lot|new|-)$/.test(words[words.length - 1] ?? "")) words.pop();
	while (words.length > 0 && /^(and|or|of|the|a|an|lot|-)$/.test(words[0] ?? "")) words.shift();
	if (words.length > MAX_WORDS) words = words.slice(words.length - MAX_WORDS);
	return words.join(" ");
}

// A contract vehicle names how, not what: "Blanket Purchase Agreement - Lumber", "Framework for Fuel".
const VEHICLE = new RegExp(
	`^(${[
		"blanket purchase agreement|bpa|idiq( contract)?|indefinite[- ]delivery[a-z ,/-]{0,40}contract|requirements contract",
		"framework( agreement)?|dynamic (market|purchasing system)|multiple[- ]award( contract)?|term contract|annual contract",
	].join("|")})\\s*(for|of|-|:)\\s+`,
);

export function productCategory(n: PreparedNotice): string {
	const { title } = titleHead(n.titleLower);
	const { head } = titleHead(title.replace(VEHICLE, ""));
	// "Category Two: Wireless Access Points": the object follows the colon.
	const afterColon = head.includes(": ") ? head.slice(head.indexOf(": ") + 2) : head;
	const fromTitle = phraseFrom(afterColon.split(",")[0] ?? afterColon);
	if (fromTitle.length >= 3) return fromTitle;
	for (const item of n.items) {
		const p = phraseFrom(item.text.split(",")[0] ?? item.text);
		if (p.length >= 3) return p;
	}
	return fromTitle || "unspecified";
}
