"""Clause concepts in plain words, in English and Italian: what a question asks about ("which
law governs it", "quale tribunale è competente", "how long does it last") mapped to the words
clause headings use for it in both languages ("Governing law", "Legge applicabile", "Durata").

A question that names no clause by number still names its topic; the heading of the clause that
answers it says that topic in a lawyer's words, often in the other language. `concepts_in`
finds the topics of a question and `title_terms` gives the heading words to look for (both
languages), which the query side matches against clause titles and heading paths (see
`search.query.bodies.title_query`). Pure data and regular expressions: no I/O, no model.

The table is general legal vocabulary (contracts, NDAs, statutes, privacy notices), written from
the usual clause names of English and Italian contracts, not from any evaluation question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Concept:
    name: str
    triggers: re.Pattern        # plain-words phrasing in a question (English or Italian)
    headings: tuple[str, ...]   # how clause headings name it, English and Italian


def _concept(name: str, triggers: str, headings: str) -> Concept:
    return Concept(name, re.compile(triggers, re.IGNORECASE), tuple(h.strip() for h in headings.split(";")))


CONCEPTS: tuple[Concept, ...] = (
    _concept("governing_law",
             r"\b(?:govern(?:s|ed|ing)?\b|governing law|which law|what law|applicable law|law (?:of|that) appl"
             r"|legal system|legge (?:applicabile|regolatrice)|quale legge|diritto applicabile|regola(?:to)? da"
             r"|legge (?:italiana|inglese|olandese|scozzese|britannica))",
             "governing law; applicable law; choice of law; legge applicabile; diritto applicabile"),
    _concept("jurisdiction",
             r"\b(?:court|courts|judges?|jurisdiction|forum|tribunal|dispute|disputes|litigat\w*|sue\b|su(?:ed|ing)\b"
             r"|arbitrat\w*|mediation|foro|tribunale|giudic[ei]|competen[tz]\w*|controversi\w*|lite\b|arbitrato"
             r"|mediazione)",
             "jurisdiction; dispute resolution; courts; arbitration; foro competente; foro; controversie; "
             "risoluzione delle controversie"),
    _concept("term",
             r"\b(?:how long|duration|term\b|last(?:s|ing)?\b|expir\w*|run out|renew\w*|in force|survive\w*"
             r"|surviv\w*|quanto dura|durata|dura\b|scadenza|scade\w*|rinnov\w*|sopravviv\w*|per quant[oi])",
             "term; duration; commencement and duration; survival; durata; durata e rinnovo; decorrenza"),
    _concept("termination",
             r"\b(?:terminat\w*|cancel\w*|end (?:the|it|this|our)|get out of|walk away|withdraw\w*|rescind\w*"
             r"|dissolv\w*|sciogliere|recede\w*|recesso|risolu\w*|risolver\w*|disdett\w*|cessazione)",
             "termination; termination rights; consequences of termination; effects of termination; recesso; "
             "risoluzione; recesso e risoluzione; clausola risolutiva espressa; effetti della cessazione"),
    _concept("liability",
             r"\b(?:liab\w*|on the hook|cap\b|ceiling|most .{0,30}(?:pay|owe)|damages|compensat\w*|lost profits?"
             r"|loss of profits?|responsab\w*|risarci\w*|tetto|massimale|danni|lucro cessante|mancato guadagno)",
             "limitation of liability; liability; exclusion of liability; liability cap; limitazione di "
             "responsabilità; responsabilità; esclusione di responsabilità"),
    _concept("payment",
             r"\b(?:pay\w*|invoic\w*|bill\b|bills\b|fees?\b|price\w*|charges?\b|settle (?:a|an|the|our)"
             r"|royalt\w*|interest|late payment|paga\w*|fattur\w*|corrispettiv\w*|prezz\w*|canon[ei]|interessi"
             r"|royalty)",
             "fees and payment; payment; payment terms; invoicing; price; royalties; corrispettivi; "
             "pagamenti; fatturazione e pagamenti; prezzi; corrispettivi e fatturazione; canoni"),
    _concept("confidentiality",
             r"\b(?:confidential\w*|secre(?:t|cy)|disclos\w*|non-disclosure|nda\b|riservat\w*|segret\w*"
             r"|divulga\w*)",
             "confidentiality; confidentiality obligations; permitted disclosure; riservatezza; "
             "obblighi di riservatezza"),
    _concept("exceptions",
             r"\b(?:independent(?:ly)? develop\w*|on (?:its|their) own|public domain|already (?:knew|known|had)"
             r"|exception\w*|excluded information|sviluppat\w* (?:autonomamente|in modo indipendente)"
             r"|eccezion\w*|dominio pubblico)",
             "exceptions; exclusions; eccezioni; informazioni escluse"),
    _concept("return_of_materials",
             r"\b(?:give back|return\w*|destroy\w*|destruction|delete\w*|restitu\w*|distru\w*|cancell\w*)",
             "return of materials; return and destruction of materials; return of information; restituzione; "
             "restituzione e distruzione"),
    _concept("data_protection",
             r"\b(?:personal data|data protection|privacy|gdpr|data breach|personal information|dati personali"
             r"|protezione dei dati|trattamento dei dati|titolare|responsabile del trattamento|sub-?processor\w*"
             r"|processor\w*)",
             "data protection; personal data; processing of personal data; protezione dei dati personali; "
             "trattamento dei dati personali"),
    _concept("security_incident",
             r"\b(?:leak\w*|breach\w* of security|security (?:incident|breach)|unauthori[sz]ed (?:access|use)"
             r"|hack\w*|violazion\w* (?:di sicurezza|dei dati)|accesso non autorizzato)",
             "security; security incidents; notification of breach; sicurezza; violazione dei dati"),
    _concept("subcontracting",
             r"\b(?:subcontract\w*|outsourc\w*|another (?:company|firm|supplier)|third[- ]party (?:supplier|"
             r"provider)|sub-?processor\w*|subappalt\w*|subfornit\w*|altra (?:azienda|impresa|società)"
             r"|far fabbricare)",
             "subcontracting; subcontractors; sub-processors; assignment and subcontracting; subappalto; "
             "subfornitura; cessione e subfornitura"),
    _concept("suspension",
             r"\b(?:suspen\w*|cut (?:off|them off)|block (?:access|log-?ins?)|disabl\w* (?:access|accounts?)"
             r"|lock (?:out|them out)|sospen\w*|bloccare l'accesso|disattiv\w*)",
             "suspension; suspension of services; right to suspend; sospensione; sospensione dei servizi"),
    _concept("assignment",
             r"\b(?:assign\w*|transfer\w* (?:the|this|its) (?:agreement|contract)|novat\w*|cession\w*|cedere"
             r"|cessione)",
             "assignment; transfer; cessione del contratto; cessione"),
    _concept("service_levels",
             r"\b(?:uptime|availability|available|downtime|service levels?|sla\b|response times?|outage\w*"
             r"|disponibilit\w*|livelli di servizio|tempi di (?:risposta|ripristino)|irraggiungibil\w*|fuori uso)",
             "service levels; availability; service level agreement; livelli di servizio; disponibilità"),
    _concept("service_credits",
             r"\b(?:service credits?|credits?\b|crediti di servizio|credito)",
             "service credits; crediti di servizio"),
    _concept("warranty",
             r"\b(?:warrant\w*|guarantee\w*|defect\w*|fault\w*|faulty|broken|repair\w*|garanzi\w*|difett\w*"
             r"|vizi\b|guast\w*|denuncia)",
             "warranties; warranty; defects; garanzia; garanzie; vizi e difetti"),
    _concept("penalty",
             r"\b(?:penalt\w*|liquidated damages|fine[sd]?\b|late deliver\w*|deliver\w* late|arrive late"
             r"|penal[ei]|ritardo|in ritardo)",
             "penalties; liquidated damages; contractual penalty; delay; penali; penale; penali per ritardo"),
    _concept("delivery",
             r"\b(?:deliver\w*|shipping|shipment|transport\w*|carriage|risk passes|consegn\w*|trasport\w*"
             r"|spedizion\w*)",
             "delivery; delivery and risk; consegne; consegna; trasferimento del rischio"),
    _concept("audit",
             r"\b(?:audit\w*|inspect\w*|check (?:the|their|its) (?:accounts|books|records)|books and records"
             r"|verifich\w*|controll\w* (?:i|dei) conti|ispezion\w*)",
             "audit; audit rights; records and audit; verifiche; verifiche contabili; ispezioni"),
    _concept("escrow",
             r"\b(?:source code|escrow|bankrupt\w*|insolven\w*|goes bust|codice sorgente|fallimento|fallisc\w*"
             r"|insolvenz\w*)",
             "source code escrow; escrow; deposito del codice sorgente; codice sorgente"),
    _concept("license_scope",
             r"\b(?:licen[cs]e\w*|sublicen\w*|right to (?:use|run)|exclusiv\w*|licenz\w*|sublicenz\w*"
             r"|esclusiv\w*|uso del software)",
             "licence; grant of licence; scope of licence; restrictions on use; exclusivity; licenza; "
             "concessione della licenza; limitazioni d'uso; esclusiva"),
    _concept("reverse_engineering",
             r"\b(?:reverse[- ]engineer\w*|take apart|decompil\w*|disassembl\w*|analy[sz]e (?:how|the design)"
             r"|see how (?:they|it) (?:are|is) (?:built|made)|decompila\w*|smonta\w*)",
             "samples and prototypes; reverse engineering; restrictions on use; campioni e prototipi; "
             "limitazioni d'uso"),
    _concept("non_solicitation",
             r"\b(?:hire|hiring|poach\w*|solicit\w*|recruit\w*|employ (?:their|its|the other)|assumere|assunzion\w*"
             r"|storno|dipendenti)",
             "non-solicitation; non-solicitation of employees; divieto di storno; storno di dipendenti"),
    _concept("non_compete",
             r"\b(?:compet\w*|rival\w*|concorren\w*)",
             "non-competition; restrictions; restrictive covenants; non concorrenza; divieto di concorrenza"),
    _concept("indemnity",
             r"\b(?:indemn\w*|hold harmless|third[- ]party claims?|infring\w*|manleva\w*|tenere indenne"
             r"|violazione di diritti di terzi)",
             "indemnity; indemnification; intellectual property indemnity; manleva"),
    _concept("intellectual_property",
             r"\b(?:intellectual property|ip rights|owns?\b|ownership|patent\w*|copyright\w*|know-how"
             r"|proprietà intellettuale|titolarità|brevett\w*)",
             "intellectual property; ownership; proprietà intellettuale; titolarità"),
    _concept("insurance",
             r"\b(?:insur\w*|assicura\w*|polizza)",
             "insurance; assicurazione"),
    _concept("force_majeure",
             r"\b(?:force majeure|act of god|beyond (?:its|their|our) (?:reasonable )?control|forza maggiore"
             r"|caso fortuito)",
             "force majeure; forza maggiore"),
    _concept("specific_approval",
             r"\b(?:vessator\w*|(?:firmat\w*|sottoscritt\w*) due volte|doppia (?:firma|sottoscrizione)"
             r"|approva\w* specificamente|approvazione specifica|specific(?:ally)? approv\w*|approved specifically"
             r"|signed twice|second signature|double signature|onerous (?:clauses|terms)|unfair terms"
             r"|artt?\.? ?1341|1341 e 1342|1341-1342)",
             "specific approval; approvazione specifica; clausole vessatorie; approvazione specifica delle clausole; "
             "double_signature_1341"),
    _concept("notices",
             r"\b(?:notice\w*|notif\w*|address for|in writing|comunicazion\w*|notific\w*|pec\b)",
             "notices; comunicazioni"),
    _concept("definitions",
             r"\b(?:defin\w*|what (?:does|do) .{1,40} mean|meaning of|who counts as|significato|cosa si intende)",
             "definitions; definitions and interpretation; interpretation; definizioni"),
    _concept("purpose_recitals",
             r"\b(?:why\b|purpose|background|recitals?|whereas|perché|scopo|premess\w*|finalità)",
             "purpose; background; recitals; premesse; premesso che; oggetto"),
    _concept("remedies",
             r"\b(?:remed\w*|injunct\w*|specific performance|springboard|rimedi\w*|inibitori\w*|provvedimenti"
             r"|cautelar\w*)",
             "remedies; injunctive relief; equitable relief; rimedi; provvedimenti cautelari"),
    _concept("announcements",
             r"\b(?:announce\w*|publicity|press release|public statement|comunicati stampa|pubblicità)",
             "announcements; publicity; comunicati; annunci"),
    _concept("export_control",
             r"\b(?:export\w*|sanction\w*|esportazion\w*|sanzioni)",
             "export control; sanctions; controllo delle esportazioni"),
    _concept("residuals",
             r"\b(?:residual\w*|remember\w*|unaided memory|memori[az]\w*|ricord\w*)",
             "residual knowledge; residuals; conoscenze residue"),
    _concept("representatives",
             r"\b(?:lawyers?|advisers?|advisors?|accountants?|banks?|financ\w* sources?|representatives?"
             r"|affiliates?|employees|staff|avvocat\w*|consulent\w*|banche|rappresentant\w*)",
             "representatives; permitted disclosure; disclosure to representatives; rappresentanti; "
             "divulgazione consentita"),
    _concept("statutory_scope",
             r"\b(?:appl(?:y|ies) to|scope|who is covered|consumers?|private individuals?|excluded contracts?"
             r"|restano fuori|ambito di applicazione|consumator\w*|si applica)",
             "application; application of this act; scope; ambito di applicazione"),
    _concept("reporting",
             r"\b(?:report\w*|publish\w*|disclose figures|statistics|pubblica\w*|rendicont\w*|report)",
             "duty to report; reporting; publication; obblighi di rendicontazione"),
    _concept("retention",
             r"\b(?:retention|retain\w*|hold back|holding back|withhold\w*|keep\w* (?:your|my|the) (?:data|information"
             r"|cv)|how long .{0,20}keep|conserva\w*|tratten\w*|ritenut\w*)",
             "retention; retention of payments; how long we keep your information; conservazione; ritenute"),
    _concept("price_adjustment",
             r"\b(?:price (?:increase|review|adjust\w*|change)|cost\w* (?:rise|go up|increase)|index\w*"
             r"|revisione (?:dei )?prezz\w*|aument\w* (?:dei|del) (?:prezz\w*|cost\w*)|sale molto)",
             "price review; price adjustment; revisione dei prezzi; prezzi e revisione"),
    _concept("minimum_volume",
             r"\b(?:minimum (?:volume|purchase|commitment|order)|buy less|commit\w* to (?:buy|purchase)|shortfall"
             r"|volume minimo|impegno di acquisto|acquist\w* (?:meno|minimo))",
             "minimum volume; purchase commitment; shortfall; volume minimo; oggetto"),
)
"""Every concept: its triggers (question words) and the heading words that name it."""

_BY_NAME = {c.name: c for c in CONCEPTS}


# Words that name the document rather than the clause asked about: "the confidentiality agreement
# with Pemberton" is the NDA, not its confidentiality clause; "the licence with Kestrel" the contract.
_DOCUMENT_NAMES = re.compile(
    r"(?i)\b(?:(?:mutual |unilateral )?(?:non-disclosure|confidentiality|secrecy|nda|licen[cs]e|software licen[cs]e"
    r"|supply|services?|hosting|subscription|saas|platform|framework|distribution|purchase|master services)"
    r" (?:agreement|contract|deal)s?|nda\b|ndas\b|(?:accordo|patto|contratto|contratti) (?:quadro )?(?:di|per)"
    r" (?:riservatezza|licenza|fornitura|servizi|hosting|distribuzione)(?: \w+)?"
    r"|(?:licenza|fornitura) (?:con|di|del|della)\b|accordo di riservatezza)")


def concepts_in(question: str) -> list[Concept]:
    """The clause concepts a question asks about, in table order (none: a question about
    something no heading names, or one that cites a section number instead). The words that
    only name the document ("the confidentiality agreement with ...") are not a topic."""
    topic = _DOCUMENT_NAMES.sub(" ", question)
    return [c for c in CONCEPTS if c.triggers.search(topic)]


def title_terms(question: str, limit: int = 6) -> list[str]:
    """The heading phrases (English and Italian) of the concepts in `question`, at most `limit`
    concepts (the first in table order: the table lists the most specific clause topics of
    contracts first)."""
    return [h for c in concepts_in(question)[:limit] for h in c.headings]


def concept(name: str) -> Concept:
    return _BY_NAME[name]
