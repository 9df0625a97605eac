import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server in the test process standing in for the mail relay: what it accepts is
// parsed into `inbox`; `refuse` can make it answer a message with a temporary failure (451).

export interface SmtpSink {
	inbox: ParsedMail[];
	/** smtp://127.0.0.1:<port>?ignoreTLS=true, for SMTP_URL. */
	url: string;
	close(): Promise<void>;
}

export async function startSmtpSink(refuse: () => boolean = () => false): Promise<SmtpSink> {
	const inbox: ParsedMail[] = [];
	const smtp = new SMTPServer({
		authOptional: true,
		disabledCommands: ["STARTTLS"],
		onData(stream, _session, done) {
			const chunks: Buffer[] = [];
			stream.on("data", (c: Buffer) => chunks.push(c));
			stream.on("end", async () => {
				if (refuse()) return done(Object.assign(new Error("451 try again later"), { responseCode: 451 }));
				inbox.push(await simpleParser(Buffer.concat(chunks)));
				done();
			});
		},
	});
	await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
	return {
		inbox,
		url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`,
		close: () => new Promise<void>((r) => smtp.close(() => r())),
	};
}
