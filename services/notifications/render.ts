import type { DigestItem } from "../../shared/contract/internal/opportunities-actions.ts";

// The digest email: an HTML part and a plain-text part with the same content. Everything
// from notices is escaped: notice text is untrusted.

export interface DigestContent {
	companyName: string | null;
	items: DigestItem[];
	updated: DigestItem[];
	timeZone: string;
	portalUrl: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function formatDeadline(iso: string | null, timeZone: string): string {
	if (!iso) return "no deadline stated";
	return new Intl.DateTimeFormat("en-US", {
		timeZone,
		day: "numeric",
		month: "short",
		year: "numeric",
		hour: "2-digit",
		minute: "2-digit",
		hourCycle: "h23",
		timeZoneName: "short",
	}).format(new Date(iso));
}

export const linkTo = (c: DigestContent, item: DigestItem) => `${c.portalUrl.replace(/\/$/, "")}/opportunities/${item.id}`;

export function subject(c: DigestContent): string {
	const n = c.items.length;
	const parts = [
		n ? `${n} new ${n === 1 ? "opportunity" : "opportunities"}` : "",
		c.updated.length ? `${c.updated.length} updated` : "",
	].filter(Boolean);
	return `Your opportunity digest: ${parts.join(", ") || "nothing new"}`;
}

function textItem(c: DigestContent, i: DigestItem): string {
	return [
		`* ${i.title}`,
		`  ${i.issuing_body} | ${i.rfp_id}`,
		`  Deadline: ${formatDeadline(i.deadline, c.timeZone)} | Score: ${i.score ?? "n/a"}`,
		...(i.reasons.length ? [`  Why: ${i.reasons.join("; ")}`] : []),
		`  ${linkTo(c, i)}`,
	].join("\n");
}

export function renderText(c: DigestContent): string {
	const sections = [`Opportunity digest${c.companyName ? ` for ${c.companyName}` : ""}`, ""];
	if (c.items.length) sections.push("New matches", "", ...c.items.map((i) => textItem(c, i)), "");
	if (c.updated.length) sections.push("Updated since we told you", "", ...c.updated.map((i) => textItem(c, i)), "");
	sections.push(`Deadlines are shown in ${c.timeZone}. Change what you receive in the portal's notification settings.`);
	return sections.join("\n");
}

function htmlItem(c: DigestContent, i: DigestItem): string {
	return `<tr><td style="padding:10px 0;border-bottom:1px solid #e5e7eb">
<a href="${esc(linkTo(c, i))}" style="font-weight:600;color:#1d4ed8;text-decoration:none">${esc(i.title)}</a>
<div style="color:#374151">${esc(i.issuing_body)} &middot; ${esc(i.rfp_id)}</div>
<div style="color:#374151">Deadline: ${esc(formatDeadline(i.deadline, c.timeZone))} &middot; Score: <b>${i.score ?? "n/a"}</b></div>
${i.reasons.length ? `<ul style="margin:4px 0 0 18px;padding:0;color:#4b5563">${i.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>` : ""}
</td></tr>`;
}

export function renderHtml(c: DigestContent): string {
	const section = (title: string, items: DigestItem[]) =>
		items.length
			? `<h2 style="font-size:16px;margin:24px 0 4px">${esc(title)}</h2><table role="presentation" width="100%" cellspacing="0">${items.map((i) => htmlItem(c, i)).join("")}</table>`
			: "";
	return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;max-width:680px;margin:0 auto;padding:16px;color:#111827">
<h1 style="font-size:20px">Opportunity digest${c.companyName ? ` for ${esc(c.companyName)}` : ""}</h1>
${section("New matches", c.items)}${section("Updated since we told you", c.updated)}
<p style="color:#6b7280;font-size:12px;margin-top:24px">Deadlines are shown in ${esc(c.timeZone)}. Change what you receive in the portal's notification settings.</p>
</body></html>`;
}
