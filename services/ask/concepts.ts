// What a question asks about, in any language of the notices: the topics bid managers ask first
// (deadline, value, quantity, lots, place, contact, documents, procedure, duration, warranty...).
// Each concept is named by the ordinary procurement words for it in the EU languages and
// Norwegian (a glossary, matched on Snowball stems from shared/text, so inflections meet), and says
// which structured field answers it, what kind of value an answering sentence holds, and whether
// a notice silent on it simply does not state it. The glossary names the notions, not any notice's
// phrasing; the same words find the topic in a question and in the notice's sentences.
import { foldOf, stemOf, type TextLanguage } from "../../shared/text/index.ts";
import { tokensOf, type Token, type ValueKind } from "./values.ts";

export type ConceptName =
	| "deadline"
	| "enquiry"
	| "value"
	| "rate"
	| "quantity"
	| "amount"
	| "frequency"
	| "procedure"
	| "award"
	| "evaluation"
	| "lots"
	| "place"
	| "contact"
	| "buyer"
	| "documents"
	| "information"
	| "reference"
	| "codes"
	| "duration"
	| "start"
	| "option"
	| "warranty"
	| "security"
	| "certification"
	| "equivalent"
	| "submission"
	| "eligibility"
	| "incumbent"
	| "site_visit"
	| "delivery_time"
	| "model"
	| "name"
	| "who"
	| "when"
	| "offer"
	| "scope"
	| "frame";

/** Structured fields of the normalized notice a concept is answered from. */
export type Field = "deadline" | "value" | "items" | "procedure" | "place" | "contacts" | "buyer" | "documents" | "reference" | "codes" | "eligibility";

export interface Concept {
	name: ConceptName;
	/** How "The notice does not state ..." names the topic. */
	topic: string;
	/** The concept's words by language; phrases separated by "|". */
	words: Partial<Record<TextLanguage, string>>;
	/** An answering sentence holds one of these. */
	kinds?: ValueKind[];
	/** The structured fields that answer it, in order. */
	fields?: Field[];
	/** No field and no sentence on the topic: the notice does not state it. */
	required?: boolean;
	/** An answering sentence must name the topic itself, not only the question's subject. */
	cueRequired?: boolean;
	/** When a question names several concepts, the highest rank is what it asks; 0 only qualifies others. */
	rank: number;
	/** Its words are not looked for inside compounds ("Preismodell" is no model). */
	noCompounds?: boolean;
}

export const CONCEPTS: Concept[] = [
	{
		name: "deadline",
		topic: "a deadline for tenders",
		rank: 9,
		kinds: ["date", "time"],
		fields: ["deadline"],
		required: true,
		words: {
			en: "deadline|due|due date|closing date|closing time|close|closes|time limit|last day|cut-off",
			no: "frist|tilbudsfrist|søknadsfrist|svarfrist|innleveringsfrist|siste dag",
			da: "frist|tilbudsfrist|ansøgningsfrist|tidsfrist|sidste dag",
			sv: "sista dag|sista anbudsdag|anbudstid|tidsfrist|frist|sista datum",
			de: "frist|angebotsfrist|schlusstermin|abgabefrist|einreichungsfrist|teilnahmefrist|ablauf der frist",
			nl: "termijn|uiterste datum|sluitingsdatum|deadline|indieningstermijn",
			fr: "date limite|délai|clôture|date de clôture|heure limite",
			es: "plazo|fecha límite|vencimiento|vence|cierre|fecha de cierre",
			it: "termine|scadenza|data di scadenza|termine ultimo",
			pt: "prazo|data limite|data-limite",
			pl: "termin|termin składania|ostateczny termin",
			cs: "lhůta|termín|lhůta pro podání",
			sk: "lehota|termín",
			sl: "rok|rok za oddajo",
			hr: "rok|rok za dostavu",
			ro: "termen|termen limită|termenul limită|data limită",
			el: "προθεσμία|καταληκτική ημερομηνία",
			fi: "määräaika|jättöaika|viimeinen jättöpäivä|aikaraja",
			et: "tähtaeg|tähtpäev",
			lv: "termiņš|iesniegšanas termiņš",
			lt: "terminas|pateikimo terminas",
			hu: "határidő|beadási határidő",
			bg: "срок|краен срок",
		},
	},
	{
		name: "enquiry",
		topic: "how or until when questions may be asked",
		rank: 3,
		kinds: ["date", "time", "email", "url"],
		words: {
			en: "question|questions|enquiry|enquiries|inquiry|inquiries|clarification|clarifications",
			no: "spørsmål|avklaring|tilleggsspørsmål",
			da: "spørgsmål|afklaring",
			sv: "fråga|frågor|förtydligande",
			de: "frage|fragen|bieterfrage|rückfrage|auskunft",
			nl: "vraag|vragen|verduidelijking",
			fr: "question|questions|demande de renseignements|éclaircissement",
			es: "consulta|consultas|pregunta|preguntas|aclaración|aclaraciones",
			it: "quesito|quesiti|chiarimento|chiarimenti|domanda",
			pt: "pergunta|esclarecimento|pedido de esclarecimento",
			pl: "pytanie|pytania|wyjaśnienie|wyjaśnienia",
			cs: "dotaz|dotazy|vysvětlení",
			sk: "otázka|vysvetlenie",
			sl: "vprašanje|vprašanja|pojasnilo",
			hr: "pitanje|pojašnjenje",
			ro: "întrebare|întrebări|clarificare|clarificări|solicitare de clarificare",
			el: "ερώτηση|ερωτήσεις|διευκρίνιση|διευκρινίσεις",
			fi: "kysymys|kysymykset|lisäkysymys|lisäkysymykset|lisätieto",
			et: "küsimus|küsimused|selgitus",
			lv: "jautājums|skaidrojums",
			lt: "klausimas|paaiškinimas",
			hu: "kérdés|kiegészítő tájékoztatás",
			bg: "въпрос|разяснение",
		},
	},
	{
		name: "value",
		topic: "an estimated value or budget",
		rank: 9,
		kinds: ["money"],
		fields: ["value"],
		required: true,
		cueRequired: true,
		words: {
			en: "value|valued|budget|budgeted|worth|estimated value|estimate|estimated|contract value|total value|funding|ceiling|cost|canon|spent|spend|spending|expenditure|not to exceed|grant|grants",
			no: "verdi|totalverdi|estimert|budsjett|kostnad|anslått|kontraktsverdi|beløp",
			da: "værdi|anslået|budget|kontraktværdi|beløb|omkostning",
			sv: "värde|uppskattat|budget|kontraktsvärde|belopp|kostnad",
			de: "wert|auftragswert|geschätzt|budget|volumen|kosten|betrag|schätzung",
			nl: "waarde|geraamd|raming|budget|bedrag|kosten",
			fr: "valeur|montant|budget|estimé|estimation|coût|canon|redevance",
			es: "valor|monto|importe|presupuesto|estimado|coste|costo|canon",
			it: "valore|importo|base di gara|base d'asta|budget|stimato|costo|canone",
			pt: "valor|montante|orçamento|estimado|custo",
			pl: "wartość|budżet|kwota|szacunkowa|koszt",
			cs: "hodnota|předpokládaná hodnota|rozpočet|částka|cena",
			sk: "hodnota|rozpočet|suma",
			sl: "vrednost|ocenjena vrednost|proračun|znesek",
			hr: "vrijednost|procijenjena vrijednost|proračun|iznos",
			ro: "valoare|valoarea estimată|buget|sumă|cost",
			el: "προϋπολογισμός|προϋπολογισμό|αξία|εκτιμώμενη αξία|κόστος",
			fi: "arvo|arvioitu arvo|budjetti|hinta-arvio|kustannus",
			et: "maksumus|eeldatav maksumus|väärtus|eelarve|summa",
			lv: "vērtība|līgumcena|budžets",
			lt: "vertė|biudžetas|suma",
			hu: "érték|becsült érték|költségvetés|összeg",
			bg: "стойност|прогнозна стойност|бюджет",
		},
	},
	{
		name: "rate",
		topic: "the rate or fee you ask about",
		rank: 9.5,
		kinds: ["money"],
		required: true,
		cueRequired: true,
		words: {
			en: "rate|rates|hourly rate|fee|fees|per hour|per day|day rate",
			no: "timepris|timesats|honorar|sats",
			de: "stundensatz|tagessatz|honorar|gebühr",
			fr: "taux horaire|tarif|honoraires",
			es: "tarifa|honorarios|precio por hora",
			it: "tariffa|onorario",
			pl: "stawka|stawka godzinowa",
		},
	},
	{
		name: "quantity",
		topic: "a quantity",
		rank: 9.2,
		kinds: ["count"],
		fields: ["items"],
		words: {
			en: "how many|quantity|quantities|number of",
			no: "hvor mange|antall|mengde",
			da: "hvor mange|antal|mængde",
			sv: "hur många|antal|mängd",
			de: "wie =viele|anzahl|menge|stückzahl",
			nl: "hoeveel|aantal|hoeveelheid",
			fr: "combien|nombre de|quantité",
			es: "cuántos|cuántas|cantidad|número de",
			it: "quanti|quante|quantità|numero di",
			pt: "quantos|quantas|quantidade|número de",
			pl: "ile|ilość|liczba",
			cs: "kolik|počet|množství",
			sk: "koľko|počet|množstvo",
			sl: "koliko|količina|število",
			hr: "koliko|količina|broj",
			ro: "câte|câți|cantitate|cantitatea|număr de|numărul",
			el: "πόσα|πόσοι|πόσες|ποσότητα|αριθμός",
			fi: "montako|kuinka monta|määrä|lukumäärä",
			et: "mitu|kogus|arv",
			lv: "cik|daudzums|skaits",
			lt: "kiek|kiekis|skaičius",
			hu: "hány|mennyi|mennyiség|darabszám",
			bg: "колко|количество|брой",
		},
	},
	{
		// "How much insurance", "wie viel Strom": an amount of anything, from the text.
		name: "amount",
		topic: "the amount you ask about",
		rank: 8,
		kinds: ["money", "number", "duration", "percent"],
		words: {
			en: "how much",
			no: "hvor mye",
			da: "hvor meget",
			sv: "hur mycket",
			de: "wie =viel|wie =viel insgesamt",
			fr: "quel montant",
			es: "cuánto|cuánta",
			it: "quanto|quanta",
			pt: "quanto|quanta",
			ro: "cât",
			el: "πόσο",
			fi: "paljonko",
			et: "kui palju",
		},
	},
	{
		name: "frequency",
		topic: "how often",
		rank: 8,
		kinds: ["count", "duration"],
		words: {
			en: "how often|frequency",
			no: "hvor ofte|frekvens",
			da: "hvor ofte|hyppighed",
			sv: "hur ofta|frekvens",
			de: "wie oft|häufigkeit",
			nl: "hoe vaak|frequentie",
			fr: "à quelle fréquence|combien de fois|fréquence",
			es: "con qué frecuencia|frecuencia|cuántas veces",
			it: "con quale frequenza|quante volte|frequenza",
			pl: "jak często|częstotliwość|ile razy",
			cs: "jak často|četnost",
			ro: "cât de des|frecvența|de câte ori",
			el: "πόσο συχνά|συχνότητα",
			fi: "kuinka usein|tiheys",
			et: "kui tihti|kui sageli|sagedus|mitu korda",
		},
	},
	{
		name: "procedure",
		topic: "the procedure",
		rank: 7,
		fields: ["procedure"],
		words: {
			en: "procedure|type of procedure|procurement procedure|tender procedure|procurement method|type of notice|notice type|kind of notice",
			no: "prosedyre|anskaffelsesprosedyre|konkurranseform|anbudsform",
			da: "procedure|udbudsprocedure|udbudsform",
			sv: "förfarande|upphandlingsförfarande|upphandlingsform",
			de: "verfahren|vergabeverfahren|verfahrensart|vergabeart",
			nl: "procedure|aanbestedingsprocedure",
			fr: "procédure|type de procédure",
			es: "procedimiento|tipo de procedimiento",
			it: "procedura|tipo di procedura",
			pt: "procedimento",
			pl: "tryb|procedura|rodzaj postępowania",
			cs: "řízení|druh řízení|zadávací řízení",
			sk: "postup|druh postupu",
			sl: "postopek|vrsta postopka",
			hr: "postupak|vrsta postupka",
			ro: "procedură|procedura|tip de procedură",
			el: "διαδικασία",
			fi: "menettely|hankintamenettely",
			et: "menetlus|hankemenetlus",
			lv: "procedūra|iepirkuma procedūra",
			lt: "procedūra|pirkimo būdas",
			hu: "eljárás|eljárás fajtája",
			bg: "процедура|вид процедура",
		},
	},
	{
		name: "award",
		topic: "how the contract will be awarded",
		rank: 5,
		fields: ["procedure"],
		words: {
			en: "award|awarded|awarding",
			no: "tildeling|tildeles",
			da: "tildeling|tildeles",
			sv: "tilldelning|tilldelas",
			de: "zuschlag|vergabe|vergeben",
			nl: "gunning|gegund",
			fr: "attribution|attribué",
			es: "adjudicación|adjudicará|adjudica",
			it: "aggiudicazione|aggiudicato",
			pl: "udzielenie|udzielone",
			ro: "atribuire|atribuit",
			el: "ανάθεση",
		},
	},
	{
		name: "evaluation",
		topic: "the evaluation criteria",
		rank: 9.5,
		kinds: ["percent", "name"],
		cueRequired: true,
		words: {
			en: "criteria|criterion|evaluation|evaluated|weighting|weight|scoring|score|award criteria",
			no: "tildelingskriterier|kriterier|vekting|evaluering",
			da: "tildelingskriterier|kriterier|vægtning|evaluering",
			sv: "tilldelningskriterier|kriterier|viktning|utvärdering",
			de: "zuschlagskriterien|kriterien|gewichtung|wertung|bewertung",
			nl: "gunningscriteria|criteria|weging|beoordeling",
			fr: "critères|critère|pondération|évaluation",
			es: "criterios|criterio|ponderación|evaluación",
			it: "criteri|criterio|ponderazione|punteggio|valutazione",
			pt: "critérios|ponderação|avaliação",
			pl: "kryteria|kryterium|waga|ocena",
			cs: "kritéria|hodnocení|váha",
			ro: "criterii|criteriu|ponderare|evaluare",
			el: "κριτήρια|στάθμιση|αξιολόγηση",
			fi: "vertailuperusteet|arviointi|painotus",
			et: "hindamiskriteeriumid|kriteeriumid|hindamine",
		},
	},
	{
		name: "lots",
		topic: "how the purchase is split into lots",
		rank: 5,
		fields: ["items"],
		words: {
			en: "lot|lots|sub-contract|sub-contracts|split|divided|division|shared between",
			no: "delkontrakt|delkontrakter|del|deler|delområde|tjenesteområde|lot",
			da: "delaftale|delkontrakt|delområde|delydelse",
			sv: "delområde|anbudsområde|del",
			de: "los|lose|teillos|fachlos",
			nl: "perceel|percelen|kavel",
			fr: "lot|lots",
			es: "lote|lotes",
			it: "lotto|lotti",
			pt: "lote|lotes",
			pl: "część|części|pakiet|pakiety|zadanie",
			cs: "část|části",
			sk: "časť|časti",
			sl: "sklop|sklopi",
			hr: "grupa|grupe",
			ro: "lot|loturi",
			el: "τμήμα|τμήματα|ομάδα|ομάδες",
			fi: "osa|osat|osakokonaisuus",
			et: "osa|osad|osahange",
			lv: "daļa|daļas",
			lt: "dalis|dalys",
			hu: "rész|részek",
			bg: "обособена позиция|позиция",
		},
	},
	{
		name: "place",
		topic: "a place of delivery or performance",
		rank: 6,
		kinds: ["address", "email", "url", "name"],
		fields: ["place"],
		words: {
			en: "where|place|location|located|address|site address|delivered to|delivery address|delivery location|deliver to|delivery|delivered|ship to",
			no: "hvor|sted|leveringssted|adresse|lokasjon|beliggenhet|ligge",
			da: "hvor|sted|leveringssted|adresse|placering",
			sv: "var|plats|leveransadress|adress|ort",
			de: "wo|ort|lieferort|standort|adresse|leistungsort|erfüllungsort",
			nl: "waar|plaats|locatie|adres|leveringsadres",
			fr: "où|lieu|adresse|site|lieu de livraison|emplacement",
			es: "dónde|donde|lugar|dirección|ubicación|ubicará|ubica|emplazamiento",
			it: "dove|luogo|indirizzo|sede|ubicazione",
			pt: "onde|local|endereço",
			pl: "gdzie|miejsce|adres|lokalizacja",
			cs: "kde|místo|adresa",
			sk: "kde|miesto|adresa",
			sl: "kje|kraj|naslov|lokacija",
			hr: "gdje|mjesto|adresa",
			ro: "unde|loc|locul|adresa|adresă|locație",
			el: "πού|τόπος|διεύθυνση|τοποθεσία|πόλεις|πόλη",
			fi: "missä|mihin|paikka|osoite|sijainti",
			et: "kus|kuhu|koht|aadress|asukoht|aadressile",
			lv: "kur|vieta|adrese",
			lt: "kur|vieta|adresas",
			hu: "hol|hová|hely|helyszín|cím",
			bg: "къде|място|адрес",
		},
	},
	{
		name: "contact",
		topic: "a contact",
		rank: 8,
		kinds: ["email", "phone", "name"],
		fields: ["contacts"],
		required: true,
		cueRequired: true,
		words: {
			en: "contact|contacts|contact person|e-mail|email|phone|telephone|who to contact|point of contact",
			no: "kontakt|kontaktperson|e-post|telefon",
			da: "kontakt|kontaktperson|e-mail|telefon",
			sv: "kontakt|kontaktperson|e-post|telefon",
			de: "kontakt|ansprechpartner|ansprechperson|kontaktperson|e-mail|telefon",
			nl: "contact|contactpersoon|e-mail|telefoon",
			fr: "contact|personne de contact|interlocuteur|courriel|téléphone",
			es: "contacto|persona de contacto|correo|teléfono",
			it: "contatto|referente|persona di contatto|telefono",
			pt: "contacto|contato|pessoa de contacto|telefone",
			pl: "kontakt|osoba do kontaktu|osoba kontaktowa|telefon",
			cs: "kontakt|kontaktní osoba|telefon",
			sk: "kontakt|kontaktná osoba",
			sl: "kontakt|kontaktna oseba",
			hr: "kontakt|osoba za kontakt",
			ro: "contact|persoana de contact|persoană de contact|telefon",
			el: "επικοινωνία|υπεύθυνος επικοινωνίας|τηλέφωνο",
			fi: "yhteyshenkilö|yhteystiedot|yhteys",
			et: "kontakt|kontaktisik",
			lv: "kontaktpersona|kontakti",
			lt: "kontaktinis asmuo|kontaktai",
			hu: "kapcsolattartó|kapcsolat",
			bg: "лице за контакт|контакт",
		},
	},
	{
		name: "buyer",
		topic: "the buyer",
		rank: 6,
		fields: ["buyer"],
		words: {
			en: "buyer|purchaser|who is buying|who buys|who is purchasing|contracting authority|contracting entity|issuing body|which department|which agency",
			no: "oppdragsgiver|innkjøper|kjøper",
			da: "ordregiver|indkøber|køber",
			sv: "upphandlande myndighet|köpare|beställare",
			de: "auftraggeber|öffentlicher auftraggeber|vergabestelle|käufer|beschaffer",
			nl: "aanbestedende dienst|opdrachtgever|koper",
			fr: "acheteur|pouvoir adjudicateur|entité adjudicatrice|organisme acheteur",
			es: "comprador|entidad contratante|órgano de contratación|convocante|convoca|poder adjudicador",
			it: "stazione appaltante|amministrazione aggiudicatrice|committente|ente appaltante|ente aggiudicatore|amministrazione appaltante",
			pt: "entidade adjudicante|comprador",
			pl: "zamawiający|zamawiającego",
			cs: "zadavatel",
			sk: "verejný obstarávateľ",
			sl: "naročnik",
			hr: "naručitelj",
			ro: "autoritatea contractantă|cumpărător|achizitor",
			el: "αναθέτουσα αρχή|αγοραστής",
			fi: "hankintayksikkö|tilaaja|ostaja",
			et: "hankija",
			lv: "pasūtītājs",
			lt: "perkančioji organizacija",
			hu: "ajánlatkérő",
			bg: "възложител",
		},
	},
	{
		name: "documents",
		topic: "the tender documents",
		rank: 7,
		fields: ["documents"],
		words: {
			en: "document|documents|documentation|tender documents|download|downloaded",
			no: "dokument|dokumenter|konkurransegrunnlag|vedlegg|konkurransedokumenter",
			da: "dokument|dokumenter|udbudsmateriale|udbudsbetingelser",
			sv: "dokument|upphandlingsdokument|förfrågningsunderlag",
			de: "unterlagen|vergabeunterlagen|dokumente|ausschreibungsunterlagen",
			nl: "documenten|aanbestedingsstukken|aanbestedingsdocumenten|bestek",
			fr: "documents|dossier de consultation|cahier des charges|dossier",
			es: "documentos|pliego|pliegos|bases|documentación",
			it: "documenti|documentazione|capitolato|disciplinare",
			pt: "documentos|caderno de encargos",
			pl: "dokumenty|dokumentacja|swz|siwz",
			cs: "dokumenty|zadávací dokumentace",
			sk: "dokumenty|súťažné podklady",
			sl: "dokumentacija",
			hr: "dokumentacija",
			ro: "documente|documentație|documentația|caiet de sarcini",
			el: "έγγραφα|τεύχη|διακήρυξη",
			fi: "asiakirjat|tarjouspyyntö|liitteet",
			et: "dokumendid|hankedokumendid",
			lv: "dokumenti|nolikums",
			lt: "dokumentai",
			hu: "dokumentumok|közbeszerzési dokumentumok",
			bg: "документи|документация",
		},
	},
	{
		// "Where can I find more information": a link, an address to write to, a number to call.
		name: "information",
		topic: "where more information is",
		rank: 7,
		kinds: ["url", "email", "phone"],
		words: {
			en: "more information|further information|further details|more details|additional information",
			no: "mer informasjon|ytterligere informasjon|nærmere informasjon",
			da: "mere information|yderligere information|nærmere oplysninger",
			sv: "mer information|ytterligare information",
			de: "weitere informationen|nähere informationen|mehr informationen",
			nl: "meer informatie|nadere informatie",
			fr: "plus d'informations|informations complémentaires|renseignements complémentaires",
			es: "más información|información adicional",
			it: "maggiori informazioni|ulteriori informazioni",
			pt: "mais informações|informações adicionais",
			pl: "więcej informacji|dodatkowe informacje",
			ro: "mai multe informații|informații suplimentare",
			el: "περισσότερες πληροφορίες",
			fi: "lisätietoja",
			et: "lisainfo|täiendav teave",
		},
	},
	{
		name: "reference",
		topic: "a reference number",
		rank: 7,
		fields: ["reference"],
		words: {
			en: "solicitation number|reference|reference number|notice number|invitation number|tender number|file number|rfp number|rfq number|identifier",
			no: "referanse|referansenummer|saksnummer|anskaffelsesnummer",
			da: "referencenummer|sagsnummer|reference",
			sv: "diarienummer|referens|referensnummer|upphandlingsnummer",
			de: "aktenzeichen|vergabenummer|referenz|referenznummer|kennung",
			nl: "referentie|kenmerk|referentienummer",
			fr: "référence|numéro de l'invitation|numéro de référence|numéro",
			es: "número de expediente|expediente|referencia|número de referencia",
			it: "riferimento|numero di riferimento|cig",
			pt: "referência|número de referência",
			pl: "znak sprawy|numer referencyjny|numer postępowania",
			cs: "evidenční číslo|spisová značka",
			sk: "číslo",
			sl: "številka|številka zadeve",
			hr: "broj|evidencijski broj",
			ro: "număr de referință|referință|număr",
			el: "αριθμός αναφοράς|αριθμός",
			fi: "viitenumero|diaarinumero|viite",
			et: "viitenumber|viitetähis",
			lv: "identifikācijas numurs",
			lt: "numeris",
			hu: "azonosító",
			bg: "номер",
		},
	},
	{
		name: "codes",
		topic: "a classification code",
		rank: 7,
		fields: ["codes"],
		words: {
			en: "code|codes|commodity code|classification|cpv|gsin|naics|psc|unspsc|category",
			no: "kode|cpv-kode|klassifisering",
			da: "kode|cpv-kode",
			sv: "kod|cpv-kod",
			de: "code|cpv-code|klassifikation",
			nl: "code|cpv-code",
			fr: "code|code cpv|classification",
			es: "código|códigos|clasificación",
			it: "codice|codici|classificazione",
			pl: "kod|kody|klasyfikacja",
			ro: "cod|coduri|clasificare",
			el: "κωδικός|κωδικοί",
			fi: "koodi|cpv-koodi",
			et: "kood|cpv-kood",
		},
	},
	{
		name: "duration",
		topic: "the contract period",
		rank: 7,
		kinds: ["duration"],
		words: {
			en: "how long|duration|contract period|period|term|length|last|lasts",
			no: "hvor lang|hvor lenge|varighet|avtaleperiode|periode|kontraktsperiode|avtaletid",
			da: "hvor lang|hvor længe|varighed|aftaleperiode|periode|løbetid",
			sv: "hur lång|hur länge|löptid|avtalsperiod|avtalstid|period",
			de: "wie lange|laufzeit|dauer|zeitraum|vertragslaufzeit",
			nl: "hoe lang|looptijd|duur|periode|contractduur",
			fr: "durée|combien de temps|période",
			es: "duración|período|periodo|vigencia|cuánto dura|cuánto tiempo",
			it: "durata|periodo|quanto dura|quanto durano|quanto tempo",
			pt: "duração|período|vigência|quanto tempo|quanto dura",
			pl: "jak długo|czas trwania|okres|okres obowiązywania|związany ofertą",
			cs: "doba|doba trvání|trvání",
			sk: "doba trvania|trvanie",
			sl: "trajanje|obdobje",
			hr: "trajanje|razdoblje",
			ro: "durata|durată|perioada|perioadă",
			el: "διάρκεια|χρονικό διάστημα",
			fi: "kesto|sopimuskausi|sopimuskauden",
			et: "kestus|periood|lepingu kestus|kui kaua|kui pika aja|kui pikk",
			lv: "ilgums|termiņš",
			lt: "trukmė",
			hu: "időtartam|futamidő",
			bg: "продължителност|срок на договора",
		},
	},
	{
		name: "start",
		topic: "a start date",
		rank: 7,
		kinds: ["date"],
		words: {
			en: "start|starts|begin|begins|commence|commencement|start date",
			no: "oppstart|start|begynne|gjelde|fra når",
			da: "start|opstart|begynde",
			sv: "start|börja|påbörjas",
			de: "beginn|start|beginnen",
			nl: "start|aanvang|begin",
			fr: "début|démarrage|commencer",
			es: "inicio|comienzo|comenzar|iniciar",
			it: "inizio|avvio|decorrenza",
			pl: "rozpoczęcie|początek|rozpocznie",
			ro: "începere|început|demarare",
			el: "έναρξη",
			fi: "alkaa|aloitus|alkamispäivä",
			et: "algus|algab",
		},
	},
	{
		name: "option",
		topic: "options or extensions",
		rank: 7,
		cueRequired: true,
		words: {
			en: "option|options|extend|extension|extensions|renew|renewal|prolong",
			no: "opsjon|opsjoner|forlengelse|forlenge",
			da: "option|optioner|forlængelse|forlænge",
			sv: "option|optioner|förlängning|förlänga",
			de: "option|optionen|verlängerung|verlängerungsmöglichkeit|verlängern",
			nl: "optie|opties|verlenging|verlengen",
			fr: "option|options|reconduction|prolongation|renouvellement",
			es: "opción|opciones|prórroga|prórrogas|prorrogar",
			it: "opzione|opzioni|proroga|rinnovo",
			pt: "opção|prorrogação|renovação",
			pl: "opcja|opcji|prawo opcji|przedłużenie",
			cs: "opce|prodloužení",
			ro: "opțiune|opțiuni|prelungire|prelungiri",
			el: "προαίρεση|δικαίωμα προαίρεσης|παράταση",
			fi: "optio|optiot|jatko|jatkokausi",
			et: "optsioon|pikendamine",
		},
	},
	{
		name: "warranty",
		topic: "warranty terms",
		rank: 9.5,
		required: true,
		cueRequired: true,
		words: {
			en: "warranty|warranties|guarantee|guaranteed",
			no: "garanti|garantitid|reklamasjonsrett",
			da: "garanti|garantiperiode",
			sv: "garanti|garantitid",
			de: "garantie|gewährleistung",
			nl: "garantie",
			fr: "garantie",
			es: "garantía",
			it: "garanzia",
			pt: "garantia",
			pl: "gwarancja|gwarancji|rękojmia",
			cs: "záruka|záruční",
			sk: "záruka",
			sl: "garancija",
			hr: "jamstvo",
			ro: "garanție|garanţie|garanția|garanţia",
			el: "εγγύηση",
			fi: "takuu",
			et: "garantii",
			lv: "garantija",
			lt: "garantija",
			hu: "jótállás|garancia",
			bg: "гаранция",
		},
	},
	{
		name: "security",
		topic: "a bid bond or tender security",
		rank: 9.5,
		kinds: ["money"],
		cueRequired: true,
		words: {
			en: "bid bond|bid security|tender security|tender guarantee|deposit|bond|bonds|performance bond|payment bond",
			no: "tilbudsgaranti|sikkerhetsstillelse",
			de: "sicherheitsleistung|bietersicherheit",
			fr: "garantie de soumission|cautionnement",
			es: "garantía de seriedad|garantía de mantenimiento de oferta",
			it: "garanzia provvisoria|cauzione",
			pl: "wadium|wadium",
			ro: "garanție de participare",
		},
	},
	{
		name: "certification",
		topic: "a certification or compliance requirement",
		rank: 9.5,
		kinds: ["standard", "name"],
		required: true,
		cueRequired: true,
		words: {
			en: "certification|certificate|certified|certifications|accreditation|accredited|?compliance|?compliant|?comply|?complies|?comply with|?conform|?conforms|conformant|iso",
			no: "sertifisering|sertifikat|sertifisert|standard|godkjenning",
			da: "certificering|certifikat|certificeret|standard",
			sv: "certifiering|certifikat|certifierad|standard",
			de: "zertifizierung|zertifikat|zertifiziert|norm|normen|akkreditierung",
			nl: "certificering|certificaat|gecertificeerd|norm",
			fr: "certification|certificat|certifié|norme|normes|accréditation",
			es: "certificación|certificado|certificada|norma|normas|acreditación",
			it: "certificazione|certificato|norma|norme|accreditamento",
			pt: "certificação|certificado|norma",
			pl: "certyfikat|certyfikacja|norma|normy",
			cs: "certifikace|certifikát|norma",
			ro: "certificare|certificat|standard",
			el: "πιστοποίηση|πιστοποιητικό|πρότυπο",
			fi: "sertifiointi|sertifikaatti|standardi",
			et: "sertifikaat|sertifitseerimine|standard",
		},
	},
	{
		name: "equivalent",
		topic: "whether equivalents are accepted",
		rank: 9.5,
		cueRequired: true,
		words: {
			en: "equivalent|equivalents|or equal|alternative|alternatives|substitute|substitutes|substitution|substitutions|other brands|other manufacturers|other than|another brand|another make|another model|other models|other model|other makes",
			no: "likeverdig|tilsvarende|alternativ|alternative tilbud",
			da: "tilsvarende|ligeværdig|alternativ",
			sv: "likvärdig|motsvarande|alternativ",
			de: "gleichwertig|gleichwertige|gleichartig|alternativ|nebenangebot",
			nl: "gelijkwaardig|gelijkwaardige|alternatief|variant",
			fr: "équivalent|équivalente|équivalents|variante|variantes",
			es: "equivalente|equivalentes|variante|alternativa",
			it: "equivalente|equivalenti|variante|varianti",
			pt: "equivalente|variante",
			pl: "równoważny|równoważne|równoważnych|oferty wariantowe",
			cs: "rovnocenný|rovnocenné|varianta",
			sk: "rovnocenný|ekvivalentný",
			sl: "enakovreden|enakovredno|enakovredne|enakovredni|enakovredna",
			hr: "jednakovrijedan|jednakovrijedno",
			ro: "echivalent|echivalentul|echivalente|variantă",
			el: "ισοδύναμο|ισοδύναμα|εναλλακτικές",
			fi: "vastaava|vastaavat|vaihtoehtoinen",
			et: "samaväärne|samaväärsed|alternatiiv",
			lv: "līdzvērtīgs",
			lt: "lygiavertis",
			hu: "egyenértékű",
			bg: "еквивалентен|еквивалент",
		},
	},
	{
		name: "submission",
		topic: "how or where to submit",
		rank: 7,
		cueRequired: true,
		words: {
			en: "submit|submitted|submission|lodge|lodged|portal|website|web site|online|e-tendering|electronically|send|sent|how to bid|upload|envelope|in person",
			no: "levere|leveres|innlevering|sende|sendes|portal|elektronisk|kommunikasjonsmodul",
			da: "aflevere|afgive|indsende|portal|elektronisk",
			sv: "lämna|lämnas|skicka|inlämning|portal|elektroniskt",
			de: "einreichen|einreichung|abgeben|abgabe|eingehen|übermitteln|plattform|elektronisch",
			nl: "indienen|inschrijven|platform|elektronisch",
			fr: "remise|remettre|déposer|dépôt|soumettre|transmettre|plateforme|électronique",
			es: "presentar|presentación|presentarse|enviar|plataforma|electrónica|sobre",
			it: "presentazione|presentare|inviare|piattaforma|telematica",
			pt: "apresentar|apresentação|submeter|plataforma",
			pl: "składanie|składać|złożyć|przesłać|platforma|elektroniczna",
			cs: "podání|podat|podávání|elektronicky",
			sk: "predloženie|predložiť",
			sl: "oddati|oddaja|predložiti",
			hr: "dostaviti|dostava ponuda",
			ro: "depunere|depunerea|depune|transmitere|platforma",
			el: "υποβολή|υποβολής|υποβάλλονται",
			fi: "jättää|jätettävä|lähettää|lähetettävä|toimittaa",
			et: "esitamine|esitamise|esitada|esitatakse",
			lv: "iesniegt|iesniegšana",
			lt: "pateikti|pateikimas",
			hu: "benyújtás|benyújtani",
			bg: "подаване|подават",
		},
	},
	{
		name: "eligibility",
		topic: "a set-aside or other restriction on who may bid",
		rank: 7,
		fields: ["eligibility"],
		words: {
			en: "set-aside|set aside|set-asides|small business|small businesses|eligible|eligibility|who may bid|who can bid|who may tender|who can tender|who may apply|who can apply|who may participate|reserved|restricted to|full and open|unrestricted|open to all|shortlisted|prequalified|pre-qualified|prequalification",
			no: "reservert|forbeholdt|kvalifikasjonskrav|prekvalifisert|hvem kan gi tilbud|hvem kan delta",
			da: "forbeholdt|reserveret|egnethed|prækvalificeret|hvem kan byde",
			sv: "reserverad|kvalificeringskrav|vem kan lämna anbud",
			de: "vorbehalten|eignung|teilnahmebedingungen|wer darf|wer kann teilnehmen",
			nl: "voorbehouden|geschiktheid|wie mag inschrijven",
			fr: "réservé|réservée|éligible|conditions de participation|qui peut soumissionner|qui peut participer",
			es: "reservado|reservada|requisitos de participación|quién puede participar|quién puede presentar",
			it: "riservato|riservata|requisiti di partecipazione|chi può partecipare",
			pl: "zastrzeżone|warunki udziału|kto może",
			ro: "rezervat|condiții de participare|cine poate participa",
		},
	},
	{
		name: "incumbent",
		topic: "the current or incumbent arrangement",
		rank: 10,
		required: true,
		cueRequired: true,
		words: {
			en: "incumbent|?current|?today|?at present|?right now|current supplier|current contractor|current provider|current vendor|=currently|existing contract|existing supplier|previous contract|previous supplier|=presently|being replaced|to be replaced|=replace|=replaces|=replacing|installed base|in use",
			no: "nåværende|eksisterende leverandør|dagens leverandør",
			da: "nuværende|eksisterende leverandør",
			sv: "nuvarande|befintlig leverantör",
			de: "derzeitig|bisherig|aktueller auftragnehmer|bestehender vertrag",
			nl: "huidige|zittende leverancier",
			fr: "titulaire actuel|actuel|prestataire actuel",
			es: "actual|adjudicatario actual|proveedor actual",
			it: "attuale|gestore uscente|uscente",
			pl: "obecny|dotychczasowy wykonawca",
			ro: "actual|furnizorul actual",
		},
	},
	{
		name: "site_visit",
		topic: "a site visit or pre-bid conference",
		rank: 10,
		required: true,
		cueRequired: true,
		words: {
			en: "site visit|site visits|site inspection|walkthrough|walk-through|pre-bid|pre-proposal|pre-bid conference|bidders conference|industry day",
			no: "befaring|tilbudskonferanse|dialogmøte",
			da: "besigtigelse|informationsmøde",
			sv: "platsbesök|visning|anbudsgenomgång",
			de: "ortsbesichtigung|besichtigung|begehung|bieterkonferenz",
			nl: "locatiebezoek|schouw|informatiesessie",
			fr: "visite|visite de site|visite des lieux",
			es: "visita|visita de obra|visita técnica",
			it: "sopralluogo",
			pl: "wizja lokalna",
			ro: "vizită|vizitarea amplasamentului",
			el: "αυτοψία",
			fi: "tutustumiskäynti|katselmus",
			et: "objekti ülevaatus",
		},
	},
	{
		name: "delivery_time",
		topic: "a delivery time",
		rank: 8,
		kinds: ["duration", "date"],
		words: {
			en: "delivery time|delivery period|lead time|how soon|deliver within|delivery date",
			no: "leveringstid|leveringsfrist",
			da: "leveringstid",
			sv: "leveranstid",
			de: "lieferzeit|lieferfrist|liefertermin",
			nl: "levertijd|leveringstermijn",
			fr: "délai de livraison",
			es: "plazo de entrega|tiempo de entrega",
			it: "tempi di consegna|termine di consegna",
			pt: "prazo de entrega",
			pl: "termin dostawy|czas dostawy",
			ro: "termen de livrare",
			el: "χρόνος παράδοσης",
		},
	},
	{
		name: "model",
		topic: "a make, model or part number",
		rank: 7,
		noCompounds: true,
		kinds: ["model", "name"],
		required: true,
		cueRequired: true,
		words: {
			en: "model|model number|brand|brand name|make|part number|catalog number|catalogue number|pn|p/n|nsn",
			no: "modell|merke|fabrikat|typebetegnelse",
			da: "model|mærke|fabrikat",
			sv: "modell|märke|fabrikat",
			de: "modell|marke|fabrikat|typ|teilenummer|typenbezeichnung",
			nl: "model|merk|type",
			fr: "modèle|marque|référence du fabricant",
			es: "modelo|marca",
			it: "modello|marca",
			pt: "modelo|marca",
			pl: "model|marka|typ",
			cs: "model|značka",
			sl: "model|znamka",
			ro: "model|marcă|marca|tip",
			el: "μοντέλο|μάρκα",
			fi: "malli|merkki",
			et: "mudel|mark",
		},
	},
	{
		// "Which manufacturer", "the name of the contractor": the answer names someone new.
		name: "name",
		topic: "the name you ask about",
		rank: 8,
		kinds: ["name"],
		required: true,
		words: {
			en: "name|names|name of|which company|which firm|which vendor|which supplier|which contractor|which manufacturer|what company|manufacturer|who makes|who manufactures|who supplies",
			no: "navn|hvilket firma|hvilken leverandør|produsent",
			da: "navn|hvilket firma|producent",
			sv: "namn|vilket företag|tillverkare",
			de: "name|welche firma|welcher hersteller|hersteller",
			nl: "naam|welk bedrijf|fabrikant",
			fr: "nom|quelle entreprise|quel fabricant|fabricant",
			es: "nombre|qué empresa|qué fabricante|fabricante",
			it: "nome|quale ditta|quale produttore|produttore",
			pl: "nazwa|jaka firma|producent",
			ro: "nume|numele|ce firmă|producător",
			el: "όνομα|ποια εταιρεία|κατασκευαστής",
			fi: "nimi|mikä yritys|valmistaja",
			et: "nimi|milline ettevõte|tootja",
		},
	},
	{
		// Only qualifies others: "who" + questions or sending is the contact.
		name: "who",
		topic: "who that is",
		rank: 1,
		kinds: ["agent", "name", "email", "phone"],
		words: {
			en: "who",
			no: "hvem",
			da: "hvem",
			sv: "vem",
			de: "wer|wem",
			nl: "wie",
			fr: "qui",
			es: "quién|quiénes|a quién",
			it: "chi|a chi",
			pt: "quem",
			pl: "kto|komu|do kogo",
			cs: "kdo|komu",
			sl: "kdo|komu",
			ro: "cine|cui",
			el: "ποιος|ποια|ποιον|σε ποιον",
			fi: "kuka|kenelle",
			et: "kes|kellele",
		},
	},
	{
		name: "when",
		topic: "the date you ask about",
		rank: 4,
		kinds: ["date", "time", "duration"],
		words: {
			en: "when|what date|which date|by when|until when",
			no: "når|hvilken dato|innen når",
			da: "hvornår|hvilken dato",
			sv: "när|vilket datum",
			de: "wann|bis wann|an welchem tag|welches datum",
			nl: "wanneer|tot wanneer|welke datum",
			fr: "quand|à quelle date|jusqu'à quand",
			es: "cuándo|hasta cuándo|qué fecha",
			it: "quando|entro quando|in che data",
			pt: "quando|até quando",
			pl: "kiedy|do kiedy|jaka data",
			cs: "kdy|do kdy",
			sk: "kedy|do kedy",
			sl: "kdaj|do kdaj",
			hr: "kada|do kada",
			ro: "când|până când|ce dată",
			el: "πότε|μέχρι πότε",
			fi: "milloin|mihin mennessä|mennessä",
			et: "millal|mis ajaks|milleks",
			lv: "kad|līdz kuram",
			lt: "kada|iki kada",
			hu: "mikor|meddig",
			bg: "кога|до кога",
		},
	},
	{
		name: "offer",
		topic: "tenders",
		rank: 0,
		words: {
			en: "bid|bids|tender|tenders|offer|offers|quote|quotes|quotation|proposal|proposals|response|responses|application|applications",
			no: "tilbud|anbud|søknad|tilbudet|tilbudene",
			da: "tilbud|ansøgning|bud",
			sv: "anbud|ansökan|anbudet",
			de: "angebot|angebote|teilnahmeantrag|bewerbung",
			nl: "offerte|offertes|inschrijving|aanbieding",
			fr: "offre|offres|candidature|soumission",
			es: "oferta|ofertas|propuesta|propuestas",
			it: "offerta|offerte|domanda di partecipazione",
			pt: "proposta|propostas",
			pl: "oferta|oferty|ofert|wniosek",
			cs: "nabídka|nabídky|nabídek",
			sk: "ponuka|ponuky",
			sl: "ponudba|ponudbe",
			hr: "ponuda|ponude",
			ro: "ofertă|oferta|ofertelor|oferte",
			el: "προσφορά|προσφορές|προσφορών",
			fi: "tarjous|tarjoukset|tarjousten|hakemus",
			et: "pakkumus|pakkumused|pakkumuste",
			lv: "piedāvājums|piedāvājumi",
			lt: "pasiūlymas|pasiūlymai",
			hu: "ajánlat|ajánlatok",
			bg: "оферта|оферти",
		},
	},
	{
		name: "scope",
		topic: "what is bought",
		rank: 2,
		words: {
			en: "purpose|scope|subject|cover|covers|include|includes|consist|consists|aim|goal|used for|use|uses|intended for|for whom",
			no: "formål|omfatter|omfang|inkluderer|består|brukes til|for hvem",
			da: "formål|omfatter|omfang|bruges til|for hvem",
			sv: "syfte|omfattar|omfattning|används till|för vem",
			de: "gegenstand|umfang|umfasst|zweck|für wen|verwendet",
			nl: "doel|omvang|omvat|voorwerp|voor wie|gebruikt voor",
			fr: "objet|porte sur|comprend|périmètre|pour qui|utilisé pour",
			es: "objeto|incluye|comprende|alcance|para quién|para qué",
			it: "oggetto|comprende|include|per chi|a cosa serve",
			pl: "przedmiot|obejmuje|zakres|cel|dla kogo",
			ro: "obiect|include|cuprinde|scop",
			el: "αντικείμενο|περιλαμβάνει",
			fi: "kohde|sisältää|tarkoitus",
			et: "ese|hõlmab|eesmärk",
		},
	},
	{
		// Words that frame a question rather than name its subject: never required in the answer.
		name: "frame",
		topic: "",
		rank: 0,
		words: {
			en: "buy|bought|purchase|purchased|procure|procured|acquire|acquired|need|needed|require|required|requires|want|wanted|intend|plan|exact|exactly|specific|kind|kinds|type|notice|solicitation|opportunity|possible|allowed|mention|state|stated|tell|know|carry|carries|apply|applies|hold|holds|meet|meets|must|have|has|get|made|will|would|shall|should|can|could|may|might|accept|accepted|acceptable|permitted|considered|per|so|nor|not|no|yes|does|whom|whose|why|its|us|every|just|off|via|during|either|neither|whether|if|expected|anticipated|approximately|approx|roughly|around|least|minimum|maximum|find|obtain|thanks|thank|ok|okay|great|cool|hello|hi|sure|please|reach|reaches|achieve|achieves|attain|refer|refers|relate|relates|concern|concerns|regarding",
			no: "kjøpe|kjøpes|anskaffe|anskaffes|anskaffelse|trenger|behov|ønsker|kreves|krav|mulig|kunngjøring|skal|hvilken|hvilke|hvilket|hva|nye|ny|nytt|planlagt|planlagte|planlegges|må|bør|kan|takk|ok",
			da: "købe|anskaffe|behov|ønsker|kræves|mulig|udbud|bekendtgørelse|hvilken|hvilke|hvilket|hvad",
			sv: "köpa|upphandla|behov|önskar|krävs|möjligt|upphandling|annons|vilken|vilka|vilket|vad",
			de: "kaufen|beschaffen|beschafft|benötigt|brauchen|erforderlich|gefordert|möglich|bekanntmachung|ausschreibung|welche|welcher|welches|was",
			nl: "kopen|aankopen|aangekocht|gekocht|aanschaffen|aangeschaft|verwerven|verworven|nodig|vereist|mogelijk|aankondiging|welke|wat|wordt|worden|werd|zijn",
			fr: "acheter|acquérir|acquis|besoin|exigé|exigée|requis|possible|avis|quel|quelle|quels|quelles",
			es: "comprar|compran|compra|adquirir|adquieren|adquiere|necesita|requiere|requieren|exige|posible|anuncio|licitación|qué|cuál|cuáles",
			it: "acquistare|acquisto|necessario|richiesto|richiesta|possibile|bando|gara|quale|quali|previsto|prevista|previsti|previste|prevede",
			pt: "comprar|adquirir|necessário|exigido|possível|anúncio",
			pl: "kupić|zakupić|zakup|potrzebne|wymagane|wymagany|możliwe|należy|zostanie|zamówienie|jaki|jaka|jakie|który|która|które|którego|odnosi|dotyczy|przewidziano|zostać|zostanie|zostało|będzie|ma|mają",
			cs: "koupit|nakoupit|potřeba|požadováno|možné|zakázka|jaký|jaká|jaké|který|která",
			sl: "kupiti|potrebno|zahtevano|treba|mogoče|naročilo|kateri|katera|katere|kaj",
			ro: "cumpăra|achiziționa|achiziția|necesar|cer|cerut|solicitat|posibil|anunț|care|ce",
			el: "αγορά|προμηθευτούν|προμήθεια|απαιτείται|χρειάζεται|δυνατό|προκήρυξη|ποιος|ποια|ποιο|ποιες|τι",
			fi: "ostaa|hankkia|hankinta|hankinnan|tarvitaan|vaaditaan|mahdollista|ilmoitus|mikä|mitkä|millainen|mitä",
			et: "osta|hankida|hange|vaja|nõutud|võimalik|teade|milline|millise|millisele|millised|mis|missugune|tuleb|peab|tuleks|jooksul",
		},
	},
];

export const CONCEPT_BY_NAME = new Map(CONCEPTS.map((c) => [c.name, c]));

/** Languages whose nouns compound: a concept word may end or begin a longer word ("tilbudsfrist"). */
const COMPOUNDING = new Set<TextLanguage>(["de", "nl", "no", "da", "sv", "fi", "et", "hu"]);
/** A concept word found at the end of a longer word (its head: "enimmäisarvo") needs this many letters; at its start, one more. */
const MIN_COMPOUND_PART = 4;

interface Phrase {
	concept: ConceptName;
	stems: string[];
	/** "?word": read in questions only ("the current supplier" asks for the incumbent; "a current licence" in a notice is no answer). */
	questionOnly: boolean;
}
interface LanguageIndex {
	/** Phrases by their first stem. */
	byFirst: Map<string, Phrase[]>;
	/** One-word phrases long enough to be found inside compounds. */
	parts: Phrase[];
}

const indexes = new Map<TextLanguage, LanguageIndex>();

function indexFor(lang: TextLanguage): LanguageIndex {
	let idx = indexes.get(lang);
	if (idx) return idx;
	idx = { byFirst: new Map(), parts: [] };
	for (const c of CONCEPTS) {
		const list = c.words[lang];
		if (!list) continue;
		for (const phrase of list.split("|")) {
			// "=word": that word form only ("currently", whose stem "current" also means "valid").
			const questionOnly = phrase.startsWith("?");
			const plain = phrase.replace(/^\?/, "");
			const exact = new Set(plain.split(/\s+/).filter((w) => w.startsWith("=")).map((w) => w.slice(1).toLowerCase()));
			const stems = tokensOf(plain.replace(/=/g, ""), lang).map((t) => (exact.has(t.word) ? `=${t.folded}` : t.stem));
			if (!stems.length) continue;
			const p = { concept: c.name, stems, questionOnly };
			const first = stems[0]!.replace(/^=/, "");
			const at = idx.byFirst.get(first) ?? [];
			at.push(p);
			idx.byFirst.set(first, at);
			if (stems.length === 1 && !c.noCompounds && !stems[0]!.startsWith("=") && COMPOUNDING.has(lang) && stems[0]!.length >= MIN_COMPOUND_PART) idx.parts.push(p);
		}
	}
	for (const list of idx.byFirst.values()) list.sort((a, b) => b.stems.length - a.stems.length);
	indexes.set(lang, idx);
	return idx;
}

const matches = (s: string, t: Token | undefined, inner: boolean) => !!t && (s.startsWith("=") ? t.folded === s.slice(1) : t.stem === s || (inner && t.folded === s));

/** How many tokens a phrase covers at position i (one other word may sit inside it: "związany złożoną ofertą"), or 0. */
function phraseAt(stems: string[], toks: Token[], i: number, allowGap: boolean): number {
	let k = i;
	let gaps = 0;
	for (let j = 0; j < stems.length; j++, k++) {
		if (matches(stems[j]!, toks[k], j > 0)) continue;
		if (allowGap && j > 0 && gaps === 0 && matches(stems[j]!, toks[k + 1], true)) {
			gaps++;
			k++;
			continue;
		}
		return 0;
	}
	return k - i;
}

export interface ConceptHit {
	concept: ConceptName;
	/** The stems of the words that named it. */
	stems: string[];
	/** Found inside a longer word ("behandlingssted"): that word still names the subject too. */
	compound: boolean;
	/** Token positions the concept's words cover. */
	from: number;
	to: number;
}

/**
 * The concepts named in a text, read with the glossary of each given language (the text's stems
 * in that language against its words). Longer phrases win over shorter ones at the same place
 * ("how many" is a quantity, not a place: "hvor mange" is not "hvor").
 */
export function conceptsIn(text: string, langs: readonly TextLanguage[], question = false): { hits: ConceptHit[]; tokens: Token[] } {
	let tokens: Token[] = [];
	const hits: ConceptHit[] = [];
	for (const lang of new Set(langs)) {
		const idx = indexFor(lang);
		const toks = tokensOf(text, lang);
		if (!tokens.length) tokens = toks;
		for (let i = 0; i < toks.length; i++) {
			const stem = toks[i]!.stem;
			let found: Phrase | undefined;
			let compound = false;
			let span = 0;
			for (const p of [...(idx.byFirst.get(stem) ?? []), ...(toks[i]!.folded !== stem ? (idx.byFirst.get(toks[i]!.folded) ?? []) : [])]) {
				if (p.questionOnly && !question) continue;
				// Questions are short and exact; notices may put a word inside a phrase.
				span = phraseAt(p.stems, toks, i, !question);
				if (span) {
					found = p;
					break;
				}
			}
			if (!found && stem.length > MIN_COMPOUND_PART) {
				compound = true;
				found = idx.parts.find(
					(p) => (question || !p.questionOnly) && stem !== p.stems[0] && (stem.endsWith(p.stems[0]!) || (p.stems[0]!.length > MIN_COMPOUND_PART && stem.startsWith(p.stems[0]!))),
				);
			}
			if (found) hits.push({ concept: found.concept, from: i, to: i + Math.max(span, 1) - 1, stems: toks.slice(i, i + Math.max(span, 1)).map((t) => t.stem), compound });
		}
	}
	// Overlaps: the longer phrase keeps its words.
	hits.sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
	const taken = new Set<number>();
	const kept: ConceptHit[] = [];
	for (const h of hits) {
		const span = Array.from({ length: h.to - h.from + 1 }, (_, k) => h.from + k);
		if (span.some((k) => taken.has(k)) && h.to > h.from) continue;
		if (span.every((k) => taken.has(k))) continue;
		span.forEach((k) => taken.add(k));
		kept.push(h);
	}
	return { hits: kept.sort((a, b) => a.from - b.from), tokens };
}

/** Whether a word (folded stem) is one of a concept's one-word names in these languages. */
export function isConceptWord(stem: string, concept: ConceptName, langs: readonly TextLanguage[]): boolean {
	return langs.some((l) => (indexFor(l).byFirst.get(stem) ?? []).some((p) => p.concept === concept && p.stems.length === 1));
}

/** The folded stem of a word in a language (the glossary's and retrieval's unit). */
export const termOf = (word: string, lang: TextLanguage) => foldOf(stemOf(word.toLowerCase(), lang));
