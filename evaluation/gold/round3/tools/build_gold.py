"""Write round3-gold.jsonl from the items below (python tools/build_gold.py).

Written blind: no search, ranking or eval output was looked at. Section labels are the ones the
product's structural chunker gives the answering chunk (tools/labels.py), compared with
normalize_section. Each item's notes start with "[class:<primary>]" and, where it also exercises
other classes, "[also:<a>,<b>]". Classes: clause-in-doc, cross-language, unnumbered-heading,
loose-names, look-alikes, versions, identifiers, cross-references, access-control, open-doc-type.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

O, B, K, A, V = (f"nda-vellacott-{n}" for n in ("orrin", "brannock", "kittredge", "aaltoranta", "valbasento"))  # noqa: E741 (the NDA initials)
NDAS = (O, B, K, A, V)
ACT = "distribution-fair-dealing-act-2021"
DIST = "distribution-vellacott-pellmore"
APP, LOC, AGE = "contratto-appalto-sillaro", "contratto-locazione-santerno", "contratto-agenzia-ortolani"
PRIV = "informativa-privacy-vellacott"
MEMO = "memo-privileged-pellmore"
CDA = "verbale-cda-vellacott-italia-2026-02-16"
GROUP = "legal-privileged"

GOLD = goldlib.GoldBuilder("r3", Path(__file__).resolve().parent.parent / "round3-gold.jsonl")
q, p = GOLD.q, goldlib.p


def s21(section: str | None = None) -> dict:
    return p(ACT, section, "2021")


def s26(section: str | None = None) -> dict:
    return p(ACT, section, "2026")


def other_ndas(keep: str) -> list[dict]:
    return goldlib.others(NDAS, keep)


# ---------------------------------------------------------------------------------------------
# clause-in-doc: plain-words questions whose answer is one clause of one document

q("en", "clause-in-doc",
  "We're the distributor. Can the supplier walk away early if we fall behind on paying its invoices?",
  [p(DIST, "16.3")],
  "Pellmore distribution agreement 16.3(a): an undisputed invoice unpaid 60 days after its due date plus a "
  "written warning lets the Supplier end the agreement on 90 days' notice. Near misses: 6.6 (only suspends "
  "deliveries after 30 days), 6.5 (interest), 16.1(a) (generic material breach).")
q("en", "clause-in-doc",
  "who pays for it when a batch of meters has to be called back from customers?",
  [p(DIST, "9.2")],
  "Distribution agreement 9.2 (heading 'PRODUCTS WITHDRAWN FROM THE MARKET'; the text says 'recall'): the "
  "Supplier bears recall costs unless caused by the Distributor's storage, handling or statements. 9.1 is only "
  "the duty to co-operate; 9.3 record keeping.")
q("en", "clause-in-doc",
  "what's the most either side can be on the hook for in a year under the Ireland distribution deal?",
  [p(DIST, "10.3")],
  "Distribution agreement 10.3: greater of £250,000 and the Net Purchase Value of the previous twelve months, "
  "per Contract Year. 10.4 lists what is outside the cap and 10.2 excludes lost profits: near misses.")
q("en", "clause-in-doc",
  "when does the distributor actually become the owner of the meters it buys from us?",
  [p(DIST, "7.3")],
  "Distribution agreement 7.3 (retention of title: title passes only on payment in full of these and all other "
  "due Products). 7.2 (risk passes on delivery) is the classic near miss: risk is not ownership.")
q("en", "clause-in-doc",
  "if we leak the supplier's price list, is our liability still capped?",
  [p(DIST, "10.4")],
  "Distribution agreement 10.4(b): the 10.3 limit does not apply to a breach of clause 13 (confidentiality). "
  "10.3 alone would suggest the cap applies; 13.1 is the obligation, not the answer.")
q("en", "clause-in-doc",
  "how long after the distribution deal ends is the distributor kept from selling competing meters to its old "
  "customers?",
  [p(DIST, "17.4")],
  "Distribution agreement 17.4: 18 months, customers served in the last twelve months, Territory only. Near "
  "misses: 3.4 (non-compete during the term), 13.3 (confidentiality five years), statute s.11 (the statutory "
  "ceiling, not the agreed term).")
q("en", "clause-in-doc",
  "is the distributor allowed to sell our meters on Amazon or eBay?",
  [p(DIST, "3.6")],
  "Distribution agreement 3.6: own website yes, Online Marketplace only with prior written consent (Amazon / "
  "eBay are named in the 1.1 definition, which alone does not answer). 3.5 is about customers outside the "
  "Territory. Whether the ban survives statute s.12A (2026) is a different question (see versions items).")
q("en", "clause-in-doc",
  "if a fire or a flood stops deliveries for months, can either side get out of the distribution agreement?",
  [p(DIST, "18.3")],
  "Distribution agreement 18.3 (heading 'EVENTS BEYOND CONTROL', text 'Force Majeure Event'): more than 90 "
  "consecutive days, then 30 days' notice. 18.2 only suspends liability; 18.1 is the definition.")
q("en", "clause-in-doc",
  "does a supplier have to warn its distributor when it expects to run short of stock?",
  [p(ACT, "3")],
  "Fair Dealing Act s.3(2)(b) (duty of good faith), identical in both versions, so no version and no as_of. "
  "The Pellmore agreement has no such duty (4.6 only reduces the target).")
q("en", "clause-in-doc",
  "can the supplier dictate the lowest price a distributor resells at?",
  [p(ACT, "12")],
  "Fair Dealing Act s.12 (resale prices; unchanged between versions): a fixed or minimum resale price term is "
  "void; recommended and maximum prices allowed. Distribution agreement 6.1 (the price the Distributor pays) is "
  "a near miss.")
q("en", "clause-in-doc",
  "how much does Pellmore have to buy from us in the third contract year?",
  [p(DIST, "3")],
  "Distribution agreement Schedule 2 Part A paragraph 3: £900,000 of Net Purchase Value. The parser labels that "
  "paragraph '3' (a bare number, because of the 'Part A' heading inside the Schedule); the same label is given to "
  "Schedule 1 Part A item 3, Schedule 2 Part B item 3 and Schedule 3, so '3' is looser than the answer. 4.1 "
  "(the obligation to meet the target) is a near miss; the memo (2.2, private) gives only years 1 and 2.")

q("it", "clause-in-doc",
  "chi paga se il cantiere dell'ampliamento prende fuoco prima del collaudo?",
  [p(APP, "11")],
  "Appalto Sillaro art. 11: comma 3 (rischio del perimento dell'opera a carico dell'Appaltatore fino alla presa "
  "in consegna, art. 1673 c.c.) e comma 2 (polizza CAR che copre anche l'incendio). Art. 14 (danni a terzi) è un "
  "near miss; art. 11 della locazione Santerno (incendio del magazzino) è un'altra cosa.",
  must_not=[p(LOC, "11")])
q("it", "clause-in-doc",
  "chi paga se il magazzino che abbiamo in affitto prende fuoco?",
  [p(LOC, "11")],
  "Locazione Santerno art. 11: il Locatore assicura il fabbricato con rinuncia alla rivalsa, il Conduttore "
  "merci, RC e rischio locativo; il comma 3 limita la responsabilità ex artt. 1588-1589 c.c. a quanto non "
  "coperto. L'art. 11 dell'appalto (rischio del cantiere) è il look-alike sbagliato.",
  must_not=[p(APP, "11")])
q("it", "clause-in-doc",
  "possiamo lasciare il capannone prima che finiscano i sei anni?",
  [p(LOC, "4")],
  "Locazione Santerno art. 4: gravi motivi con sei mesi di preavviso (art. 27 L. 392/1978) e recesso libero con "
  "nove mesi, con effetto non prima del 31 gennaio 2029. L'art. 3 (durata, disdetta alle scadenze) è un near "
  "miss.")
q("it", "clause-in-doc",
  "quanto ci deve la ditta per ogni giorno di ritardo nella fine dei lavori?",
  [p(APP, "5")],
  "Appalto art. 5, comma 1: penale dell'1 per mille del corrispettivo per giorno (comma 2 per la copertura, "
  "comma 3 tetto del 10%). L'art. 4 fissa solo i termini.")
q("it", "clause-in-doc",
  "l'impresa edile può affidare una parte dei lavori a un'altra ditta?",
  [p(APP, "8")],
  "Appalto art. 8 (subappalto: autorizzazione scritta ex art. 1656 c.c., richiesta 20 giorni prima, massimo 40%). "
  "L'art. 18 (cessione del contratto) è un near miss.")
q("it", "clause-in-doc",
  "quando matura il diritto dell'agente a essere pagato sulle vendite che procura?",
  [p(AGE, "6")],
  "Agenzia Ortolani art. 6: la provvigione sorge al pagamento integrale del cliente (in proporzione se parziale), "
  "estratto conto trimestrale e pagamento entro 20 giorni. L'art. 5 dà solo le percentuali.")
q("it", "clause-in-doc",
  "il padrone del capannone può entrare a controllare quando vuole?",
  [p(LOC, "14")],
  "Locazione art. 14: accesso con preavviso di 48 ore; visite di potenziali conduttori negli ultimi sei mesi. "
  "Nessun altro articolo ne parla.")
q("it", "clause-in-doc",
  "se mandiamo via l'impresa a metà dei lavori senza che abbia colpe, quanto le dobbiamo?",
  [p(APP, "16")],
  "Appalto art. 16 (recesso ex art. 1671 c.c.): spese, lavori eseguiti e mancato guadagno forfettario del 10% "
  "delle opere non eseguite. L'art. 15 (risoluzione per inadempimento dell'Appaltatore) è il near miss.")

# ---------------------------------------------------------------------------------------------
# cross-language: English questions about Italian documents and Italian questions about English ones

q("en", "cross-language",
  "How big is the security deposit on our warehouse lease near Bologna?",
  [p(LOC, "8")],
  "Italian lease (Castel San Pietro Terme, province of Bologna) art. 8: three months' rent (euro 39.000) plus a "
  "first-demand bank guarantee of euro 78.000. Art. 5 (rent) is a near miss.")
q("en", "cross-language",
  "Does the Italian building contractor get paid more if steel and labour costs jump?",
  [p(APP, "3")],
  "Appalto art. 3, comma 2: fixed price, price revision under art. 1664(1) c.c. excluded even for increases over "
  "one tenth. Art. 6 (variations) is a near miss.")
q("en", "cross-language",
  "What commission does our north-east Italy agent get on public tender sales?",
  [p(AGE, "5")],
  "Agenzia art. 5, comma 3: 4% where the agent helped prepare the bid (7% base, 3% Clienti Direzionali, 2% "
  "spares).")
q("en", "cross-language",
  "How long is the contractor on the hook for defects once the Imola extension is signed off?",
  [p(APP, "13")],
  "Appalto art. 13: 24 months from approval of the collaudo, notice within 60 days of discovery, ten-year "
  "liability for serious defects (art. 1669 c.c.). Art. 12 (collaudo itself) is a near miss.")
q("en", "cross-language",
  "Once we part ways, can the Italian agent start selling a competitor's meters?",
  [p(AGE, "12")],
  "Agenzia art. 12 (post-termination non-compete, two years, art. 1751-bis c.c., with an indemnity; waivable "
  "under comma 3). Art. 3, comma 4 is the in-term rule.")
q("en", "cross-language",
  "Which court handles disputes under the warehouse lease?",
  [p(LOC, "18")],
  "Lease art. 18: Tribunale di Bologna under art. 447-bis c.p.c., after compulsory mediation. The forum clauses of "
  "the appalto (art. 19) and agency contract (art. 17) also name Bologna: look-alikes, wrong document.",
  also=("look-alikes",), must_not=[p(APP, "19"), p(AGE, "17")])
q("en", "cross-language",
  "If the landlord's repairs block a third of the warehouse for a month, do we still pay full rent?",
  [p(LOC, "9")],
  "Lease art. 9, comma 4: rent reduced in proportion for the period beyond 20 days (art. 1584 c.c.); art. 5, "
  "comma 3 forbids suspending rent 'salvo quanto previsto dall'art. 9, comma 4'.")
q("en", "cross-language",
  "Can the Italian agent give customers discounts on his own?",
  [p(AGE, "3")],
  "Agenzia art. 3, comma 3: no discounts, extended payment terms or collections without written authorisation. "
  "Art. 13 (termination for it) is secondary.")

q("it", "cross-language",
  "Nel contratto con il distributore irlandese, entro quando vanno pagate le fatture?",
  [p(DIST, "6.4")],
  "Distribution agreement 6.4: 45 days after the end of the month of invoice. 6.5 (interest) and 6.6 "
  "(suspension) are near misses.")
q("it", "cross-language",
  "Il distributore irlandese può nominare dei sub-distributori?",
  [p(DIST, "19.1")],
  "Distribution agreement 19.1: only with the Supplier's prior written consent (19.2 responsibility for them).")
q("it", "cross-language",
  "Quale legge regola il contratto di distribuzione con Pellmore e davanti a quali giudici si litiga?",
  [p(DIST, "23.1"), p(DIST, "23.2")],
  "Distribution agreement 23.1 (English law) and 23.2 (English courts; the Supplier may sue for unpaid sums in "
  "Northern Ireland or Ireland), heading 'LAW AND FORUM'. Clause 20 (escalation / mediation first) is a near "
  "miss.", also=("loose-names",))
q("it", "cross-language",
  "Quanto dura la garanzia sui misuratori venduti al distributore?",
  [p(DIST, "8.1")],
  "Distribution agreement 8.1 (heading 'PRODUCT QUALITY', text 'warrants'): 24 months from resale or 30 from "
  "delivery, whichever ends first. 8.2 is the remedy.")
q("it", "cross-language",
  "Alla fine del contratto di distribuzione, possiamo ricomprare la merce rimasta nel magazzino del "
  "distributore?",
  [p(DIST, "17.2")],
  "Distribution agreement 17.2: Supplier's option within 14 days, price paid less 10%. Statute s.13 is the "
  "distributor's own statutory right (the other direction) and is not the answer to 'can we'.")
q("it", "cross-language",
  "Quali accordi sono esclusi dalla legge inglese sulla distribuzione?",
  [p(ACT, "2")],
  "Fair Dealing Act Schedule 2 (exempt agreements, identical in both versions). The parser labels Schedule 2 "
  "'2', the same label as section 2 (interpretation), so a hit on s.2 also matches: parser observation, not a "
  "second answer. s.1(2) only points to the Schedule.")
q("it", "cross-language",
  "Nel contratto di distribuzione chi approva le pubblicità del distributore?",
  [p(DIST, "12.3")],
  "Distribution agreement 12.3 (heading 'BRANDING'): prior approval by the Supplier, deemed after five Business "
  "Days. 12.1 (trade mark licence) is a near miss.")
q("it", "cross-language",
  "Per la legge inglese sulla distribuzione, il fornitore deve mettere per iscritto le condizioni se il "
  "distributore lo chiede?",
  [p(ACT, "4")],
  "Fair Dealing Act s.4 (written statement of terms; unchanged in 2026, so no version).")

# ---------------------------------------------------------------------------------------------
# unnumbered-heading: the answer sits under a heading the parser does not label -> doc_id only

q("en", "unnumbered-heading",
  "Are we barred from buying shares in Brannock while we talk about the meter pilot?",
  [p(B)],
  "Brannock NDA, unnumbered heading STANDSTILL (twelve months, no acquisition of Brannock securities, ends on a "
  "third-party Rule 2.7 announcement). The ALL-CAPS headings get no section label, so doc_id only. Only the "
  "Brannock NDA has a standstill.", also=("look-alikes",), must_not=other_ndas(B))
q("en", "unnumbered-heading",
  "Who decides disputes under the Aaltoranta agreement, a court or arbitrators?",
  [p(A)],
  "Aaltoranta NDA, unnumbered heading ARBITRATION (Finland Chamber of Commerce rules, sole arbitrator, seat "
  "Helsinki, English). The other NDAs go to courts.", also=("look-alikes",), must_not=other_ndas(A))
q("en", "unnumbered-heading",
  "Can Aaltoranta's engineers download or screenshot our firmware source?",
  [p(A)],
  "Aaltoranta NDA, unnumbered heading SOURCE CODE AND DATA ROOM (read-only, no download, print, photograph or "
  "screenshot; five named users). Doc_id only.", also=("look-alikes",), must_not=other_ndas(A))
q("en", "unnumbered-heading",
  "Does the VellaFlow app track my location in the background?",
  [p(PRIV)],
  "Italian privacy notice, sentence-case heading 'Quali dati raccogliamo': location only when registering an "
  "installation, never in the background. The notice has no labels, so doc_id only.", also=("cross-language",))
q("en", "unnumbered-heading",
  "If I ask Vellacott Italia for a copy of my data, how long can they take to answer?",
  [p(PRIV)],
  "Privacy notice, heading 'I tuoi diritti': one month, extendable by two more with reasons given in the first "
  "month. Doc_id only.", also=("cross-language",))
q("en", "unnumbered-heading",
  "Is the Brannock NDA governed by English law?",
  [p(B)],
  "Brannock NDA, unnumbered heading GOVERNING LAW (law of England and Wales; JURISDICTION: English courts). "
  "Doc_id only; the other NDAs have German, Delaware, Finnish and Italian law.", also=("look-alikes",),
  must_not=other_ndas(B))

q("it", "unnumbered-heading",
  "Per quanto tempo tenete le fatture dei clienti?",
  [p(PRIV)],
  "Informativa, titolo 'Per quanto tempo teniamo i dati': dieci anni (art. 2220 c.c.). Nessuna etichetta, quindi "
  "solo doc_id.")
q("it", "unnumbered-heading",
  "Posso togliere il consenso alle newsletter? Come si fa?",
  [p(PRIV)],
  "Informativa, titolo 'Perché usiamo i tuoi dati e su quale base': revoca in ogni momento con il link in ogni "
  "email o scrivendo; solo doc_id.")
q("it", "unnumbered-heading",
  "I dati che mando all'assistenza clienti finiscono negli Stati Uniti?",
  [p(PRIV)],
  "Informativa, titolo 'Se i dati escono dall'Unione europea': sì, fornitore USA con Data Privacy Framework e "
  "clausole tipo. Solo doc_id.")
q("it", "unnumbered-heading",
  "Dopo quanto tempo si cancellano le immagini delle telecamere del magazzino?",
  [p(PRIV), p(CDA, "4")],
  "Informativa, titolo 'Per quanto tempo teniamo i dati': 72 ore (solo doc_id). Anche il verbale del CdA, punto "
  "4, riporta le 72 ore: risposta accettabile, ma la fonte è l'informativa.")
q("it", "unnumbered-heading",
  "Con quale permesso di costruire si fa l'ampliamento dello stabilimento di Imola?",
  [p(APP)],
  "Appalto Sillaro, PREMESSE lettera b): permesso di costruire n. 118/2025 del Comune di Imola. Le premesse non "
  "hanno etichetta, quindi solo doc_id.")

# ---------------------------------------------------------------------------------------------
# loose-names: the document is named loosely (short name, counterparty + topic, other language)

q("en", "loose-names",
  "the German sensor NDA: can we use the improvement ideas they give us about our own sensors?",
  [p(O, "9.2"), p(O, "9.1")],
  "'German sensor NDA' = Orrin Aquatech GmbH (Augsburg). Clause 9 FEEDBACK: 9.1 defines Feedback, 9.2 lets the "
  "receiving Party use Feedback about its own products freely. Only the Orrin NDA has a feedback clause.",
  also=("look-alikes",), must_not=other_ndas(O))
q("en", "loose-names",
  "Kittredge: can we hire the engineers we meet during the talks?",
  [p(K, "10.1"), p(K, "10.2")],
  "Kittredge NDA clause 10 NON-SOLICITATION: twelve months no soliciting or offering employment; general adverts "
  "allowed (10.2).", also=("look-alikes",), must_not=other_ndas(K))
q("en", "loose-names",
  "our Belfast distributor: how much stock do they have to keep on hand?",
  [p(DIST, "3.2")],
  "'Belfast distributor' = Pellmore (registered office Belfast). Distribution agreement 3.2: eight weeks of "
  "forecast demand. 5.1 (forecasts) is a near miss.")
q("en", "loose-names",
  "Santerno lease: who pays to fix the roof?",
  [p(LOC, "9")],
  "Locazione Santerno art. 9, comma 2: structural repairs including the roof are the landlord's. English question "
  "about an Italian contract.", also=("cross-language",))
q("en", "loose-names",
  "Sillaro: what insurance must they carry while building?",
  [p(APP, "11")],
  "'Sillaro' = Cantieri Riuniti Sillaro, the appalto. Art. 11, comma 2: CAR policy for the works, euro 500.000 "
  "for existing plant, third-party liability euro 5.000.000 (comma 1 performance bond).",
  also=("cross-language",), must_not=[p(LOC, "11")])
q("en", "loose-names",
  "Ortolani: how much notice do we have to give to end the agency?",
  [p(AGE, "11")],
  "Agency contract art. 11, comma 2: three months in the first three years, rising to six; comma 3 pay in lieu.",
  also=("cross-language",))

q("it", "loose-names",
  "NDA con Orrin: possiamo fare foto durante la visita al loro banco prova?",
  [p(O, "10.2"), p(O, "10.1")],
  "Orrin NDA clausola 10 VISITS TO PREMISES: 10.2 nessuna foto o registrazione nelle aree di prova senza "
  "consenso scritto; 10.1 accompagnamento e regole di sicurezza. Solo l'NDA Orrin ha questa clausola.",
  also=("look-alikes", "cross-language"), must_not=other_ndas(O))
q("it", "loose-names",
  "Pellmore: cosa succede se il distributore viene comprato da un altro gruppo?",
  [p(DIST, "16.2")],
  "Contratto di distribuzione 16.2: Change of Control (definita in 1.1) permette al Supplier di recedere con tre "
  "mesi di preavviso.", also=("cross-language",))
q("it", "loose-names",
  "Valbasento: chi paga se i sensori che gli abbiamo prestato si rompono?",
  [p(V, "7")],
  "Accordo di riservatezza Valbasento art. 7, comma 3: rischio di perimento o danneggiamento dei Campioni a carico "
  "di Valbasento anche per caso fortuito (deroga all'art. 1805 c.c.). Solo quest'NDA ha i campioni.",
  also=("look-alikes",), must_not=other_ndas(V))
q("it", "loose-names",
  "Santerno: di quanto aumenta l'affitto ogni anno?",
  [p(LOC, "6")],
  "Locazione art. 6: 75% della variazione ISTAT dal secondo anno, su richiesta. L'art. 5 (canone) è un near "
  "miss.")
q("it", "loose-names",
  "Ortolani: l'agente può incassare lui i soldi dai clienti?",
  [p(AGE, "3")],
  "Agenzia art. 3, comma 3: niente riscossioni senza autorizzazione scritta (art. 13, comma 2, lett. a ne fa una "
  "causa di risoluzione: secondario).")

# ---------------------------------------------------------------------------------------------
# look-alikes: the NDA family (other four NDAs as whole documents in must_not) and look-alike clauses

q("en", "look-alikes",
  "How long does the confidentiality last after the Orrin NDA ends?",
  [p(O, "11.2")],
  "Orrin NDA 11.2: five years after expiry or termination for clauses 3, 4 and 7. Others: Brannock four years, "
  "Kittredge two, Aaltoranta three (source code forever), Valbasento five (art. 10).", must_not=other_ndas(O))
q("en", "look-alikes",
  "Under the Kittredge NDA, how many days do we have to hand back their documents?",
  [p(K, "7.1")],
  "Kittredge NDA 7.1: 30 days. Orrin 14 days, Brannock 10 Business Days, Aaltoranta seven days, Valbasento 15 "
  "giorni.", must_not=other_ndas(K))
q("en", "look-alikes",
  "In the Aaltoranta NDA, how quickly must they tell us about a leak?",
  [p(A)],
  "Aaltoranta NDA, CONFIDENTIALITY UNDERTAKINGS (unnumbered, doc_id only): within 24 hours. Orrin 72 hours, "
  "Brannock two Business Days, Kittredge five Business Days, Valbasento 48 ore.", also=("unnumbered-heading",),
  must_not=other_ndas(A))
q("en", "look-alikes",
  "Brannock NDA: how long do the secrecy duties survive after it ends?",
  [p(B)],
  "Brannock NDA, DURATION (unnumbered, doc_id only): four years from expiry or termination.",
  also=("unnumbered-heading",), must_not=other_ndas(B))
q("en", "look-alikes",
  "Which of our NDAs only protects our information and not the other side's?",
  [p(A)],
  "Aaltoranta is the only one-way NDA (PURPOSE: 'This Agreement is one-way'; title ONE-WAY CONFIDENTIALITY "
  "AGREEMENT). The other four are mutual.", also=("unnumbered-heading",), must_not=other_ndas(A))
q("en", "look-alikes",
  "Kittredge NDA: do the confidentiality duties ever run out for trade secrets?",
  [p(K, "11.2")],
  "Kittredge NDA 11.2: two years, but Trade Secrets for as long as they remain trade secrets. Aaltoranta has an "
  "open-ended rule for Source Code only; the others have fixed periods.", must_not=other_ndas(K))
q("en", "look-alikes",
  "Can Orrin pass our information on to its contractors?",
  [p(O, "1.5"), p(O, "4.1")],
  "Orrin NDA: 1.5 defines Representatives without contractors (Affiliates, directors, officers, employees, "
  "professional advisers) and 4.1 allows disclosure only to Representatives; so no. Kittredge includes "
  "contractors; Aaltoranta only if approved.", must_not=other_ndas(O))

q("it", "look-alikes",
  "Accordo di riservatezza con Valbasento: per quanto tempo dopo la fine restano gli obblighi?",
  [p(V, "10")],
  "Valbasento art. 10, comma 2: cinque anni dalla scadenza o cessazione per gli artt. 3, 4 e 8. Gli altri NDA "
  "hanno termini diversi (Orrin anche cinque anni, ma è un altro documento).", must_not=other_ndas(V))
q("it", "look-alikes",
  "Accordo di riservatezza Valbasento: quanto pagano se violano la riservatezza?",
  [p(V, "11")],
  "Valbasento art. 11: penale di euro 30.000 per violazione, salvo il maggior danno. Nessun altro NDA ha una "
  "penale.", must_not=other_ndas(V))
q("it", "look-alikes",
  "NDA con Brannock: entro quanti giorni dobbiamo restituire i loro documenti?",
  [p(B)],
  "Brannock NDA, RETURN OF MATERIALS (senza numerazione, solo doc_id): 10 Business Days.",
  also=("cross-language", "unnumbered-heading"), must_not=other_ndas(B))
q("it", "look-alikes",
  "Quale legge regola l'NDA con Kittredge e dove si fa causa?",
  [p(K, "19.1"), p(K, "20.1")],
  "Kittredge NDA 19.1 (Delaware law) e 20.1 (Court of Chancery del Delaware, rinuncia alla giuria).",
  also=("cross-language",), must_not=other_ndas(K))
q("it", "look-alikes",
  "Contratto di agenzia: quale tribunale è competente?",
  [p(AGE, "17")],
  "Agenzia art. 17, comma 2: Tribunale di Bologna, salvo il giudice del lavoro ex artt. 409 n. 3 e 413 c.p.c. "
  "Stesse clausole di foro nell'appalto (art. 19), nella locazione (art. 18) e nell'NDA Valbasento (art. 17): "
  "look-alike di altri documenti.", must_not=[p(APP, "19"), p(LOC, "18"), p(V, "17")])
q("it", "look-alikes",
  "Per quanto tempo l'agente deve tenere riservati listino e clienti dopo la fine del rapporto?",
  [p(AGE, "15")],
  "Agenzia art. 15, comma 2: tre anni. Look-alike: appalto art. 17 (riservatezza dell'impresa, tre anni) e NDA "
  "Valbasento art. 10 (cinque anni).", must_not=[p(APP, "17"), p(V, "10")])

# ---------------------------------------------------------------------------------------------
# versions: the fictional Act in two versions (2021: 2021-10-01..2026-04-06; 2026: from 2026-04-06)

q("en", "versions",
  "What's the minimum notice a supplier must give to end an open-ended distribution agreement in its fourth year?",
  [s21("5")], "2021 text s.5(2)(c): three months from the third year commenced. The 2026 text (one month a year, "
  "minimum three, six for exclusive distributors) is not yet in force on 15 March 2026.",
  as_of="2026-03-15", must_not=[s26()])
q("en", "versions",
  "How much notice does a supplier need now to end an open-ended deal with an exclusive distributor?",
  [s26("5")], "2026 text s.5(2) and (2A): one month per year, minimum three, maximum twelve, and at least six "
  "months for an exclusive territory. The 2021 scale (up to three months) is superseded.",
  as_of="2026-06-01", must_not=[s21()])
q("en", "versions",
  "Can a supplier make its distributor buy only from it, and for how long?",
  [s21("10")], "2021 text s.10: exclusive purchasing allowed for up to five years from the start. Repealed from "
  "6 April 2026.", as_of="2025-06-01", must_not=[s26()])
q("en", "versions",
  "Can a supplier make its distributor buy only from it, and for how long?",
  [s26("10"), s26("2A")], "On 1 September 2026 s.10 reads '[Repealed]' and Schedule 2A para 3 keeps existing "
  "obligations only until 6 April 2027. The 2021 five-year rule is the wrong version.",
  as_of="2026-09-01", must_not=[s21()])
q("en", "versions",
  "Is a clause banning a distributor from selling online void?",
  [s26("12A"), s26("2A")], "New s.12A (void, but quality standards, justified non-discriminatory marketplace "
  "bans and active-sales limits allowed) plus Schedule 2A para 5: for agreements made before 6 April 2026 it "
  "applies only from 6 October 2026, which changes the answer on 1 May 2026. The 2021 text has no s.12A.",
  as_of="2026-05-01", must_not=[s21()])
q("en", "versions",
  "What's the longest a post-termination non-compete on a distributor can last?",
  [s21("11")], "2021 text s.11(2): two years (2026: one year plus an allowance).",
  as_of="2024-01-10", must_not=[s26()])
q("en", "versions",
  "How long does a distributor have to complain to the Distribution Adjudicator?",
  [s26("15")], "Boundary day: on 6 April 2026 the 2026 text applies (valid_from <= as_of < valid_to). s.15(2): "
  "twelve months (2021: six months).", as_of="2026-04-06", must_not=[s21()])
q("en", "versions",
  "When a supplier has to buy back a terminated distributor's stock, how much can it knock off the price?",
  [s21("13")], "2021 text s.13(2): handling deduction up to 10%. The 2026 text forbids any deduction for stock "
  "delivered in the last twelve months.", as_of="2025-11-20", must_not=[s26()])
q("en", "versions",
  "What discount rate is used to bring a distributor's compensation to present value?",
  [s21()], "2021 text Schedule 1 para 3: Bank of England base rate on the termination date (2026: fixed 3%). "
  "Version only, no section: the parser labels the Schedule 1 chunk '8' (from the 'Section 8' line under its "
  "heading), which is also section 8's label, so no label names Schedule 1.",
  as_of="2022-03-01", must_not=[s26()])

q("it", "versions",
  "Per la legge inglese sulla distribuzione, con quanto anticipo il fornitore deve comunicare un aumento dei "
  "prezzi?",
  [s21("7")], "Testo 2021, s.7(1): 30 giorni (dal 6 aprile 2026: 60 giorni).", as_of="2026-01-15",
  must_not=[s26()], also=("cross-language",))
q("it", "versions",
  "Se il fornitore aumenta i prezzi del 15%, il distributore può andarsene?",
  [s26("7")], "Testo 2026, s.7(3): aumento oltre il 10% in dodici mesi, recesso prima dell'efficacia e "
  "indennizzo come se avesse receduto il fornitore. Nel testo 2021 la s.7(3) non esiste.", as_of="2026-05-10",
  must_not=[s21()], also=("cross-language",))
q("it", "versions",
  "Un distributore con 40 dipendenti e 13 milioni di sterline di fatturato è uno 'small distributor'?",
  [s26("2")], "Testo 2026, s.2: soglia di fatturato 15 milioni, quindi sì (nel testo 2021: 10 milioni, no). L'etichetta '2' è anche quella della Schedule 2 (esenzioni): near miss con la stessa etichetta.",
  as_of="2026-10-01", must_not=[s21()], also=("cross-language",))
q("it", "versions",
  "Per un patto di non concorrenza dopo la fine del contratto di distribuzione bisogna pagare un'indennità al "
  "distributore?",
  [s26("11"), s26("2A")], "Testo 2026, s.11(3) (indennità di almeno metà del margine mensile medio) e Schedule "
  "2A para 4 (per i contratti anteriori l'obbligo vale dal 6 aprile 2027). Il testo 2021 non prevede indennità.",
  as_of="2026-09-15", must_not=[s21()], also=("cross-language",))
q("it", "versions",
  "Entro quanti giorni il distributore deve chiedere al fornitore di riacquistare le scorte?",
  [s26("13")], "Testo 2026, s.13(3): 60 giorni dalla cessazione (2021: 30).", as_of="2027-01-10",
  must_not=[s21()], also=("cross-language",))
q("it", "versions",
  "Al 20 gennaio 2026, chi era il nostro agente per il Veneto e con che provvigione?",
  [], "Solo must_not: il contratto di agenzia Ortolani vale dal 1° marzo 2026 e il verbale del CdA che lo "
  "approva è del 16 febbraio 2026; al 20 gennaio 2026 nessun documento risponde.", as_of="2026-01-20",
  must_not=[p(AGE), p(CDA)])

# ---------------------------------------------------------------------------------------------
# identifiers: clause / section / article / annex identifiers kept whole

q("en", "identifiers", "Pellmore clause 10.3", [p(DIST, "10.3")],
  "Distribution agreement clause 10.3 (liability cap). Not 10.3 of anything else; the memo is private.")
q("en", "identifiers", "section 12A Distribution and Agency (Fair Dealing) Act", [s26("12A")],
  "Inserted section, only in the 2026 text, so the 2021 version is in must_not even without as_of.",
  must_not=[s21()])
q("en", "identifiers", "Schedule 2A transitional provisions fair dealing act", [s26("2A")],
  "Schedule 2A (label '2A') exists only in the 2026 text.", must_not=[s21()])
q("en", "identifiers", "clause 16.3(c) distribution agreement", [p(DIST, "16.3")],
  "16.3(c) sits inside the 16.3 chunk (target shortfall over 25% in two consecutive years). 4.5 cross-refers to "
  "it: near miss.")
q("en", "identifiers", "Orrin NDA clause 11.2", [p(O, "11.2")],
  "Every numbered NDA in the family has an 11.2 (Kittredge 11.2 is also survival): the others are wrong "
  "documents.", also=("look-alikes",), must_not=other_ndas(O))
q("en", "identifiers", "Kittredge Annex 1 clean team members", [p(K, "1")],
  "Annex 1 of the Kittredge NDA is labelled '1' (no clause chunk is '1'); clause 9 (CLEAN TEAM) and 1.8 refer to "
  "it.", also=("look-alikes",), must_not=other_ndas(K))
q("en", "identifiers", "s.9(1)(b) fair dealing act", [p(ACT, "9")],
  "Section 9 is unchanged between versions; (1)(b) is inside the section chunk, no version needed.")

q("it", "identifiers", "art. 5, comma 3 contratto di appalto Sillaro", [p(APP, "5")],
  "Appalto art. 5 (penali); il comma 3 è dentro il chunk dell'articolo. L'art. 5 della locazione (canone), "
  "dell'agenzia (provvigioni) e dell'NDA Valbasento (esclusioni) sono lo stesso numero in altri documenti.",
  must_not=[p(LOC, "5"), p(AGE, "5"), p(V, "5")])
q("it", "identifiers", "art. 1751-bis c.c. contratto di agenzia", [p(AGE, "12")],
  "Il riferimento codicistico è citato nell'art. 12 (patto di non concorrenza); l'art. 14 cita l'art. 1751: near "
  "miss.")
q("it", "identifiers", "Allegato C appalto", [p(APP, "C")],
  "Allegato C dell'appalto (elenco prezzi unitari). Gli Allegati C della locazione (APE) e dell'agenzia "
  "(obiettivi) hanno la stessa etichetta.", must_not=[p(LOC, "C"), p(AGE, "C")])
q("it", "identifiers", "art. 27 legge 392/1978 locazione Santerno", [p(LOC, "4")],
  "Il recesso per gravi motivi ex art. 27 è nell'art. 4 della locazione. L'art. 3 cita l'art. 29 (diniego di "
  "rinnovo): near miss.")
q("it", "identifiers", "art. 11 accordo di riservatezza Valbasento", [p(V, "11")],
  "Art. 11 (penale) dell'NDA Valbasento; gli altri NDA sono documenti sbagliati e l'art. 11 dell'appalto e della "
  "locazione è lo stesso numero altrove.", also=("look-alikes",),
  must_not=other_ndas(V) + [p(APP, "11"), p(LOC, "11")])
q("it", "identifiers", "Allegato B agenzia Ortolani", [p(AGE, "B")],
  "Allegato B dell'agenzia (Clienti Direzionali). Allegato B dell'appalto (cronoprogramma) e della locazione "
  "(verbale di consegna) hanno la stessa etichetta.", must_not=[p(APP, "B"), p(LOC, "B")])

# ---------------------------------------------------------------------------------------------
# cross-references: the answer needs a referenced unit of the same document (expected_xrefs)

q("en", "cross-references",
  "What is carved out of the liability cap in the Pellmore agreement?",
  [p(DIST, "10.4")],
  "10.4 lists the carve-outs by reference: clause 11.2 (IP indemnity) and clause 13 (confidentiality), plus the "
  "price. An expansion should add 11.2 and clause 13 (13.1 listed). 10.3 is the cap itself.",
  xrefs=[p(DIST, "11.2"), p(DIST, "13.1")])
q("en", "cross-references",
  "Which parts of the distribution agreement keep applying after it ends?",
  [p(DIST, "17.5")],
  "17.5 lists 'Clauses 1, 6.4 to 6.7, 10, 11.2, 13, 17, 20, 22 and 23'. Listed xrefs: 6.5 (inside the range "
  "6.4 to 6.7, deliberately hard), 10.3, 11.2, 13.3.",
  xrefs=[p(DIST, "6.5"), p(DIST, "10.3"), p(DIST, "11.2"), p(DIST, "13.3")])
q("en", "cross-references",
  "If a distributor quits because the supplier hiked prices by 15%, is it owed compensation?",
  [s26("7")],
  "2026 text s.7(3): the distributor may terminate and 'section 8 then applies as if the agreement had been "
  "terminated by the supplier'; the expansion should add s.8 (2026). The 2021 text has no s.7(3).",
  xrefs=[s26("8")], as_of="2026-06-01", must_not=[s21()])
q("en", "cross-references",
  "If the supplier ends the agreement because the distributor seriously broke it, does the distributor still get "
  "compensation?",
  [p(ACT, "9")],
  "s.9(1)(a) (unchanged): no compensation for a default that would justify termination under s.6(1)(a); "
  "references s.6 and s.8.", xrefs=[p(ACT, "6"), p(ACT, "8")])
q("en", "cross-references",
  "If the distributor misses its targets by more than a quarter two years running, what can the supplier do?",
  [p(DIST, "4.5")],
  "4.5 says the shortfall entitles the Supplier to end the agreement 'under clause 16.3(c)'; the expansion should "
  "add 16.3 (90 days' notice). 4.3 (over 15%: non-exclusive or smaller Territory) is the lesser remedy.",
  xrefs=[p(DIST, "16.3")])
q("en", "cross-references",
  "Orrin NDA: which obligations last five years after the end?",
  [p(O, "11.2")],
  "11.2 names 'clauses 3, 4 and 7' (confidentiality undertakings, disclosure to Representatives, return of "
  "materials); xrefs 3.1, 4.1, 7.1.",
  also=("look-alikes",), xrefs=[p(O, "3.1"), p(O, "4.1"), p(O, "7.1")], must_not=other_ndas(O))

q("it", "cross-references",
  "Appalto Imola: se le penali superano il 10%, cosa può fare il committente?",
  [p(APP, "5")],
  "Art. 5, comma 3: facoltà di risolvere 'ai sensi dell'art. 15'; l'espansione deve aggiungere l'art. 15 "
  "(clausola risolutiva espressa, lettera a).", xrefs=[p(APP, "15")])
q("it", "cross-references",
  "Locazione Santerno: cosa rischiamo se lasciamo scadere la fideiussione bancaria?",
  [p(LOC, "7")],
  "Art. 7, comma 3: il mancato rinnovo della garanzia 'di cui all'art. 8, comma 2' è causa di risoluzione ex art. "
  "1456 c.c.; l'espansione deve aggiungere l'art. 8 (fideiussione di euro 78.000).", xrefs=[p(LOC, "8")])
q("it", "cross-references",
  "Agenzia: con quale preavviso possiamo togliere l'esclusiva all'agente che non raggiunge gli obiettivi?",
  [p(AGE, "8")],
  "Art. 8, comma 2: revoca dell'esclusiva o riduzione della Zona 'con il preavviso previsto dall'art. 11, comma "
  "2'; l'espansione deve aggiungere l'art. 11.", xrefs=[p(AGE, "11")])
q("it", "cross-references",
  "Appalto: come vengono pagate le varianti ordinate dal committente?",
  [p(APP, "6")],
  "Art. 6, comma 2 rinvia all'art. 3, comma 3, che a sua volta rinvia all'Allegato C (elenco prezzi): xref 3 e C "
  "(il secondo è a due passi).", xrefs=[p(APP, "3"), p(APP, "C")])
q("it", "cross-references",
  "NDA Valbasento: quali obblighi sopravvivono alla fine e per quanto?",
  [p(V, "10")],
  "Art. 10, comma 2: cinque anni per gli 'artt. 3, 4 e 8'; xref 3, 4, 8.", also=("look-alikes",),
  xrefs=[p(V, "3"), p(V, "4"), p(V, "8")], must_not=other_ndas(V))

# ---------------------------------------------------------------------------------------------
# access-control: the privileged memo (acl legal-privileged) only for that group

q("en", "access-control",
  "What settlement range did legal recommend for getting out of the Pellmore deal?",
  [p(MEMO, "7.3"), p(MEMO, "1.3")], "Privileged memo 7.3 (up to £180,000, walk-away £140,000) and 1.3; visible "
  "with the legal-privileged group.", groups=[GROUP])
q("en", "access-control",
  "What's our walk-away figure in the Pellmore settlement?",
  [], "Must_not only: the figure is only in the privileged memo (7.3); no group given.", must_not=[p(MEMO)])
q("en", "access-control",
  "Why shouldn't we terminate Pellmore over the Amazon sales?",
  [p(MEMO, "3.2"), p(MEMO, "5.2")], "Memo 3.2 (unsolicited-order defence to 16.3(b)) and 5.2 (the marketplace ban "
  "likely fails s.12A non-discrimination); group legal-privileged.", groups=[GROUP])
q("en", "access-control",
  "How much notice do we have to give Pellmore to end the deal over the missed targets?",
  [p(DIST, "16.3"), p(DIST, "16.5"), p(ACT, "5")],
  "Public answer: 16.3(c) (90 days), 16.5 (statutory minimum prevails) and Act s.5 (either version: no as_of). "
  "The memo 3.3 also answers (three months and a week) but the 'sales' group may not see it.",
  groups=["sales"], must_not=[p(MEMO)])
q("en", "access-control",
  "What would the non-compete allowance for Pellmore cost us after April 2027?",
  [p(MEMO, "6.2")], "Memo 6.2: about £8,800 a month, roughly £80,000; group legal-privileged. Act s.11(3) states "
  "the rule but not our figure.", groups=[GROUP])

q("it", "access-control",
  "Secondo l'ufficio legale, che probabilità c'è che Pellmore ci faccia causa?",
  [p(MEMO, "7.3")], "Memo riservato 7.3: circa 60% senza offerta; visibile al gruppo legal-privileged.",
  groups=[GROUP], also=("cross-language",))
q("it", "access-control",
  "Cosa dice il parere legale su Pellmore riguardo al tetto dell'indennizzo?",
  [], "Solo must_not: il contenuto è nel memo riservato (4.2, 4.3); senza gruppi non deve comparire. Il verbale del "
  "CdA (punto 6) dice espressamente che il parere non è riportato.", must_not=[p(MEMO)],
  also=("cross-language",))
q("it", "access-control",
  "Quanto potremmo dover pagare a Pellmore come indennizzo se chiudiamo il contratto?",
  [p(DIST, "17.3"), p(ACT, "8")],
  "Risposta pubblica: clausola 17.3 (solo quanto obbligatorio per legge) e s.8 della legge (tetto di un anno di "
  "margine; qualsiasi versione, nessun as_of; l'etichetta '8' copre anche la Schedule 1, che calcola l'indennizzo). Il memo (4.2-4.3) ha le stime ma il gruppo 'commerciale' non può "
  "vederlo.", groups=["commerciale"], must_not=[p(MEMO)], also=("cross-language",))

# ---------------------------------------------------------------------------------------------
# open-doc-type: the board minutes (doc_type "board_minutes")

q("en", "open-doc-type",
  "What ceiling did the Italian board set for the Valbasento tender bid?",
  [p(CDA, "5")], "Board minutes point 5: bid not above euro 2.300.000. The Valbasento NDA (samples) is a near miss.",
  also=("cross-language",))
q("en", "open-doc-type",
  "Did Vellacott Italia's board approve the 2026 budget, and what revenue does it forecast?",
  [p(CDA, "7")], "Minutes point 7 (varie): budget approved, revenue euro 14.200.000, capex euro 2.100.000.",
  also=("cross-language",))
q("en", "open-doc-type",
  "Why was the Castel San Pietro lease signed before the board approved it?",
  [p(CDA, "1")], "Minutes point 1: signed on 15 January 2026 under urgency because temporary storage at Granarolo "
  "ended on 31 January; ratified. The lease itself does not say why.", also=("cross-language",))
q("en", "open-doc-type",
  "What do the minutes record about the legal opinion on a foreign distributor?",
  [p(CDA, "6")], "Minutes point 6: the parent received a privileged opinion; the content is deliberately not "
  "recorded. The memo itself is privileged and no group is given.", also=("access-control", "cross-language"),
  must_not=[p(MEMO)])

q("it", "open-doc-type",
  "Il CdA ha approvato la seconda baia di carico del nuovo capannone? A che condizioni?",
  [p(CDA, "2")], "Verbale punto 2: variante di euro 64.000 (3,7%), proroga di 10 giorni, a condizione che "
  "l'appaltatore rinunci a ulteriori proroghe. L'art. 6 dell'appalto (regole sulle varianti) è un near miss.")
q("it", "open-doc-type",
  "Chi è stato confermato DPO per il 2026 e con quale compenso?",
  [p(CDA, "4")], "Verbale punto 4, lettera b): avv. Federica Lodi, euro 18.000 l'anno. L'informativa nomina il DPO "
  "ma non dice né la conferma né il compenso.")
q("it", "open-doc-type",
  "Il consiglio ha ratificato il contratto di locazione firmato a gennaio?",
  [p(CDA, "1")], "Verbale punto 1, lettera a): ratifica all'unanimità del contratto del 15 gennaio 2026.")
q("it", "open-doc-type",
  "Quando scade il termine per presentare l'offerta nella gara Valbasento?",
  [p(CDA, "5")], "Verbale punto 5: 27 marzo 2026. L'NDA Valbasento non parla della gara.")


if __name__ == "__main__":
    GOLD.main(sys.argv[1:])
