import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

// The client's address, which the anonymous rate limit is keyed on. Behind an ingress the
// socket's peer is the proxy, so every client would share one budget; a trusted proxy's
// X-Forwarded-For is believed instead, walked right to left past the trusted hops (proxy-addr),
// and anyone else's is ignored, so a client cannot pick a fresh address per request.

export type ClientAddress = (req: IncomingMessage) => string;

/** The address reader for these proxies (TRUST_PROXY, already checked by shared/config.ts). */
export function clientAddress(trustedProxies: string[]): ClientAddress {
	const trust = proxyAddr.compile(trustedProxies);
	return (req) => (req.socket.remoteAddress === undefined ? "unknown" : proxyAddr(req, trust));
}
