import { DATE_RE, DURATION_RE, EMAIL_RE, FRAME_WORDS, MONEY_RE, NUMBER_RE, NUMBER_TOKEN, PERCENT_RE, RELATIVE_RE, STOPWORDS, TIME_RE, stem, terms, words } from "./text.ts";

// What kind of question this is. Each intent says how to recognize the question, what a passage
// about that topic looks like (cue), what an answering passage must contain (answer types), and
// whether a notice silent on the topic means "not stated" outright (required). They are the
// general topics of questions about a solicitation, not any notice's wording.

export type AnswerType = "date" | "time" | "relative" | "number" | "count" | "money" | "duration" | "contact" | "place" | "entity" | "model" | "percent" | "agent";

export interface Intent {
	name: string;
	ask: RegExp;
	/**
	 * The question words that only say which kind of question it is ("warranty", "how many"):
	 * a passage satisfying the intent covers them. The other words name the subject and must be met.
	 */
	own: RegExp;
	/** Not this intent when the question also matches (another intent owns it). */
	unless?: RegExp;
	cue: RegExp;
	/** An answering passage contains at least one of these. */
	answer?: AnswerType[];
	/** A notice with no passage matching the cue (and answer type) does not state it. */
	required?: boolean;
	/** Passages must match the cue to answer at all (the topic is the point of the question). */
	cueRequired?: boolean;
	/**
	 * The cue alone shows a passage is about the asked topic ("set-aside", "warranty"). Not so for
	 * generic cues ("existing", a capitalized name): there the passage must also name the subject.
	 */
	anchors?: boolean;
	/** How "The notice does not state ..." names the topic. */
	topic: string;
}

const SUBMISSION_WORDS = "offers?|quotes?|quotations?|bids?|proposals?|tenders?|responses?|applications?|submissions?|submittals?|questions?|received";

export const INTENTS: Intent[] = [
	{
		// Who holds the contract today, what is installed now, what is being replaced: notices
		// rarely say, and a passage only answers if it speaks about the current state.
		name: "status_quo",
		own: /^(incumbent|currently|current|existing|presently|previous|previously|replaced|replacing|installed|base|already|own|owns|use|uses|run|runs|operate|operates|today|present|now)$/i,
		ask: /\b(incumbent|currently|current|existing|presently|previous(ly)?|being replaced|to be replaced|replacing|installed base|already (own|owns|have|has|use|uses)|today|at present|right now|in use)\b|\b(does|do) (the|they|it|this) [\w\s'-]{0,40}\b(use|own|run|operate)\b/i,
		// "a current SAM registration", "the current edition of NFPA 1917": current as in valid.
		unless: /\bcurrent (sam|registration|licen[cs]e|certificat\w*|accreditation|insurance|rating|version|edition|revision|standard)\b/i,
		cue: /\b(incumbent|current(ly)?|existing|presently|previous(ly)?|replac(e|es|ed|ing|ement)|legacy|in use|installed base|already (own|owns|has|have|use|uses))\b/i,
		required: true,
		cueRequired: true,
		topic: "the current or incumbent arrangement you ask about",
	},
	{
		name: "name",
		own: /^(name|names|manufacturers?|manufacturer['’]s|brands?|makes?|company|firm|vendor|contractor|supplier|oem|provider|distributor|manufactures|made|supplies|supplied)$/i,
		ask: /\b(name of|names of|(which|what) ([\w-]+ )?(manufacturer|brand|make|company|firm|vendor|contractor|supplier|oem|provider|distributor)s?|who (makes|manufactures|made|supplies|supplied)|manufacturer['’]s)\b/i,
		cue: /./,
		answer: ["entity"],
		topic: "the name you ask about",
	},
	{
		// "Who will install ...": the answer names someone (a party, a role, "by the ...").
		name: "agent",
		own: /^who$/i,
		ask: /^\s*who\b|\bwho (will|is|are|shall|must|does|do|would|should)\b/i,
		unless: /\b(questions?|contact\w*|e-?mail\w*|call|reach|send|sent|direct\w*|address\w*)\b|\bwho (can|may|is eligible to|are eligible to) (bid|submit|apply|respond|quote|participate|compete|tender)\b/i,
		cue: /./,
		answer: ["agent"],
		topic: "who that is",
	},
	{
		name: "site_visit",
		own: /^(site|visits?|inspections?|walk-?through|pre-?\w+|conference|open|house|survey|industry|day)$/i,
		ask: /\b(site visits?|site inspections?|walk-?through|pre-?(bid|proposal|quote|quotation|tender|offer|solicitation|submission)|conference|open house|site survey|industry day)\b/i,
		cue: /\b(site visits?|site inspections?|walk-?through|pre-?(bid|proposal|quote|quotation|tender|offer|solicitation|submission)|conference|site survey|industry day|visit)\b/i,
		required: true,
		cueRequired: true,
		anchors: true,
		topic: "a site visit or pre-bid conference",
	},
	{
		name: "warranty",
		own: /^(warrant\w*|guarantee\w*)$/i,
		ask: /\b(warrant\w*|guarantee\w*)\b/i,
		cue: /\b(warrant\w*|guarantee\w*)\b/i,
		required: true,
		cueRequired: true,
		anchors: true,
		topic: "warranty terms",
	},
	{
		name: "evaluation",
		own: /^(evaluat\w*|award\w*|criteria|weight\w*|scor\w*|basis|lowest|best|lpta|technically|acceptable|selected|chosen|judged)$/i,
		ask: /\b(evaluat\w*|award (criteria|basis|method)|basis (of|for) (the )?award|criteria|weight\w*|scor(e|ed|ing)|how will .* (be )?(awarded|selected|chosen|judged)|lowest price|best value|lpta|technically acceptable)\b/i,
		cue: /\b(evaluat\w*|award\w*|criteria|weight\w*|best[- ]value|lowest|technically acceptable|lpta|scor\w*|most advantageous)\b|%/i,
		cueRequired: true,
		anchors: true,
		topic: "the evaluation criteria",
	},
	{
		// The estimated value or budget of the whole buy. A unit-price threshold in a clause
		// ("line items above $5,000") is not a value: the passage must speak of an estimate.
		name: "value",
		own: /^(value|valued|budget\w*|worth|funding|ceiling|exceed|estimated|total|expected|overall|cost|amount|much|spend)$/i,
		ask: /\b(value|valued|budget|budgeted|worth|funding|ceiling|not[- ]to[- ]exceed|how much\b.*\b(spend|cost|worth)|(estimated|total|contract|expected|overall) (cost|price|amount))\b/i,
		unless: /\b(weight\w*|criteria|evaluat\w*|scor(e|ed|ing)|percent|%)\b/i,
		cue: /\b(estimated|estimate|budget\w*|total|value[ds]?|not[- ]to[- ]exceed|ceiling|funding|worth|anticipated|approximately)\b/i,
		answer: ["money"],
		required: true,
		cueRequired: true,
		anchors: true,
		topic: "an estimated value or budget",
	},
	{
		// What the buyer pays per unit of work: hourly rates, fees, per-word rates.
		name: "rate",
		own: /^(rates?|fees?|pay|paid|charge\w*|bill\w*|hourly|daily|weekly|monthly|labou?r|fixed|much)$/i,
		ask: /\b(per[- ]\w+|hourly|daily|weekly|monthly|pay|labou?r|billing|unit|fixed) (rates?|fees?|prices?)\b|\b(rates?|fees?)\b.*\b(pay|paid|charge\w*|bill\w*)\b|\b(pay|paid|charge\w*)\b.*\b(rates?|fees?)\b|\bhow much\b.*\b(pay|paid|charge\w*)\b/i,
		unless: /\b(weight\w*|criteria|evaluat\w*|scor(e|ed|ing))\b/i,
		cue: /\b(rates?|fees?|pay|paid|per (hour|day|word|page|unit|month)|prices?|priced)\b/i,
		answer: ["money"],
		required: true,
		cueRequired: true,
		anchors: true,
		topic: "the rate or fee you ask about",
	},
	{
		name: "delivery_time",
		own: /^(deliver\w*|ship\w*|lead|time|soon|quickly|fast|long|date|schedule|period|timeline|timeframe|window|deadline|within|days?)$/i,
		ask: /\b(how (soon|quickly|fast|long)\b.*\b(deliver\w*|ship\w*|install\w*|complet\w*|suppl\w*)|lead time|delivery (date|time|schedule|period|timeline|timeframe|window|deadline)|within how many|when\b.*\b(deliver\w*|shipped|installed|completed)|by when\b.*\bdeliver\w*|deliver(ed|y)? (by|within|no later))\b/i,
		cue: /\b(within|aro|after (receipt|award|order)|days?|weeks?|deliver\w* (by|within|between|is required|required|no later)|lead time|no later than|by \d|between)\b/i,
		answer: ["date", "duration", "relative"],
		topic: "a delivery time",
	},
	{
		name: "deadline",
		own: /^(due|deadline|clos\w*|last|day|submission|submit\w*|date|time|offers?|quotes?|quotations?|bids?|proposals?|tenders?|responses?|applications?|received|when)$/i,
		ask: new RegExp(
			`\\b(due|deadline|clos(e|es|ing)( date| time)?|last day|no later than|submission date|by when)\\b|\\bwhen\\b.*\\b(${SUBMISSION_WORDS}|submit\\w*)\\b|\\b(what|which) (date|time)\\b.*\\b(${SUBMISSION_WORDS}|submit\\w*)\\b`,
			"i",
		),
		unless: /\b(deliver\w*|ship\w*|install\w*|start|begin|commence\w*|complet\w*|perform\w*|site visit|conference|award\w*|warrant\w*)\b/i,
		cue: /\b(due|deadline|clos(e|es|ing)|no later than|not later than|received by|submitted by|must be received|receipt of|by \d)\b/i,
		answer: ["date", "time"],
		topic: "a response deadline",
	},
	{
		name: "when",
		own: /^(when|date|time|start|end)$/i,
		ask: /\b(when|what date|which date|what time|start date|end date)\b/i,
		cue: /./,
		answer: ["date", "time", "relative"],
		topic: "the date you ask about",
	},
	{
		name: "how_long",
		own: /^(long|duration|period|performance|term|turnaround)$/i,
		ask: /\bhow long\b|\bduration\b|\bperiod of performance\b|\b(contract|framework|agreement) term\b|\bturnaround\b|\bwithin how many\b/i,
		cue: /./,
		answer: ["duration", "date"],
		topic: "the period you ask about",
	},
	{
		// "How much insurance ...": an amount, with or without a currency.
		name: "amount",
		own: /^(much|amount|sum|limit)$/i,
		ask: /\bhow much\b(?!.*\b(cost|pay|paid|spend|worth|value|budget|price|charge\w*)\b)|\b(what|which) ([\w-]+ ){0,2}(amount|sum|limit|level of cover(age)?)\b|\bamount of\b/i,
		cue: /./,
		answer: ["money", "number"],
		topic: "the amount you ask about",
	},
	{
		// "How is the delivery split between the two sites?": shares or counts per party.
		name: "split",
		own: /^(split|divided|distributed|allocated|shared|apportioned)$/i,
		ask: /\b(split|divided|distributed|allocated|shared|apportioned)\b.*\b(between|among|across)\b/i,
		cue: /\b(split|divided|distributed|allocated|each|per|between|and)\b|%/i,
		answer: ["percent", "count"],
		topic: "how it is split",
	},
	{
		name: "quantity",
		own: /^(many|quantity|quantities|number)$/i,
		ask: /\bhow many\b|\bquantity\b|\bquantities\b|\bnumber of\b/i,
		unless: /\bhow many (days|weeks|months|years|hours)\b/i,
		cue: /\b(qty|quantity|quantities|each|units?|\d+)\b/i,
		answer: ["count"],
		topic: "a quantity",
	},
	{
		name: "place",
		own: /^(where|place|delivery|deliver\w*|address|location|ship\w*|performance)$/i,
		ask: /\bwhere\b(?!.*\b(submit\w*|send|sent|obtain\w*|find|download\w*|get|posted|available|register\w*|upload\w*|ask|raise\w*)\b)|\bplace of (delivery|performance)\b|\bdelivery (address|location|point|site)\b|\b(deliver(ed|y)?|ship(ped)?) to\b|\blocation\b|\baddress\b/i,
		cue: /\b(deliver(y|ed|ies)?\s*(is |shall be |must be |will be )?(made )?(to|at)\b|deliver(y|ies)?\s*:|deliver to\b|ship(ped)? to\b|place of (performance|delivery)\b|delivery (address|location|point|site)\b|located (at|in)\b|(performed|provided|installed) (at|in)\b|fob\b)/i,
		answer: ["place"],
		anchors: true,
		topic: "a place of delivery or performance",
	},
	{
		name: "contact",
		own: /^(contact|point|poc|e-?mail\w*|address\w*|phone|telephone|contracting|officer|specialist|buyer|name|send|sent|direct\w*|call|reach)$/i,
		ask: /\b(contact|point of contact|poc|e-?mail address|phone|telephone|contracting officer|contract specialist|buyer'?s? (name|e-?mail))\b|\bwho\b.*\b(questions?|ask\w*|send|sent|e-?mail\w*|call\w*|reach|direct\w*|address\w*|submit\w*)\b|\bquestions?\b.*\b(sent|directed|submitted|addressed|e-?mailed|raised) to\b/i,
		cue: /\b(contact|questions?|inquir\w*|enquir\w*|e-?mail|phone|tel|specialist|officer|manager|coordinator|buyer)\b|@/i,
		answer: ["contact"],
		topic: "a contact",
	},
	{
		name: "submission",
		own: /^(submit\w*|send|lodge\w*|upload\w*|respond|portal|system|platform|site|website|method|e-?tendering|electronic|hand|hard|copy|format)$/i,
		ask: /\bhow (do|should|must|can|to|are|is|will)\b.*\b(submit\w*|send|lodge\w*|upload\w*|respond)\b|\b(through|via|by) (which|what)\b|\bwhich (portal|system|platform|site|website|method)\b|\bwhere\b.*\b(submit\w*|send|sent|upload\w*|lodge\w*)\b|\b(portal|e-?tendering|electronic submission|hand[- ]deliver\w*|hard ?copy|method of submission|submission method)\b/i,
		cue: /\b(submit\w*|portal|e-?mail|electronic\w*|upload\w*|through|via|hand[- ]deliver\w*|mail\w*|delivered to|system|platform)\b|@/i,
		cueRequired: true,
		anchors: true,
		topic: "how or where to submit",
	},
	{
		name: "set_aside",
		own: /^(set|aside|set-asides?|small|business\w*|sdvosb|service-disabled|hubzone|8\(a\)|wosb|edwosb|women-owned|veteran\w*|socioeconomic|reserved|restricted|full|open|unrestricted|eligib\w*|sme|bid|apply|participate)$/i,
		ask: /\b(set[- ]?asides?|small business\w*|sdvosb|vosb|service-disabled|hubzone|8\(a\)|wosb|edwosb|women-owned|veteran-owned|veteran owned|socioeconomic|reserved for|restricted to|full and open|unrestricted|who (can|may) (bid|submit|apply|respond|quote|participate)|eligib\w*|sme)\b/i,
		cue: /\b(set[- ]?asides?|small business\w*|sdvosb|vosb|service-disabled|hubzone|8\(a\)|wosb|edwosb|women-owned|veteran-owned|veteran owned|full and open|unrestricted|open (procedure|competition)|open to (all|any)|reserved|sheltered|sme|size standard)\b/i,
		required: true,
		cueRequired: true,
		anchors: true,
		topic: "a set-aside or other restriction on who may bid",
	},
	{
		name: "certification",
		own: /^(certif\w*|accredit\w*|listed|listing|approved|list|complian\w*|compliant|conform\w*|validat\w*|clearance|registered|registration|qualif\w*|partner|level|status|tier|program|authori[sz]\w*|letter|standards?|specifications?)$/i,
		ask: /\b(certif\w*|accredit\w*|listed|listing|approved products?|complian\w*|compliant|conform\w*|validat\w*|clearance|registered|registration|qualif\w*|partner (level|status|tier|program)|authori[sz]\w* (reseller|partner|dealer|distributor)|letter of (authori[sz]ation|supply))\b|\b(which|what) ([\w-]+ )?(standards?|specifications?)\b|\bstandards? (must|shall|should|do|does|is|are|apply|applies)\b|\b(meet|comply with|conform to|certified to|built to)( the)? ([\w-]+ )?(standards?|specifications?)\b/i,
		cue: /\b(certif\w*|accredit\w*|listed|listing|approved products?|complian\w*|compliant|conform\w*|validat\w*|clearance|registered|registration|qualif\w*|partner\w*|authori[sz]\w*|iso|iec|fips|taa|ul|nist|cjis|standards?)\b/i,
		cueRequired: true,
		anchors: true,
		topic: "a certification or compliance requirement",
	},
	{
		name: "or_equal",
		own: /^(equal|equivalent|substitut\w*|other|alternatives?|alternate|third|party|third-party|compatible|brand-name|different|non-?oem|refurbished|remanufactured|gray|market|accept\w*)$/i,
		ask: /\b(or equal|equivalent|substitut\w*|other than|alternatives?|alternate|other (brands?|manufacturers?|makes?|models?)|third[- ]party|compatible|brand[- ]name|any (brand|manufacturer|make)|different (brand|manufacturer|make|model)|non-?oem|refurbished|remanufactured|gray[- ]market)\b/i,
		cue: /\b(or equal|equivalent|substitut\w*|brand[- ]name|any manufacturer|other manufacturers?|only|will not be (accepted|considered)|not (be )?accept\w*|compatible|third[- ]party|refurbished|remanufactured|gray[- ]market|salient)\b/i,
		cueRequired: true,
		anchors: true,
		topic: "whether other brands or equivalents are acceptable",
	},
	{
		name: "documents",
		own: /^(documents?|attachments?|forms?|affidavit|include|submit|provide|contain)$/i,
		ask: /\b(documents?|attachments?|forms?|affidavit|what (must|should|shall)\b.*\b(include|submit|provide|contain)|what (is|are) required (with|in))\b/i,
		cue: /\b(documents?|attach\w*|include\w*|submit\w*|forms?|affidavit|certificate|statement|plan|references|w-9|acknowledg\w*)\b/i,
		anchors: true,
		topic: "the documents to submit",
	},
	{
		name: "model",
		own: /^(model|number|part|no|catalog|catalogue|sku)$/i,
		ask: /\b(model( number)?|part (number|no)|catalog(ue)? number|sku)\b/i,
		unless: /\b(pricing|subscription|business|delivery|purchase) model\b/i,
		cue: /\b(model|part|p\/n|catalog(ue)?|brand|sku|mfr|manufacturer)\b/i,
		answer: ["model"],
		topic: "a model or part number",
	},
];

export interface WeightedTerm {
	term: string;
	weight: number;
	/** From the question itself (counted for coverage), not from earlier turns. */
	own: boolean;
}

export interface QuestionInfo {
	text: string;
	intents: Intent[];
	/** Per intent, the question's terms inside the words that triggered it ("model number" for model). */
	owned: Map<Intent, Set<string>>;
	terms: WeightedTerm[];
	yesNo: boolean;
	/** Lower-cased raw words of the question: an "entity" answer must bring a word not among them. */
	words: Set<string>;
	/** The counted noun phrase of "how many X ...", as terms. */
	counted: string[];
	/** About the asking company itself (we, our, us). */
	aboutCompany: boolean;
}

const YES_NO = /^(is|are|was|were|will|would|can|could|may|might|must|shall|should|does|do|did|has|have|had)\b/i;
const ANAPHORA = /\b(it|its|they|them|their|that|this|those|these|one|ones|same|there)\b/i;
const GENERIC_COUNTED = new Set(["unit", "units", "item", "items", "piece", "pieces", "ones", "each", "set", "sets", "number", "total"]);

/** The terms of a question that name its topic: stop words and framing words ("how many", "kind of") left out. */
export function contentTerms(text: string): string[] {
	return words(text)
		.filter((w) => !FRAME_WORDS.has(w.toLowerCase()))
		.flatMap((w) => terms(w));
}

/** The noun phrase after "how many" (or "number of"), up to the verb: "FortiGate 60F units" in "How many FortiGate 60F units are ...". */
function countedPhrase(question: string): string[] {
	const m = /\b(?:how many|number of|quantity of)\s+(?:of the\s+|of\s+)?([^?.,;]*)/i.exec(question);
	if (!m?.[1]) return [];
	const out: string[] = [];
	for (const w of words(m[1])) {
		const lower = w.toLowerCase();
		if (/^(is|are|was|were|will|would|can|could|may|might|must|shall|should|does|do|did|has|have|had|currently|being|be|in|on|at|for|to|from|per|that|which|who)$/.test(lower)) break;
		if (!STOPWORDS.has(lower) && !GENERIC_COUNTED.has(lower)) out.push(...terms(lower));
	}
	return out;
}

export function analyzeQuestion(question: string, earlierQuestions: string[] = []): QuestionInfo {
	const intents = INTENTS.filter((i) => i.ask.test(question) && !(i.unless?.test(question) ?? false));
	// "when" is the fallback of the date intents: drop it when a more specific one matched.
	const specific = intents.some((i) => i.name === "deadline" || i.name === "delivery_time");
	let chosen = specific ? intents.filter((i) => i.name !== "when") : intents;
	// "Who is the contracting officer?" is a contact question, "Who may bid?" a set-aside one.
	if (chosen.some((i) => i.name === "contact" || i.name === "set_aside" || i.name === "name")) chosen = chosen.filter((i) => i.name !== "agent");
	const own = contentTerms(question);
	const weighted = new Map<string, WeightedTerm>();
	for (const t of own) weighted.set(t, { term: t, weight: 1, own: true });
	// A follow-up ("and when are they due?") borrows the topic of the latest earlier question that
	// had one ("thanks", "ok" have none), at half weight: it ranks passages but is not required.
	if (earlierQuestions.length && (own.length <= 2 || ANAPHORA.test(question))) {
		const previous = [...earlierQuestions].reverse().map(contentTerms).find((t) => t.length) ?? [];
		for (const t of previous) if (!weighted.has(t)) weighted.set(t, { term: t, weight: 0.5, own: false });
	}
	const owned = new Map<Intent, Set<string>>();
	const questionWords = words(question);
	for (const intent of chosen) owned.set(intent, new Set(questionWords.filter((w) => intent.own.test(w)).flatMap((w) => terms(w))));
	return {
		text: question,
		intents: chosen,
		owned,
		terms: [...weighted.values()],
		yesNo: YES_NO.test(question.trim()),
		words: new Set(words(question).map((w) => w.toLowerCase())),
		counted: countedPhrase(question),
		aboutCompany: /\b(we|our|us|ours|my company|our company)\b/i.test(question),
	};
}

// Capitalized words that start clauses or name roles rather than companies or products.
const COMMON_CAPITALIZED = new Set(
	(
		"the a an all any each this that these those it its item items lot lots clin qty quantity government contractor contractors offeror offerors vendor vendors " +
		"quotes quote bids bid tenders tender proposals proposal section part far dfars naics psc unspsc cpv attn note notes delivery deliver award " +
		"brand name names manufacturer manufacturers model models minimum maximum required requirement requirements products product equipment " +
		"warranty installation training support service services contract agency authority council city county state department office university " +
		"district center centre college school institute ministry division branch unit units no yes not only must shall will and or of in on at for with by to"
	).split(/\s+/),
);

// Model and part numbers: letters and digits mixed, usually hyphenated (PA-3410, G7115A,
// C9120AXI-B, ND-ONE-W). Clause numbers (52.212-1) have no letters and do not count.
const MODEL_RE = /\b(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*[0-9])[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\b[A-Z]{1,4}\d{2,}[A-Z0-9]*\b|\b\d{2,}[A-Z]{1,4}\d*\b|\b[A-Z]{2,}(?:-[A-Z0-9]+){2,}\b/g;

/** Answer types that pin an answer down; the others (a name, a place, a code) are weaker evidence. */
export const STRONG_TYPES = new Set<AnswerType>(["date", "time", "relative", "money", "count", "duration", "percent", "contact"]);

/**
 * Whether a passage contains a value of this type that the question does not already carry.
 * `known` are words that are never the answer (the buyer's name, the solicitation number).
 */
export function hasAnswerType(type: AnswerType, text: string, q: QuestionInfo, known: string, title = ""): boolean {
	const knownWords = new Set(words(known).map((w) => w.toLowerCase()));
	const novel = (w: string) => !q.words.has(w.toLowerCase()) && !knownWords.has(w.toLowerCase());
	switch (type) {
		case "date":
			return DATE_RE.test(text);
		case "time":
			return TIME_RE.test(text);
		case "money":
			return MONEY_RE.test(text);
		case "duration":
			return DURATION_RE.test(text);
		case "relative":
			return RELATIVE_RE.test(text);
		case "percent":
			return PERCENT_RE.test(text);
		case "number": {
			const all = text.match(new RegExp(NUMBER_RE.source, "gi")) ?? [];
			return all.some((n) => novel(n) && !/^(19|20)\d\d$/.test(n));
		}
		case "count":
			return hasCount(text, q, title);
		case "agent":
			return /\bby (the|a|an)\b/i.test(text) || AGENT_RE.test(text);
		case "contact":
			return EMAIL_RE.test(text) || /(\+|\b)\d{1,4}[\s().-]{0,2}\d{3}[\s().-]{1,2}\d{3,4}[\s.-]?\d{0,4}\b/.test(text);
		case "place":
			return /\b\d{1,6}\s+[A-Z0-9][\w.]*(\s+[A-Z][\w.]*)*/.test(text) || /\b[A-Z]{2}\s+\d{5}\b/.test(text) || /\b[A-Z][a-z]+,\s+[A-Z]{2}\b/.test(text) || hasEntity(text, q, known, true);
		case "model":
			return (text.match(MODEL_RE) ?? []).some(novel);
		case "entity":
			return hasEntity(text, q, known, false, true);
	}
}

const MODEL_ONLY = new RegExp(`^(?:${MODEL_RE.source})$`);
/** "Motorola APX 6000", "Palo Alto Networks PA3410": a name right before a model code (one more capitalized word allowed between). */
function followedByModel(tokens: string[], i: number): boolean {
	const bare = (k: number) => (tokens[k] ?? "").replace(/^[("']+|[)"',.;:]+$/g, "");
	if (/[,.;:]$/.test(tokens[i] ?? "")) return false;
	if (MODEL_ONLY.test(bare(i + 1))) return true;
	return /^[A-Z][A-Za-z]+$/.test(bare(i + 1)) && !/[,.;:]$/.test(tokens[i + 1] ?? "") && MODEL_ONLY.test(bare(i + 2));
}
const MAKER_CUE = /^(brand|brands|manufacturer|manufacturers|manufactured|make|made|by|from|model|models|series|oem|supplied|supplier|vendor|contractor|company|firm|incumbent|products?)$/i;
const AGENT_RE = /\b(contractor|vendor|supplier|offeror|bidder|tenderer|awardee|successful (bidder|tenderer|offeror|vendor)|government|agency|council|county|university|department|manufacturer|engineer|technician|installer|integrator|staff|team|personnel)s?\b/i;
const NUMBER_ONLY = new RegExp(`^(${NUMBER_TOKEN})$`, "i");
const COUNT_WORDS = /^(units?|each|ea|pcs|pieces?|sets?|qty|nos?|lots?|no\.)$/i;

/**
 * A count of the thing asked about: a number next to (within three words of) a term of the
 * counted phrase, next to a count word ("40 EA", "90 units"), or after "quantity"/"qty". A bare
 * number elsewhere in the passage (an insurance amount, a year) is not a count.
 */
function hasCount(text: string, q: QuestionInfo, title: string): boolean {
	// Clause breaks stay visible as tokens of their own: a count does not reach across them.
	const tokens = text
		.replace(/([,;:])(?=\s|$)/g, " $1")
		.split(/[\s()\[\]]+/)
		.filter(Boolean);
	const counted = new Set(q.counted);
	const isCounted = (w: string) => words(w).some((x) => terms(x).some((y) => counted.has(y)));
	const inPassage = !counted.size || tokens.some(isCounted);
	// The passage (or the notice's title, its subject) must name what is counted at all.
	if (!inPassage && !words(title).some(isCounted)) return false;
	for (let i = 0; i < tokens.length; i++) {
		const t = tokens[i]!;
		if (!NUMBER_ONLY.test(t.replace(/[.,]$/, "")) || q.words.has(t.toLowerCase())) continue;
		if (/^(19|20)\d\d$/.test(t)) continue;
		// "quantity 85" counts the item the line names: only when that is what is asked about.
		if (/^(qty|quantity|quantities)$/i.test(tokens[i - 1] ?? "") || /^(qty|quantity)$/i.test(tokens[i - 2] ?? "")) {
			if (inPassage) return true;
			continue;
		}
		if (COUNT_WORDS.test(tokens[i + 1] ?? "")) return true;
		if (tokens.slice(Math.max(0, i - 3), i + 1).some(isCounted)) return true;
		// Forward, through the noun phrase the number counts ("twelve (12) refurbished rugged
		// laptops"), up to the first clause break or preposition.
		for (let k = i + 1; k < Math.min(tokens.length, i + 9); k++) {
			const w = tokens[k]!;
			if (isCounted(w)) return true;
			if (/^([,;:]|for|to|with|and|or|of|in|at|by|from|per|is|are|will|must|shall|that|which)$/i.test(w)) break;
		}
	}
	return false;
}

/**
 * A proper name the question does not already carry: a capitalized word that does not start the
 * sentence, is not a common role word and is not part of the buyer's name (the buyer is never
 * the manufacturer or contractor asked about).
 */
function hasEntity(text: string, q: QuestionInfo, known: string, allowKnown: boolean, maker = false): boolean {
	const knownWords = new Set(words(known).map((w) => w.toLowerCase()));
	const tokens = text.replace(/^\s*([-•*▪·]|\(?\d{1,2}[.)]|CLIN\s+\d+\s*-?)\s*/i, "").split(/\s+/);
	for (let i = 1; i < tokens.length; i++) {
		const raw = tokens[i]!.replace(/^[("']+|[)"',.;:]+$/g, "");
		const prev = tokens[i - 1]!;
		if (!/^[A-Z][A-Za-z0-9&-]+$/.test(raw)) continue;
		if (/[.:!?]$/.test(prev)) continue; // starts a sentence or a label
		const lower = raw.toLowerCase().replace(/'s$/, "");
		if (COMMON_CAPITALIZED.has(lower) || q.words.has(lower) || q.words.has(stem(lower))) continue;
		if (!allowKnown && knownWords.has(lower)) continue;
		// A maker's or firm's name stands next to what introduces one ("brand name: X", "made by
		// X", "X model ..."); a place or an agency elsewhere in the sentence is not an answer.
		if (maker && !tokens.slice(Math.max(0, i - 4), i + 4).some((w) => MAKER_CUE.test(w.replace(/[^A-Za-z]/g, ""))) && !followedByModel(tokens, i)) continue;
		return true;
	}
	return false;
}
