// Progress of a long CLI command, on stderr so stdout keeps only the command's answer: a bar
// redrawn in place on a terminal, else a line per tenth.

export function progress(total: number, label = ""): (done: number) => void {
	let tenths = 0;
	return (done) => {
		const share = total === 0 ? 1 : done / total;
		if (process.stderr.isTTY) {
			const bar = "#".repeat(Math.round(share * 30)).padEnd(30, ".");
			process.stderr.write(`\r${label}[${bar}] ${Math.floor(share * 100)}% ${done}/${total}${share >= 1 ? "\n" : ""}`);
		} else if (Math.floor(share * 10) > tenths) {
			tenths = Math.floor(share * 10);
			process.stderr.write(`${label}${tenths * 10}% (${done}/${total})\n`);
		}
	};
}
