import { createServer, connect, type Server, type Socket } from "node:net";
import mongoose from "mongoose";

// A store that refuses or holds back one kind of write on demand, for tests of what the code
// does when a write is refused, or lands late behind other requests' writes. A TCP proxy stands
// between the services and the real MongoDB-compatible server: every message passes through
// unchanged, except a command whose bytes contain every armed pattern, which is either answered
// with an error reply without reaching the server (as the server answers a write it refuses) or
// held until the test releases it (a slow write). It works the same in front of MongoDB and FerretDB, and
// the code under test runs unchanged (its own driver, pool and error handling).

const HEADER = 16;
const OP_MSG = 2013;

export interface ArmedFault {
	/** Byte strings that must all occur in the command (see bsonString). */
	patterns: Buffer[];
	/** How many more matching commands to act on. */
	remaining: number;
	/** How many were acted on so far (refused, or held). */
	hits: number;
	/** Set for a fault that holds matching commands: resolves when they may go on. Absent: refuse them. */
	gate?: Promise<void>;
	/** Lets the held commands go on (and later matching ones pass at once). */
	release(): void;
}

/** The BSON bytes of a string field `name: value`, as a pattern that finds it in any command. */
export function bsonString(name: string, value: string): Buffer {
	const v = Buffer.from(`${value}\0`, "utf8");
	const len = Buffer.alloc(4);
	len.writeInt32LE(v.length);
	return Buffer.concat([Buffer.from([0x02]), Buffer.from(`${name}\0`, "utf8"), len, v]);
}

/** An OP_MSG reply `{ok: 0, errmsg, code}` to the request with this id. */
function errorReply(requestId: number, errmsg: string): Buffer {
	// Code 1 (InternalError): an error that drivers neither retry nor treat as a server change.
	const body = Buffer.from(mongoose.mongo.BSON.serialize({ ok: 0, errmsg, code: 1, codeName: "InternalError" }));
	const msg = Buffer.alloc(HEADER + 4 + 1 + body.length);
	msg.writeInt32LE(msg.length, 0);
	msg.writeInt32LE(0x7fff0000 + (requestId & 0xffff), 4);
	msg.writeInt32LE(requestId, 8);
	msg.writeInt32LE(OP_MSG, 12);
	msg.writeUInt32LE(0, HEADER); // flag bits
	msg.writeUInt8(0, HEADER + 4); // section kind 0: the body
	body.copy(msg, HEADER + 5);
	return msg;
}

export class StoreFaultProxy {
	private readonly faults: ArmedFault[] = [];
	private readonly sockets = new Set<Socket>();
	private constructor(
		private readonly server: Server,
		/** The URL the services use instead of the store's. */
		readonly url: string,
	) {}

	/** A proxy on a free local port in front of the store at `target` (a mongodb:// URL with one host). */
	static async start(target: string): Promise<StoreFaultProxy> {
		const t = new URL(target);
		const upstreamPort = Number(t.port) || 27017;
		let proxy: StoreFaultProxy | undefined;
		const server = createServer((client) => proxy!.relay(client, t.hostname, upstreamPort));
		await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
		const url = new URL(target);
		url.hostname = "127.0.0.1";
		url.port = String((server.address() as { port: number }).port);
		proxy = new StoreFaultProxy(server, url.toString());
		return proxy;
	}

	/** Refuses the next `times` commands that contain every pattern. */
	refuse(patterns: Buffer[], times: number): ArmedFault {
		const f: ArmedFault = { patterns, remaining: times, hits: 0, release: () => (f.remaining = 0) };
		this.faults.push(f);
		return f;
	}

	/** Holds the next `times` commands that contain every pattern until the fault is released. */
	hold(patterns: Buffer[], times: number): ArmedFault {
		let open = () => {};
		const gate = new Promise<void>((r) => (open = r));
		const f: ArmedFault = { patterns, remaining: times, hits: 0, gate, release: () => ((f.remaining = 0), open()) };
		this.faults.push(f);
		return f;
	}

	/** Lets everything through again. */
	heal(): void {
		for (const f of this.faults) f.release();
	}

	async stop(): Promise<void> {
		for (const s of this.sockets) s.destroy();
		await new Promise<void>((r) => this.server.close(() => r()));
	}

	private relay(client: Socket, host: string, port: number): void {
		const upstream = connect(port, host);
		this.sockets.add(client).add(upstream);
		const drop = () => {
			client.destroy();
			upstream.destroy();
			this.sockets.delete(client);
			this.sockets.delete(upstream);
		};
		client.on("error", drop).on("close", drop);
		upstream.on("error", drop).on("close", drop);
		upstream.on("data", (chunk) => client.write(chunk));
		let pending = Buffer.alloc(0);
		// A held command holds the ones after it on the same connection, so their order is kept.
		let sending = Promise.resolve();
		client.on("data", (chunk: Buffer) => {
			pending = Buffer.concat([pending, chunk]);
			while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
				const msg = pending.subarray(0, pending.readInt32LE(0));
				pending = pending.subarray(msg.length);
				const fault =
					msg.readInt32LE(12) === OP_MSG ? this.faults.find((f) => f.remaining > 0 && f.patterns.every((p) => msg.includes(p))) : undefined;
				if (fault) {
					fault.remaining--;
					fault.hits++;
				}
				sending = sending.then(async () => {
					if (fault?.gate) await fault.gate;
					if (fault && !fault.gate) client.write(errorReply(msg.readInt32LE(4), "injected by the test's store proxy: write refused"));
					else upstream.write(msg);
				});
			}
		});
	}
}
