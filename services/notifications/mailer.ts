import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../../shared/config.ts";

// SMTP delivery through nodemailer (SMTP_URL, e.g. smtp://mailpit:1025 or smtps://user:pass@host).

let transport: Transporter | undefined;

function transporter(): Transporter {
	if (!transport) {
		const u = new URL(config().SMTP_URL);
		const secure = u.protocol === "smtps:";
		transport = nodemailer.createTransport({
			host: u.hostname,
			port: Number(u.port) || (secure ? 465 : 25),
			secure,
			auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
			// A plain local relay (Mailpit, a test server) offers no TLS; elsewhere STARTTLS is used when offered.
			ignoreTLS: u.searchParams.get("ignoreTLS") === "true",
			connectionTimeout: 10_000,
			greetingTimeout: 10_000,
			socketTimeout: 30_000,
		});
	}
	return transport;
}

export interface Mail {
	to: string[];
	subject: string;
	text: string;
	html: string;
	/** Deterministic per digest slot, so a mail system can recognise a repeat. */
	messageId: string;
}

export async function sendMail(m: Mail): Promise<string> {
	const info = await transporter().sendMail({
		from: config().MAIL_FROM,
		to: m.to,
		subject: m.subject,
		text: m.text,
		html: m.html,
		messageId: m.messageId,
	});
	return info.messageId;
}

export function closeMailer(): void {
	transport?.close();
	transport = undefined;
}
