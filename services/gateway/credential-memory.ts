import type { Redis } from "ioredis";
import type { AuthContext } from "../../shared/auth-context.ts";
import { KEY_LAST_USED_RESOLUTION_MS, readAuthStamp, StampedMemo } from "../../shared/auth-stamp.ts";
import type { AuthAnswer, AuthenticateParams } from "../../shared/contract/internal/auth-keys-actions.ts";

// Every authenticated request asked auth-keys over NATS who was calling, though auth-keys
// answered almost all of them from its own memory: under bench:load the round trip and
// auth-keys' share of it were a tenth of the machine (issue 17). The gateway now remembers
// auth-keys' answers the way auth-keys remembers its database (shared/auth-stamp.ts): an answer
// is reused only while the stamp read for this request is the one read before asking, so a key
// revoked, a session ended or a membership disabled is refused on the very next request, by
// every gateway; expiry is checked against the clock on every request, and a credential past it
// is asked about again (auth-keys refuses it). Only successful answers are kept: a refused
// credential asks every time and spends its address's rate budget. An answer lives at most a
// minute, so auth-keys still sees every key in use and keeps its last-use time.

export class CredentialMemory {
	private readonly memo: StampedMemo<AuthAnswer>;

	/** `ttlMs` 0 remembers nothing (every request asks auth-keys). */
	constructor(
		private readonly redis: Redis,
		private readonly stampKey: string,
		private readonly ttlMs: number,
	) {
		this.memo = new StampedMemo(Math.min(ttlMs, KEY_LAST_USED_RESOLUTION_MS));
	}

	/** The caller behind the credential: remembered, or `ask`ed of auth-keys (which may throw). */
	async authenticate(p: AuthenticateParams, ask: () => Promise<AuthAnswer>): Promise<AuthContext> {
		const stamp = this.ttlMs > 0 ? await readAuthStamp(this.redis, this.stampKey) : null;
		const key = `${p.kind}:${p.hash}|${p.tenantId ?? ""}`;
		const known = this.memo.get(key, stamp);
		if (known && (known.expiresAt === null || known.expiresAt > Date.now())) return { ...known.auth };
		if (known) this.memo.delete(key);
		const answer = await ask();
		this.memo.set(key, stamp, answer);
		return { ...answer.auth };
	}
}
