// Between services (not HTTP): what the opportunities service hands the notifications service
// for a digest.

export interface DigestItem {
	id: string;
	title: string;
	issuing_body: string;
	rfp_id: string;
	deadline: string | null;
	score: number | null;
	source_status: string;
	/** The top positive reasons of the score, readable. */
	reasons: string[];
	source_url: string | null;
}

export interface DigestCandidates {
	items: DigestItem[];
	updated: DigestItem[];
}
