// Why: fixing one tuning question's wording generalizes weakly (issue 18's first six rounds). This probe asks many wordings
// of the bid manager's structure questions (deadline, value, reference, contact, procedure, buyer, submission), in English
// and in the notice's own language, over every notice of a tuning set that has the field, and counts the answers that give
// that field. It needs no labels: the notice's own fields say what the answer is. A wording below 100% is a kind of
// question the answerer does not read yet. Tuning notices only: it refuses the measured part.
//
// Usage: node_modules/.bin/tsx scripts/probe-ask-paraphrases.ts [--set eval/real/tune/notices.ocds.json] [--misses]
import { resolve } from "node:path";
import { buildGrounding } from "../services/ask/context.ts";
import { answerExtractive, NOT_STATED } from "../services/ask/extractive.ts";
import { loadNotices } from "./eval-ask.ts";

/** Wordings by language and field; English ones are asked of every notice, the others of notices in that language. */
const WORDINGS: Record<string, Record<string, string[]>> = {
	en: {
		deadline: [
			"When is the deadline?",
			"When do bids close?",
			"By what date must offers reach the buyer?",
			"What is the closing date for tenders?",
			"When are submissions due?",
			"Until when can I submit a bid?",
			"What's the last day to send a proposal?",
			"What time do tenders close?",
			"How long do I have to submit?",
		],
		value: [
			"What is the estimated value?",
			"Is there a budget?",
			"How much is the contract worth?",
			"What's the expected contract value?",
			"How much money is available?",
			"What's the price ceiling?",
		],
		reference: [
			"What is the reference number?",
			"What's the solicitation number?",
			"What is the tender ID?",
			"Which reference should I quote?",
		],
		contacts: [
			"Who is the contact?",
			"Who should I contact?",
			"Whom do I ask questions?",
			"What's the buyer's email?",
			"Who can I reach out to with questions?",
			"What phone number can I call?",
		],
		procedure: [
			"What procedure is used?",
			"Which procurement procedure applies?",
			"Is this an open tender?",
			"How will the supplier be selected?",
			"What kind of tender is this?",
		],
		buyer: ["Who is the buyer?", "Which organisation is buying?", "Who is issuing this tender?", "Who is the contracting authority?"],
		submission: ["How do I submit a bid?", "Where should offers be sent?", "How do I apply?", "Can I submit electronically?"],
	},
	no: {
		deadline: ["Når er tilbudsfristen?", "Når må tilbudet leveres?", "Innen hvilken dato må tilbud være mottatt?"],
		value: ["Hva er estimert verdi?", "Hvor mye er kontrakten verdt?", "Finnes det et budsjett?"],
		reference: ["Hva er referansenummeret?", "Hva er saksnummeret?"],
		contacts: ["Hvem er kontaktperson?", "Hvem sender jeg spørsmål til?"],
		procedure: ["Hvilken prosedyre brukes?", "Hva slags konkurranse er dette?", "Er dette en åpen anbudskonkurranse?"],
		buyer: ["Hvem er oppdragsgiver?", "Hvem kjøper?"],
		submission: ["Hvordan leverer jeg tilbud?", "Hvor skal tilbudet sendes?"],
	},
	de: {
		deadline: ["Wann ist die Angebotsfrist?", "Bis wann müssen Angebote eingehen?"],
		value: ["Wie hoch ist der geschätzte Auftragswert?", "Gibt es ein Budget?", "Wie viel ist der Auftrag wert?"],
		reference: ["Wie lautet die Vergabenummer?", "Was ist das Aktenzeichen?"],
		contacts: ["Wer ist der Ansprechpartner?", "An wen kann ich mich wenden?"],
		procedure: ["Welches Verfahren wird angewandt?", "Ist das ein offenes Verfahren?"],
		buyer: ["Wer ist der Auftraggeber?", "Wer vergibt den Auftrag?"],
		submission: ["Wie reiche ich ein Angebot ein?", "Wo müssen Angebote eingereicht werden?"],
	},
	fr: {
		deadline: ["Quelle est la date limite de remise des offres ?", "Jusqu'à quand puis-je soumettre ?"],
		value: ["Quelle est la valeur estimée ?", "Y a-t-il un budget ?", "Combien vaut le marché ?"],
		reference: ["Quel est le numéro de référence ?"],
		contacts: ["Qui est la personne de contact ?", "Qui dois-je contacter ?"],
		procedure: ["Quelle procédure est utilisée ?", "Est-ce une procédure ouverte ?"],
		buyer: ["Qui est l'acheteur ?", "Qui est le pouvoir adjudicateur ?"],
		submission: ["Comment soumettre une offre ?", "Où déposer l'offre ?"],
	},
	es: {
		deadline: ["¿Cuál es la fecha límite para presentar ofertas?", "¿Cuándo cierra la licitación?"],
		value: ["¿Cuál es el valor estimado?", "¿Hay un presupuesto?", "¿Cuánto vale el contrato?"],
		reference: ["¿Cuál es el número de referencia?", "¿Cuál es el número de expediente?"],
		contacts: ["¿Quién es la persona de contacto?", "¿A quién puedo contactar?"],
		procedure: ["¿Qué procedimiento se utiliza?", "¿Es una licitación abierta?"],
		buyer: ["¿Quién es el comprador?", "¿Qué entidad convoca?"],
		submission: ["¿Cómo se presenta una oferta?", "¿Dónde se deben enviar las ofertas?"],
	},
	it: {
		deadline: ["Qual è il termine per la presentazione delle offerte?", "Entro quando devono pervenire le offerte?"],
		value: ["Qual è il valore stimato?", "Quanto vale l'appalto?"],
		contacts: ["Chi è il referente?", "Chi posso contattare?"],
		procedure: ["Quale procedura viene utilizzata?", "È una procedura aperta?"],
		buyer: ["Chi è la stazione appaltante?"],
		submission: ["Come si presenta un'offerta?"],
	},
	pl: {
		deadline: ["Jaki jest termin składania ofert?", "Do kiedy należy złożyć ofertę?"],
		value: ["Jaka jest szacunkowa wartość zamówienia?", "Jaki jest budżet?"],
		contacts: ["Kto jest osobą do kontaktu?"],
		procedure: ["Jaki tryb postępowania zastosowano?", "Czy to przetarg nieograniczony?"],
		buyer: ["Kto jest zamawiającym?"],
		submission: ["Jak złożyć ofertę?"],
	},
	nl: {
		deadline: ["Wat is de uiterste datum voor het indienen van offertes?", "Wanneer sluit de inschrijving?"],
		value: ["Wat is de geraamde waarde?", "Is er een budget?"],
		contacts: ["Wie is de contactpersoon?"],
		procedure: ["Welke procedure wordt gevolgd?", "Is dit een openbare procedure?"],
		buyer: ["Wie is de aanbestedende dienst?"],
		submission: ["Hoe dien ik een offerte in?"],
	},
};

function main(): void {
	const args = process.argv.slice(2);
	const si = args.indexOf("--set");
	const set = resolve(si >= 0 ? args[si + 1]! : "eval/real/tune/notices.ocds.json");
	if (/measure/.test(set)) throw new Error("the measured part is measured only, never probed");
	const showMisses = args.includes("--misses");
	const stats = new Map<string, [number, number]>();
	for (const [ocid, notice] of loadNotices(set)) {
		const g = buildGrounding({ notice, opportunity: null, profile: null });
		for (const lang of new Set(["en", g.lang])) {
			for (const [field, questions] of Object.entries(WORDINGS[lang] ?? {})) {
				const facts = g.facts.filter((f) => f.field === field);
				if (!facts.length) continue;
				for (const question of questions) {
					const answer = answerExtractive(g, question).answer;
					const right = !answer.startsWith(NOT_STATED) && facts.some((f) => answer.includes(`field ${f.name.replace(/\[\d+\]$/, "")}`));
					const key = `${lang} ${field}: ${question}`;
					const s = stats.get(key) ?? [0, 0];
					stats.set(key, [s[0] + (right ? 1 : 0), s[1] + 1]);
					if (!right && showMisses) console.log(`MISS ${ocid} | ${question} | ${answer.slice(0, 160).replace(/\n/g, " / ")}`);
				}
			}
		}
	}
	let right = 0;
	let total = 0;
	for (const [key, [r, n]] of stats) {
		right += r;
		total += n;
		if (r < n || showMisses) console.log(`${`${r}/${n}`.padEnd(8)} ${key}`);
	}
	console.log(`paraphrases answered from their field: ${right}/${total} over ${stats.size} wordings`);
}

main();
