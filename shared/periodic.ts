// Background loops of a service (reconcilers, purges): one run at a time, however long a run
// takes, and a stop that waits for the run in progress, so a service closes its database only
// after its last run has finished with it.

export interface Periodic {
	/** No further runs; resolves once the run in progress, if any, has ended. */
	stop(): Promise<void>;
}

/** Runs `task` every `intervalMs` (a tick that finds the previous run still going is skipped). */
export function every(intervalMs: number, task: () => Promise<unknown>, onError: (e: unknown) => void): Periodic {
	let running: Promise<void> | null = null;
	let stopped = false;
	const timer = setInterval(() => {
		if (running || stopped) return;
		running = task()
			.then(() => undefined, onError)
			.finally(() => (running = null));
	}, intervalMs);
	timer.unref();
	return {
		async stop() {
			stopped = true;
			clearInterval(timer);
			await running;
		},
	};
}
