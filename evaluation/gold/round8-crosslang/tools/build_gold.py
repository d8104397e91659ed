"""Write the round-8 cross-language gold files (xl-sample-gold.jsonl, xl-r4-gold.jsonl).

Every question is in one language and is answered by ONE document in the other language.
Plain Python, standard library `json` only. Run from anywhere:

    python evaluation/gold/round8-crosslang/tools/build_gold.py
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.dirname(HERE)
TAG = "[class:cross-language] "

# (id, query, query language, doc_id, split, notes-after-tag)
SAMPLE = [
    # ---- English questions on Italian documents (corpus S) ----
    ("x8s-en-01",
     "We sometimes place very small orders of sensors with our component supplier, well under a thousand euros. "
     "Can the supplier add a surcharge for orders that small?",
     "en", "contratto-fornitura-acme", "dev",
     "contratto-fornitura-acme (it), art. 4(2): for Orders under EUR 1,000.00 the supplier may charge a "
     "EUR 35.00 handling contribution (contributo spese)."),
    ("x8s-en-02",
     "Our parts supplier keeps delivering late. What penalty can we charge for each day of delay, is there a "
     "ceiling, and what can we do once that ceiling is reached?",
     "en", "contratto-fornitura-acme", "held-out",
     "contratto-fornitura-acme (it), art. 7(1)-(3): 0.5% of the Order value per working day of delay attributable "
     "to the supplier, capped at 10% of the Order value; further damages still recoverable (art. 1382 c.c.); once "
     "the cap is exceeded the customer may declare the contract terminated by written notice (art. 1456 c.c.)."),
    ("x8s-en-03",
     "If we have complained in writing about three late deliveries during the last twelve months before the "
     "contract expires, does our supply agreement still renew automatically?",
     "en", "contratto-fornitura-acme", "dev",
     "contratto-fornitura-acme (it), art. 5(1-bis): no - tacit renewal does not operate if the customer contested "
     "in writing at least three delivery delays in the twelve months before expiry (otherwise art. 5(1): 3 years, "
     "renewing for 1-year periods unless 6 months' notice)."),
    ("x8s-en-04",
     "We signed a framework deal to buy electronic components about eight months ago and now want out. "
     "How much notice do we have to give, and will leaving this early cost us anything?",
     "en", "contratto-fornitura-acme", "held-out",
     "contratto-fornitura-acme (it), art. 5(2)-(3): withdrawal at any time on 90 days' written notice by PEC; "
     "if the customer withdraws before the end of the first year it pays the supplier 5% of the value of the "
     "Orders issued up to the withdrawal."),
    ("x8s-en-05",
     "How long are the sensors we buy from our supplier covered against defects, and how soon after spotting "
     "a fault do we have to report it?",
     "en", "contratto-fornitura-acme", "dev",
     "contratto-fornitura-acme (it), art. 8(1)-(2): warranty of conformity and freedom from defects for 24 months "
     "from delivery; defects reported within 30 days of discovery; supplier replaces defective Products within "
     "15 days."),
    ("x8s-en-06",
     "The cooling in our server room broke down in the middle of the night. How quickly does our maintenance "
     "contractor have to pick up an urgent call, and what do they owe us if they are late?",
     "en", "contratto-servizi-beta", "held-out",
     "contratto-servizi-beta (it), art. 3(2) and Allegato B(3): urgent interventions taken in charge within two "
     "hours of the call, 24/7; art. 7(1)-(2): penalty of EUR 250.00 per hour of delay, up to 10% of the annual "
     "fee, set off against sums due to the supplier."),
    ("x8s-en-07",
     "What hourly rate can the firm that maintains our data centre charge for extraordinary repairs that are "
     "not covered by the annual fee?",
     "en", "contratto-servizi-beta", "dev",
     "contratto-servizi-beta (it), art. 4(2) and Allegato B(2): extraordinary interventions outside the fee are "
     "paid at EUR 65.00 per hour plus VAT (annual fee EUR 84,000.00 plus VAT, art. 4(1): quarterly in advance)."),
    ("x8s-en-08",
     "Can the company that maintains our electrical and air-conditioning systems simply pull out of the "
     "contract whenever it likes?",
     "en", "contratto-servizi-beta", "held-out",
     "contratto-servizi-beta (it), art. 5(3): no - the supplier may withdraw only for just cause (giusta causa) "
     "and with 120 days' written notice (the client, art. 5(2), may withdraw at any time on 60 days' notice)."),
    ("x8s-en-09",
     "Is our data-centre maintenance provider allowed to subcontract the work to another company?",
     "en", "contratto-servizi-beta", "dev",
     "contratto-servizi-beta (it), art. 6(1): not without the client's prior written consent, in whole or in part."),
    ("x8s-en-10",
     "What is the minimum liability insurance our facilities maintenance contractor must carry?",
     "en", "contratto-servizi-beta", "held-out",
     "contratto-servizi-beta (it), art. 8(1): the supplier is liable for damage to persons and property and keeps "
     "an insurance policy with a limit of not less than EUR 2,000,000.00 per claim (per sinistro)."),
    # ---- Italian questions on English documents (corpus S) ----
    ("x8s-it-01",
     "Se paghiamo in ritardo una fattura non contestata del fornitore che ci gestisce la piattaforma di analisi "
     "dati in hosting, quali interessi di mora maturano?",
     "it", "msa-acme-northwind", "dev",
     "msa-acme-northwind (en), cl. 6.3: interest on the overdue undisputed amount at 4% a year above the Bank of "
     "England base rate, from the due date until payment."),
    ("x8s-it-02",
     "Entro quanto tempo il fornitore che tratta i nostri dati personali sulla sua piattaforma deve avvisarci "
     "di una violazione dei dati?",
     "it", "msa-acme-northwind", "held-out",
     "msa-acme-northwind (en), cl. 9.2: the supplier (processor) notifies the customer without undue delay, and in "
     "any event within 48 hours, of becoming aware of a personal data breach."),
    ("x8s-it-03",
     "Il fornitore della nostra piattaforma di analisi in hosting sta per essere comprato da un nostro "
     "concorrente diretto. Possiamo sciogliere il contratto? Con quanto preavviso?",
     "it", "msa-acme-northwind", "dev",
     "msa-acme-northwind (en), cl. 16.2(b): yes - the customer may terminate on 30 days' written notice if the "
     "supplier undergoes a change of control in favour of a competitor of the customer."),
    ("x8s-it-04",
     "Da due mesi il fornitore non riesce a erogare il servizio per cause di forza maggiore: possiamo chiudere "
     "il contratto?",
     "it", "msa-acme-northwind", "held-out",
     "msa-acme-northwind (en), cl. 18.1: the affected party is not in breach, but if the delay continues for 60 "
     "days the party not affected may terminate by giving 14 days' written notice."),
    ("x8s-it-05",
     "Il mio contratto d'affitto a tempo determinato è scaduto, il padrone di casa non si è rivolto al giudice "
     "e io abito ancora nell'appartamento. Posso restare? A quali condizioni continua il rapporto?",
     "it", "housing-act-1988", "dev",
     "housing-act-1988 (en, both versions), s. 5(2)-(3): yes - when a fixed-term assured tenancy ends other than by "
     "court order or surrender, a periodic tenancy arises immediately, with the same parties, the same premises "
     "and the same rent periods as the last period of the fixed term."),
    ("x8s-it-06",
     "Il proprietario dice che vuole tornare a vivere nella casa che mi ha affittato. In quel caso il giudice è "
     "obbligato a ordinarmi di lasciarla?",
     "it", "housing-act-1988", "held-out",
     "housing-act-1988 (en, both versions), Sch. 2 Ground 1 (Part I, mandatory) with s. 7(2): yes, if the ground is "
     "made out - the landlord gave written notice no later than the start of the tenancy that possession might be "
     "recovered on this ground, and either lived there as his only or principal home before the tenancy or "
     "requires it as his or his spouse's only or principal home; the ground must be named in the s. 8 notice."),
    ("x8s-it-07",
     "Il locatore vuole riprendersi la casa sostenendo che ho violato un obbligo del contratto. Prima di farmi "
     "causa deve mandarmi un avviso scritto? Ed entro quanto tempo dall'avviso deve iniziare il giudizio?",
     "it", "housing-act-1988", "dev",
     "housing-act-1988 (en, both versions), s. 8(1)-(3): the court does not entertain possession proceedings unless "
     "the landlord has served a notice in the prescribed form naming the grounds (e.g. Ground 12, breach of an "
     "obligation other than rent) - unless the court finds it just and equitable to dispense with it; proceedings "
     "may not begin before the date in the notice nor later than twelve months from its service."),
    ("x8s-it-08",
     "Abbiamo firmato un accordo di riservatezza reciproco in cui l'obbligo di segretezza dura due anni. "
     "Se nasce una controversia, quale legge si applica e quali giudici sono competenti?",
     "it", "nda-acme-globex", "held-out",
     "nda-acme-globex (en), cl. 6: confidentiality for two (2) years (the only NDA with 2 years); cl. 9: law of "
     "England and Wales, exclusive jurisdiction of the courts of England and Wales."),
    ("x8s-it-09",
     "Il nostro NDA reciproco vincola le parti alla riservatezza per tre anni dalla firma. In caso di lite, "
     "da quale legge è regolato e davanti a quali tribunali si va?",
     "it", "nda-acme-initech", "dev",
     "nda-acme-initech (en), cl. 6: confidentiality for three (3) years (the only NDA with 3 years); cl. 9: laws of "
     "the State of New York, exclusive jurisdiction of the state and federal courts in New York County."),
    ("x8s-it-10",
     "Un accordo di non divulgazione reciproco, firmato solo per valutare una possibile collaborazione, ci "
     "obbliga alla riservatezza per cinque anni dalla sua data. Quale ordinamento si applica alle controversie?",
     "it", "nda-acme-umbrella", "held-out",
     "nda-acme-umbrella (en), cl. 6: confidentiality for five (5) years from the date of the agreement (the only NDA "
     "with 5 years); cl. 9: laws of Ireland, exclusive jurisdiction of the courts of Ireland."),
]

R4 = [
    # ---- English questions on Italian documents (corpus R) ----
    ("x8r-en-01",
     "My 15-year-old wants to use the community garden app to book watering slots. Can a teenager open an "
     "account?",
     "en", "app-ortivivi-termini", "dev",
     "app-ortivivi-termini (it), 'Chi può usare l'app': minimum age 14; users aged 14 to 18 may use the app only "
     "through an account linked to that of a parent who holds a plot."),
    ("x8r-en-02",
     "How many watering turns am I allowed to book each week in the allotment app?",
     "en", "app-ortivivi-termini", "held-out",
     "app-ortivivi-termini (it), 'Cosa puoi fare e cosa no': at most three irrigation turns per week."),
    ("x8r-en-03",
     "My allotment plot concession has ended. What happens to my account on the gardening app, and when will "
     "my data be deleted?",
     "en", "app-ortivivi-termini", "dev",
     "app-ortivivi-termini (it), 'Il tuo account': the account stays active read-only for 60 days, then is closed; "
     "'Per quanto tempo li teniamo': data deleted within 90 days of closure, except what the municipality must "
     "keep by law."),
    ("x8r-en-04",
     "The garden app asked for permission to use my phone's location. Does it track where I am and keep that "
     "information?",
     "en", "app-ortivivi-termini", "held-out",
     "app-ortivivi-termini (it), 'Quali dati raccogliamo': only if the user allows it, the location is used solely to "
     "open the electronic gate when the user is at the entrance, and it is not stored."),
    ("x8r-en-05",
     "If the allotment app changes its terms of use, how much warning do I get, and what can I do if I don't "
     "agree?",
     "en", "app-ortivivi-termini", "dev",
     "app-ortivivi-termini (it), 'Modifiche a queste condizioni': important changes are notified in the app at least "
     "15 days in advance; a user who disagrees may close the account; continuing to use the app after that date "
     "means the new terms apply."),
    ("x8r-en-06",
     "I'm 70 and retired, and I'm applying for a council vegetable plot. How many points will my age and being "
     "a pensioner earn me in the ranking?",
     "en", "regolamento-orti-valdaria", "held-out",
     "regolamento-orti-valdaria (it), art. 5(1)(a)-(b): age 65 or over 4 points, pensioner or unemployed 3 points, "
     "so 7 points in all (ties go to the earlier application, art. 5(2))."),
    ("x8r-en-07",
     "How much is the yearly fee for a municipal allotment plot, does it include water, and is there a "
     "reduction for people on a low income?",
     "en", "regolamento-orti-valdaria", "dev",
     "regolamento-orti-valdaria (it), art. 9-bis: EUR 40 a year per plot including water, paid by 31 March; halved "
     "for holders with ISEE below EUR 10,000 and for schools and associations."),
    ("x8r-en-08",
     "Am I allowed to spray chemical weedkiller on my allotment? What's the fine if I'm caught?",
     "en", "regolamento-orti-valdaria", "held-out",
     "regolamento-orti-valdaria (it), art. 8(2): chemical herbicides, pesticides and synthetic fertilisers are "
     "prohibited, only products allowed in organic farming; art. 11(1): administrative fine of EUR 100 to 500 "
     "(unless a criminal offence)."),
    ("x8r-en-09",
     "My allotment concession is coming to an end. Is it renewed automatically, and will it count against me "
     "if I apply again?",
     "en", "regolamento-orti-valdaria", "dev",
     "regolamento-orti-valdaria (it), art. 6(1)-(2): the concession lasts three years and is not tacitly renewed; the "
     "holder may apply in the next call, but the ranking score is cut by 2 points unless there are no new "
     "applicants for the area."),
    ("x8r-en-10",
     "Are any of the town's garden plots set aside for young people? I'm 28.",
     "en", "regolamento-orti-valdaria", "held-out",
     "regolamento-orti-valdaria (it), art. 3-bis(1): 20% of the plots in each area are reserved for applicants aged "
     "18 to 35 (unassigned reserved plots go down the general ranking, art. 3-bis(3))."),
    # ---- Italian questions on English documents (corpus R) ----
    ("x8r-it-01",
     "Mio fratello era a bordo di una nave che è affondata e da allora non si sa più nulla di lui. Dopo quanto "
     "tempo si può chiedere che venga dichiarato scomparso, e da quale momento si considera morto?",
     "it", "civil-code-aurelia", "dev",
     "civil-code-aurelia (en), art. 17(2): the family court may declare disappearance when it has been unknown for "
     "one year after the danger passed whether the person is alive; art. 18: the person is deemed to have died "
     "when the danger passed."),
    ("x8r-it-02",
     "Ho venduto il mio motorino a un ragazzo che era ancora minorenne e che adesso è diventato maggiorenne. "
     "Posso chiedergli di dirmi se conferma o no l'acquisto? E se non mi risponde?",
     "it", "civil-code-aurelia", "held-out",
     "civil-code-aurelia (en), art. 11(1): once the person has full capacity, the counterparty may fix a period of "
     "not less than one month and demand an answer on ratification; if no answer is sent in time, the act is "
     "deemed ratified (the act is otherwise rescindable, art. 5(2))."),
    ("x8r-it-03",
     "Per il codice civile, un token digitale che può essere detenuto da una sola persona alla volta e "
     "trasferito ad altri è una \"cosa\"? Gli si applicano le regole sul possesso dei beni mobili?",
     "it", "civil-code-aurelia", "dev",
     "civil-code-aurelia (en), art. 47-2(1)-(2): such a transferable digital record is not a thing, but the rules on "
     "possession and transfer of movables apply to it mutatis mutandis; not for personal data or records whose "
     "transfer is prohibited by statute."),
    ("x8r-it-04",
     "La nostra società di consegne con i droni usa una flotta di 40 velivoli. Qual è la copertura "
     "assicurativa minima obbligatoria per ogni sinistro?",
     "it", "usc-58-drone-delivery", "held-out",
     "usc-58-drone-delivery (en), § 106(b)(2): USD 5,000,000 per occurrence for an operator using more than 25 "
     "aircraft (USD 1,000,000 for 25 or fewer)."),
    ("x8r-it-05",
     "Le immagini di persone e case riprese dai droni durante le consegne: per quanto tempo possiamo "
     "conservarle? Possiamo usarle per fare pubblicità?",
     "it", "usc-58-drone-delivery", "dev",
     "usc-58-drone-delivery (en), § 105(b)-(c): data other than what is needed to confirm a delivery must be deleted "
     "within 30 days of collection, unless under legal hold or the person consented in writing; it may not be "
     "sold or used for advertising."),
    ("x8r-it-06",
     "Il comune può vietare con una propria ordinanza le consegne con drone nelle ore serali?",
     "it", "usc-58-drone-delivery", "held-out",
     "usc-58-drone-delivery (en), § 108(a): no - no State or political subdivision may regulate the altitude, routes "
     "or hours of delivery drones (hours are set federally, § 103(b): 7 a.m. to 9 p.m. over populated areas); "
     "§ 108(b) saves only trespass/nuisance/privacy, zoning of takeoff and landing sites, and taxation."),
    ("x8r-it-07",
     "Affitto ai turisti il mio appartamento solo per una decina di notti all'anno. Devo comunque registrarlo "
     "presso l'autorità locale?",
     "it", "holiday-lets-registration-regulations", "dev",
     "holiday-lets-registration-regulations (en, both versions), reg. 3(2): no - the registration requirement does "
     "not apply to a dwelling let as a short-term let on no more than 14 nights in a calendar year."),
    ("x8r-it-08",
     "Quante persone posso ospitare al massimo in un alloggio per vacanze brevi con due camere da letto? "
     "E quali dotazioni antincendio sono obbligatorie?",
     "it", "holiday-lets-registration-regulations", "held-out",
     "holiday-lets-registration-regulations (en, both versions), Sch. 1: maximum guests two per bedroom plus two, "
     "i.e. 6; a smoke alarm on each storey, a carbon monoxide alarm where there is a fixed fuel-burning appliance, "
     "a fire blanket in the kitchen and a written fire escape plan near the main entrance (plus gas certificate "
     "within 12 months and electrical report within 5 years)."),
    ("x8r-it-09",
     "Un ospite ha pagato alcune notti nella mia casa vacanze ma non si è mai presentato. Quelle notti contano "
     "per il limite annuale di notti di affitto breve? E se invece gli avevo rimborsato la prenotazione?",
     "it", "judgment-harrowgate-v-fennick-2024", "held-out",
     "judgment-harrowgate-v-fennick-2024 (en), paras [13]-[15]: nights paid for but not used count, because the "
     "definition turns on letting for payment, not occupation; nights cancelled with a full refund do not count."),
    ("x8r-it-10",
     "L'autorità locale mi ha spedito per posta una sanzione sugli affitti brevi. Il termine per fare ricorso "
     "decorre dal giorno della spedizione o da quando la lettera mi arriva?",
     "it", "judgment-harrowgate-v-fennick-2024", "dev",
     "judgment-harrowgate-v-fennick-2024 (en), paras [16]-[17]: under s. 7 Interpretation Act 1978 a posted notice is "
     "given when it would be delivered in the ordinary course of post (unless the contrary is proved), not on "
     "posting: sent first class on a Friday, given on the Tuesday, so the appeal was in time."),
]


def item(row):
    qid, query, lang, doc_id, split, notes = row
    return {
        "id": qid,
        "query": query,
        "type": "conceptual",
        "language": lang,
        "expected": [{"doc_id": doc_id}],
        "expected_xrefs": [],
        "as_of": None,
        "groups": [],
        "must_not": [],
        "notes": TAG + notes,
        "answerable": True,
        "split": split,
    }


def write(name, rows):
    path = os.path.join(OUT_DIR, name)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(item(row), ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} items to {path}")


if __name__ == "__main__":
    write("xl-sample-gold.jsonl", SAMPLE)
    write("xl-r4-gold.jsonl", R4)
