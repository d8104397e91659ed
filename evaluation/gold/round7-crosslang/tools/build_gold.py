"""Writes the two cross-language gold files beside tools/ (json only; no search import)."""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CL = "[class:cross-language] "

def item(id_, query, lang, doc, note, split):
    return {"id": id_, "query": query, "type": "conceptual", "language": lang,
            "expected": [{"doc_id": doc}], "expected_xrefs": [], "as_of": None,
            "groups": [], "must_not": [], "notes": CL + note, "answerable": True,
            "split": split}

R2 = [
 # English questions on Italian documents (corpus A)
 item("x2-en-01", "Our lighting supplier delivered a batch of LED high-bay fittings 12 working days late. What penalty can we charge them, and is there a ceiling on it?", "en",
      "contratto-fornitura-tecnoluce", "Lighting supply framework contract (it), art. 8(1): 0.3% of the order value per working day of delay, capped at 8%.", "dev"),
 item("x2-en-02", "What happens if the same fault turns up in more than 3% of the presence sensors from one production lot? Can we make the manufacturer replace the whole lot, even the units that still work?", "en",
      "contratto-fornitura-tecnoluce", "Lighting supply framework contract (it), art. 2(6) and art. 10(4): a serial defect (>3% of a lot) obliges the supplier to replace the whole lot and refund field intervention costs.", "held-out"),
 item("x2-en-03", "Aluminium and electronic component prices have shot up since we signed. Can the company that makes our warehouse lights insist on renegotiating the prices, and what happens if we can't agree?", "en",
      "contratto-fornitura-tecnoluce", "Lighting supply framework contract (it), art. 5(3): a raw-material cost rise above 10% allows a written renegotiation request; without agreement in 30 days either party may withdraw without indemnity.", "dev"),
 item("x2-en-04", "do we get a volume discount on light fittings if our purchases for the year go over half a million euros, and how is it paid out?", "en",
      "contratto-fornitura-tecnoluce", "Lighting supply framework contract (it), Allegato B(4): 4% above EUR 500,000 and 7% above EUR 900,000 a year, granted by credit note by 31 January of the following year.", "held-out"),
 item("x2-en-05", "Is the source code of the machine-vision software we license held in escrow, and in what circumstances can we actually get our hands on it?", "en",
      "contratto-licenza-kestrel", "Vision SDK licence (it), art. 13: source code deposited with an escrow agent, released if the licensor enters judicial liquidation or stops security updates for more than 90 consecutive days.", "dev"),
 item("x2-en-06", "We embed a licensed vision library in the robotic picking cells we build. How much royalty do we owe per cell sold, and is there a minimum we have to pay each year regardless of sales?", "en",
      "contratto-licenza-kestrel", "Vision SDK licence (it), art. 5(1)(b) and 5(2): EUR 450 per robotic cell, with a minimum annual royalty of EUR 60,000.", "held-out"),
 item("x2-en-07", "Could we lose our exclusive software licence for the agri-food sector if we don't sell enough robot cells to that sector by a certain deadline?", "en",
      "contratto-licenza-kestrel", "Vision SDK licence (it), art. 2(2)-(3): agri-food exclusivity lapses if fewer than forty agri-food cells are sold by the stated date.", "dev"),
 item("x2-en-08", "If a disaster knocks out the main data centre, how quickly does the hosting company have to bring our platform back up at the secondary site, and how many minutes of data are we allowed to lose at most?", "en",
      "contratto-servizi-dolomiti", "Managed hosting contract (it), art. 3(2): recovery at the secondary site within four hours (RTO) with at most fifteen minutes of data loss (RPO).", "held-out"),
 item("x2-en-09", "How often must our managed hosting provider run a full disaster recovery test, and within what time do we receive the test report?", "en",
      "contratto-servizi-dolomiti", "Managed hosting contract (it), art. 3(3): a full disaster recovery test at least twice a year, report delivered within ten working days.", "dev"),
 item("x2-en-10", "Can we get out of our hosting contract early if the provider loses its business-continuity certification, and how much notice would we have to give?", "en",
      "contratto-servizi-dolomiti", "Managed hosting contract (it), art. 10(2) with art. 6(1): the client may withdraw on thirty days' notice if the provider loses its ISO/IEC 27001 or ISO 22301 certification.", "held-out"),
 # Italian questions on English documents (corpus A)
 item("x2-it-01", "Il fornitore della piattaforma in abbonamento è obbligato a far eseguire ogni anno un test di penetrazione indipendente? Ci deve mandare i risultati?", "it",
      "saas-corvane-larchmont", "Platform subscription agreement (en), clause 10.2: independent penetration test at least once per Contract Year, with a summary of findings and a remediation plan for high or critical findings.", "dev"),
 item("x2-it-02", "Nell'abbonamento alla piattaforma abbiamo 250 licenze utente incluse e da settembre ci servono altri 40 utenti: quanto costa ogni licenza in più e come viene calcolata per il resto dell'anno?", "it",
      "saas-corvane-larchmont", "Platform subscription agreement (en), clause 3.4 and Schedule 1 para. 2: GBP 960 per additional Authorised User licence per Contract Year, charged pro rata.", "held-out"),
 item("x2-it-03", "Un cliente aziendale non ci ha pagato in tempo una fattura da 5.000 sterline: per legge abbiamo diritto anche a un importo forfettario per le spese di recupero del credito? Di quanto?", "it",
      "commercial-payment-practices-act-2022", "Payment practices statute (en), s.6: fixed sum for recovery costs by debt band (GBP 70 in the 2022 text, GBP 90 as amended in 2025, for a debt of 1,000-10,000), plus reasonable costs above it.", "dev"),
 item("x2-it-04", "Un ex partner ha usato il nostro know-how riservato per lanciare un prodotto concorrente. Il giudice può liquidarci il danno come il compenso di una licenza ragionevole invece di farci restituire i suoi profitti?", "it",
      "judgment-halberd-v-quillfeather", "Commercial Court judgment (en), paras 23-25: account of profits refused, damages assessed as a reasonable (negotiating) licence fee.", "held-out"),
 item("x2-it-05", "Abbiamo firmato un accordo di riservatezza per analizzare la telemetria dei motori e degli scafi delle navi di un armatore. Possiamo assumere uno dei loro ingegneri con cui abbiamo lavorato, e per quanto tempo vale il divieto?", "it",
      "nda-corvane-halvorsen", "Maritime telemetry NDA (en), Non-Solicitation clause: no soliciting of employees during the term and twelve months after, except general advertisements or staff who left six months before.", "dev"),
 item("x2-it-06", "Durante la valutazione ci hanno prestato prototipi di pinze e sensori: se si danneggiano mentre li teniamo noi chi ne risponde, e entro quanto dobbiamo restituirli quando ce li chiedono?", "it",
      "nda-corvane-kestrel", "Robotic picking NDA (en), clause 8 (Samples and Prototypes): samples held at the recipient's risk and returned at its cost within ten Business Days of a request.", "held-out"),
 item("x2-it-07", "Per un progetto pilota riceviamo dati pseudonimizzati di sperimentazioni cliniche. Possiamo incrociarli con altri dati? E se ci accorgiamo che contengono dati personali che cosa dobbiamo fare?", "it",
      "nda-corvane-pemberton", "Clinical-trials NDA (en), clause 7 (Personal Data): no re-identification or combination with other data; on receiving personal data, notify, stop processing and delete on instruction.", "dev"),
 item("x2-it-08", "Le idee e le tecniche che i nostri tecnici si ricordano a memoria dopo aver visto le informazioni riservate dell'altra parte possiamo usarle liberamente?", "it",
      "nda-corvane-saltmarsh", "Battery-storage forecasting NDA (en), Residual Knowledge clause: ideas and know-how retained in unaided memory may be used, not pricing/customer data nor patent or copyright licences.", "held-out"),
 item("x2-it-09", "Se violiamo la riservatezza nella gara per l'integrazione di robot mobili nei centri di distribuzione del cliente, c'è una penale fissa? Quanto si paga per ogni giorno e qual è il massimo?", "it",
      "nda-corvane-tidewell", "Logistics RFP NDA (en), clause 10.1 (Contractual Penalty): EUR 25,000 per breach plus EUR 1,000 per day, capped at EUR 250,000.", "dev"),
 item("x2-it-10", "mi sono candidato per un lavoro e non mi hanno preso, per quanto tempo tengono il mio cv?", "it",
      "privacy-notice-corvane", "Corporate privacy notice (en), 'How long we keep your information': unsuccessful applications deleted six months after the recruitment ends, or kept twelve more months with consent.", "held-out"),
]

R3 = [
 # English questions on Italian documents (corpus B)
 item("x3-en-01", "When does our commercial agent actually earn his commission: when the customer places the order, or only once the customer has paid?", "en",
      "contratto-agenzia-ortolani", "Exclusive agency contract (it), art. 6(1)-(2): commission arises when the customer has paid in full (pro rata for partial payment), or anyway if non-payment is the principal's fault.", "dev"),
 item("x3-en-02", "Our agent passed us an order proposal from a customer and we still had not replied three weeks later. Is the order now treated as accepted or as refused?", "en",
      "contratto-agenzia-ortolani", "Exclusive agency contract (it), art. 2(2): the principal answers within 15 days; without an answer the proposal is deemed refused.", "held-out"),
 item("x3-en-03", "Steel and concrete prices have gone up by more than ten percent since we signed the building contract for our factory extension. Can the contractor ask for the price to be revised?", "en",
      "contratto-appalto-sillaro", "Construction contract (it), art. 3(2): lump-sum price fixed and not revisable even for cost rises above one tenth, in derogation of art. 1664(1) c.c.", "dev"),
 item("x3-en-04", "If we pull out of the construction works halfway through for our own reasons, what do we owe the builder, and how is his lost profit worked out?", "en",
      "contratto-appalto-sillaro", "Construction contract (it), art. 16: withdrawal on 20 days' notice; costs and works done reimbursed, lost profit fixed at 10% of the works not performed.", "held-out"),
 item("x3-en-05", "The roof of the warehouse we rent is leaking. Who has to pay for the repair, us or the landlord, and what can we do if the landlord does nothing?", "en",
      "contratto-locazione-santerno", "Commercial lease (it), art. 9(2)-(3): roof works are extraordinary repairs for the landlord; if it does not act within 15 days (48 hours if urgent) the tenant may do urgent repairs and claim reimbursement.", "held-out"),
 item("x3-en-06", "If the owner decides to sell the warehouse we lease, do we have a right to buy it first, and how long do we have to make up our minds?", "en",
      "contratto-locazione-santerno", "Commercial lease (it), art. 15(2): contractual pre-emption right on sale, exercisable within 45 days of the landlord's notice, on the same terms.", "dev"),
 item("x3-en-07", "If I close my account in the water-meter management app, how long will the company keep my personal details afterwards?", "en",
      "informativa-privacy-vellacott", "Privacy notice (it), 'Per quanto tempo teniamo i dati': account data kept while the account is active and for 12 months after closure.", "dev"),
 item("x3-en-08", "Can readings from a water meter that serves only my house count as personal data?", "en",
      "informativa-privacy-vellacott", "Privacy notice (it), 'Quali dati raccogliamo': readings usually concern a network but can become personal data when the meter serves a single home or a sole trader.", "held-out"),
 item("x3-en-09", "Under the confidentiality agreement for a trial of pressure sensors on a water distribution network, is there a fixed penalty for each breach, and do we have to prove any loss to claim it?", "en",
      "nda-vellacott-valbasento", "Italian NDA for the sensor trial (it), art. 11: EUR 30,000 penalty per breach under art. 1382 c.c., due on written request regardless of proof of damage, further damages reserved.", "dev"),
 item("x3-en-10", "What was the maximum bid the board authorised for the tender for 3,500 sensors and a remote meter-reading platform?", "en",
      "verbale-cda-vellacott-italia-2026-02-16", "Board minutes (it), item 5: participation authorised with a bid not exceeding EUR 2,300,000.", "held-out"),
 # Italian questions on English documents (corpus B)
 item("x3-it-01", "Il distributore non ha ancora pagato i misuratori che tiene in magazzino: la merce è già sua o resta nostra finché non paga? Possiamo andare a riprendercela?", "it",
      "distribution-vellacott-pellmore", "Exclusive distribution agreement (en), clause 7.3: retention of title until full payment, goods held as bailee, supplier may enter premises to recover them once payment is overdue.", "dev"),
 item("x3-it-02", "Se dobbiamo richiamare dal mercato dei sensori difettosi venduti tramite il nostro distributore esclusivo, chi paga i costi del richiamo?", "it",
      "distribution-vellacott-pellmore", "Exclusive distribution agreement (en), clause 9.2: supplier bears reasonable recall costs, except in proportion to the distributor's responsibility (storage, handling, modification, statements).", "held-out"),
 item("x3-it-03", "È valida una clausola che obbliga il distributore a rivendere i prodotti a un prezzo minimo? Possiamo almeno consigliargli un prezzo di vendita?", "it",
      "distribution-fair-dealing-act-2021", "Distribution fair dealing statute (en), s.12: fixed or minimum resale prices void; recommended or maximum prices allowed unless they operate as fixed/minimum prices.", "held-out"),
 item("x3-it-04", "Come distributore, a chi posso fare reclamo se il fornitore non rispetta gli obblighi di legge sul preavviso o sui prezzi, entro quanto tempo, e che cosa rischia il fornitore?", "it",
      "distribution-fair-dealing-act-2021", "Distribution fair dealing statute (en), ss.14-15: complaint to the Distribution Adjudicator within six months (2021 text) or twelve months (as amended), with recommendations, publication and, as amended, a penalty up to 1% of UK turnover.", "dev"),
 item("x3-it-05", "Abbiamo firmato un accordo di riservatezza con una società quotata per un progetto pilota di contatori intelligenti: ci è vietato comprare le sue azioni o fare un'offerta su di lei? Per quanto tempo?", "it",
      "nda-vellacott-brannock", "Smart-meter pilot NDA (en), Standstill section: for twelve months no acquisition of shares, proxy solicitation or offer, lifted if a third party announces a firm offer.", "dev"),
 item("x3-it-06", "Se tra le informazioni ricevute dal partner ci sono informazioni privilegiate ai fini della normativa sugli abusi di mercato, dobbiamo tenere un elenco delle persone a cui le abbiamo date?", "it",
      "nda-vellacott-brannock", "Smart-meter pilot NDA (en), Inside Information section: possible dealing ban and an up-to-date list of individuals who received the information, supplied on request.", "held-out"),
 item("x3-it-07", "Per valutare il firmware dei misuratori di portata in vista di una licenza, possiamo scaricare o fare screenshot del codice sorgente nella data room? Quante persone possono accedervi?", "it",
      "nda-vellacott-aaltoranta", "One-way firmware evaluation NDA (en), Source Code and Data Room section: read-only access, no downloading, printing, photographing or screenshots, at most five named approved individuals.", "held-out"),
 item("x3-it-08", "Nell'accordo di riservatezza a senso unico per valutare la licenza del firmware, le controversie vanno davanti a un giudice o in arbitrato? Con quanti arbitri e in che lingua?", "it",
      "nda-vellacott-aaltoranta", "One-way firmware evaluation NDA (en), Arbitration section: arbitration under the national chamber of commerce rules, sole arbitrator, seat in the capital, English language, confidential.", "dev"),
 item("x3-it-09", "Nelle trattative per fornire sistemi di monitoraggio della qualità dell'acqua a una società mineraria, chi può vedere le informazioni commercialmente sensibili come prezzi, margini e strategia di offerta?", "it",
      "nda-vellacott-kittredge", "Tailings-water monitoring NDA (en), clause 9 (Clean Team): competitively sensitive information only to the listed clean team members, with a twelve-month pricing bar and aggregated, counsel-cleared summaries.", "dev"),
 item("x3-it-10", "Quando i nostri tecnici visitano il banco prova del partner con cui valutiamo lo sviluppo congiunto di un sensore per il teleriscaldamento, devono essere sempre accompagnati e rispettare le regole di sicurezza del sito?", "it",
      "nda-vellacott-orrin", "District-heating sensor NDA (en), clause 10.1 (Visits to Premises): visitors follow the host's safety and security rules and remain accompanied at all times.", "held-out"),
]

for name, rows in (("xl-r2-gold.jsonl", R2), ("xl-r3-gold.jsonl", R3)):
    with open(HERE / name, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(name, len(rows))
