// Run-to-completion admission for a service's contract operations. A request that reads and
// writes its database in several statements (a feedback verdict: four) otherwise waits for a
// pooled connection before each of them, behind every request that arrived meanwhile: under
// load its latency is its statement count times the queue. Admitted at most `limit` at a time
// (the service's connection pool), a request waits once, at the door, in arrival order, and
// then runs its statements without queueing behind newcomers. Measured with bench:load
// (README, "Measured"). The broker's bulkhead still bounds how many calls wait at all.

export class Admission {
	private active = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly limit: number) {}

	async run<T>(fn: () => Promise<T>): Promise<T> {
		if (this.active < this.limit) this.active++;
		else await new Promise<void>((admit) => this.waiting.push(admit)); // the leaving request hands over its slot
		try {
			return await fn();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.active--;
		}
	}

	/** Requests running and waiting, for tests and metrics. */
	get load(): { active: number; waiting: number } {
		return { active: this.active, waiting: this.waiting.length };
	}
}
