import type { Model } from "mongoose";
import { isDuplicateKeyError } from "../../shared/mongo.ts";

// Caps on what one owner may hold at once (a company's active API keys, an account's live
// sessions) that hold under concurrent requests. Counting and then inserting lets parallel
// requests all see room. Instead each counted document holds one of its owner's `cap` numbered
// places, `place: "<owner>#<n>"`, under a unique index, so the database refuses a place taken
// twice and at most `cap` documents can hold one. A document gives its place back ($unset) in
// the same single-document update that revokes or ends it; an expired one is made to give it
// back when its owner needs room. Only unique indexes and single-document updates: MongoDB and
// FerretDB agree on both. The index is sparse: documents without a place (given back, or
// written before the caps by an earlier release) are not in it, and live ones among those are
// given places before anything new is added, so every live document is counted by the index.

/** The `place` field's index options: unique among the documents that have one. */
export const PLACE_INDEX = { unique: true, sparse: true } as const;

interface Holder {
	_id: string;
	place?: string | null;
	expires_at?: Date | null;
}

export interface Places {
	/** The collection whose documents hold places (with `place` and `expires_at` fields). */
	model: Model<any>;
	/** The owner's id, and the field naming it in the documents. */
	owner: string;
	ownerField: string;
	cap: number;
	/** Filter of the owner's documents that count while unexpired (not revoked, not ended). */
	live: Record<string, unknown>;
}

/** The update that gives a document's place back, for the update that revokes or ends it. */
export const GIVE_BACK_PLACE = { $unset: { place: 1 } } as const;

/** A place picked at random among the free ones, so concurrent requests rarely pick the same. */
const pick = (free: string[]) => free[Math.floor(Math.random() * free.length)]!;

/**
 * Creates a document (`create` is given its place) if the owner holds fewer than `cap` live ones,
 * else answers null. When another request takes the chosen place first, it looks again.
 */
export async function createWithinCap<T>(p: Places, create: (place: string) => Promise<T>): Promise<T | null> {
	const all = Array.from({ length: p.cap }, (_, n) => `${p.owner}#${n}`);
	// Every lost race means another request took a place, so the places run out well before this.
	for (let attempt = 0; attempt < 4 * p.cap + 10; attempt++) {
		const now = Date.now();
		const docs = (await p.model.find({ [p.ownerField]: p.owner, ...p.live }, { place: 1, expires_at: 1 }).lean()) as Holder[];
		const expired = (d: Holder) => !!d.expires_at && d.expires_at.getTime() <= now;
		await Promise.all(
			docs.filter((d) => expired(d) && d.place).map((d) => p.model.updateOne({ _id: d._id, place: d.place }, GIVE_BACK_PLACE)),
		);
		const live = docs.filter((d) => !expired(d));
		if (live.length >= p.cap) return null;
		const taken = new Set(live.map((d) => d.place));
		const free = all.filter((x) => !taken.has(x));
		const unplaced = live.filter((d) => !d.place);
		try {
			if (unplaced.length) {
				// Older live documents get their places first; then look again.
				for (const d of unplaced) {
					const place = pick(free);
					await p.model.updateOne({ _id: d._id, place: { $exists: false } }, { $set: { place } });
					free.splice(free.indexOf(place), 1);
				}
				continue;
			}
			return await create(pick(free));
		} catch (e) {
			if (!isDuplicateKeyError(e)) throw e; // another document holds that place: look again
		}
	}
	throw new Error(`no free place for ${p.owner} after ${4 * p.cap + 10} attempts`);
}
