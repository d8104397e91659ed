"""Writes ../round4-gold.jsonl from the ITEMS below (run: python tools/build_gold.py).

Each item: (class, language, query type, query, expected, extras). Ids are r4-<lang>-<cls>-NN
in file order. `split` alternates dev / held-out inside each (class, language) stratum, in
file order, so both halves are balanced by class and language (odd strata give dev one more).
Off-topic items are `answerable: false` with no expected passage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from goldlib import p  # noqa: E402

CC = "civil-code-aurelia"
EN = "reg-eu-2025-1432-en"
IT = "reg-eu-2025-1432-it"
US = "usc-58-drone-delivery"
HL = "holiday-lets-registration-regulations"
J = "judgment-harrowgate-v-fennick-2024"
OR = "regolamento-orti-valdaria"
APP = "app-ortivivi-termini"

ABBR = {"identifier": "id", "conceptual": "con", "scenario": "scen", "date-sensitive": "date",
        "cross-reference": "xref", "cross-language": "xl", "no-doc-named": "nodoc", "off-topic": "off"}


ITEMS = [
    # ---- identifier ----
    ("identifier", "en", "identifier", "What does Article 3-2 of the Aurelian Civil Code say about a person who could not understand what they were doing when they acted?", [p(CC, "3-2")], {}),
    ("identifier", "en", "identifier", "Article 12-2 Civil Code of Aurelia time limit for rescission", [p(CC, "12-2")], {}),
    ("identifier", "en", "identifier", "What act is listed in item (iv) of Article 9-2(2) of the Civil Code of Aurelia?", [p(CC, "9-2")], {"notes": "answer: accepting or renouncing a succession / division of an estate"}),
    ("identifier", "en", "identifier", "What does § 105(b) of Title 58 require about deleting data collected by delivery drones?", [p(US, "105")], {}),
    ("identifier", "en", "identifier", "Article 4(1)(b) Regulation (EU) 2025/1432 battery health threshold", [p(EN, "4")], {"notes": "80 %, or replace the battery"}),
    ("identifier", "en", "identifier", "What does regulation 8(3) of the Short-term Holiday Lets (Registration) (England) Regulations require before a penalty notice is given?", [p(HL, "8")], {"notes": "8(3) reads the same in both versions, so no version; notice of intent + 14 days"}),
    ("identifier", "en", "identifier", "What did the tribunal hold at paragraph [17] of Harrowgate Coastal Lets v Fennick Borough Council?", [p(J, "17")], {}),
    ("identifier", "it", "identifier", "Cosa prevede l'art. 3-bis del regolamento sugli orti urbani del Comune di Valdaria?", [p(OR, "3-bis")], {}),
    ("identifier", "it", "identifier", "art. 10, comma 1, lettera d) regolamento orti urbani Valdaria", [p(OR, "10")], {"notes": "mancato pagamento del canone entro 60 giorni"}),
    ("identifier", "it", "identifier", "Cosa dice l'articolo 7 del regolamento (UE) 2025/1432 sui mercati online?", [p(IT, "7")], {}),
    ("identifier", "it", "identifier", "Allegato II del regolamento (UE) 2025/1432: cosa deve indicare il certificato di cancellazione?", [p(IT, "II")], {"notes": "Allegato II labelled 'II'"}),
    ("identifier", "it", "identifier", "Art. 8-bis del regolamento degli orti: a chi va il compost?", [p(OR, "8-bis")], {}),
    # ---- conceptual (plain words, avoiding the document's wording) ----
    ("conceptual", "en", "conceptual", "At what age does someone stop needing a parent's say-so for contracts under the Aurelian code?", [p(CC, "4"), p(CC, "5")], {}),
    ("conceptual", "en", "conceptual", "Can a teenager's parents let them run a small trade on their own account in Aurelia?", [p(CC, "6")], {}),
    ("conceptual", "en", "conceptual", "If someone goes missing when their boat goes down, how long must the family wait before the person can be treated as dead under the Aurelian code?", [p(CC, "17"), p(CC, "18")], {}),
    ("conceptual", "en", "conceptual", "How high up is a parcel-carrying drone allowed to go?", [p(US, "103")], {}),
    ("conceptual", "en", "conceptual", "Under the EU rules on second-life gadgets, can a phone that was only wiped clean and put in a fresh box be advertised as refurbished?", [p(EN, "4")], {"notes": "Art. 4(2); Art. 9(2) is the enforcement side"}),
    ("conceptual", "en", "conceptual", "How much cover must a drone courier with a fleet of 40 aircraft have in case it hurts someone?", [p(US, "106")], {"notes": "$5,000,000 per occurrence"}),
    ("conceptual", "en", "conceptual", "Does the Aurelian code let you possess and hand over a crypto token the way you would a physical object?", [p(CC, "47-2")], {}),
    ("conceptual", "it", "conceptual", "Una scuola elementare può avere un pezzo di terra del Comune di Valdaria per far coltivare gli alunni?", [p(OR, "3-bis")], {}),
    ("conceptual", "it", "conceptual", "Quanto si paga ogni anno per un orto comunale a Valdaria, e chi paga meno?", [p(OR, "9-bis")], {}),
    ("conceptual", "it", "conceptual", "Dopo quanto tempo senza zappare il proprio orto il Comune di Valdaria lo considera lasciato andare?", [p(OR, "7")], {}),
    ("conceptual", "it", "conceptual", "Per quanto tempo, come minimo, il venditore deve coprire i guasti di un telefono rigenerato secondo le norme europee?", [p(IT, "8")], {}),
    ("conceptual", "it", "conceptual", "Per quanto tempo l'app degli orti di Valdaria tiene le prenotazioni e i messaggi della bacheca?", [p(APP)], {"notes": "plain-prose headings: doc_id only"}),
    # ---- scenario ----
    ("scenario", "en", "conceptual", "We're an online shop based in Canada shipping refurbished phones to customers in France. Does the EU refurbished devices regulation apply to us, and do we need someone in the EU?", [p(EN, "2"), p(EN, "6")], {}),
    ("scenario", "en", "conceptual", "I sell broken phones for parts on an auction site, clearly marked as not working before anyone buys. Do I have to grade and test them under the EU rules?", [p(EN, "2")], {"notes": "Art. 2(3)(b)"}),
    ("scenario", "en", "conceptual", "Our delivery drone's camera recorded a family in their garden while it dropped off a parcel. How long can we keep that footage, and can we use it in an ad?", [p(US, "105")], {}),
    ("scenario", "en", "conceptual", "I let out my seaside flat in England on 95 nights last year, but on 6 of them the guests never turned up and I kept their money. Am I over the holiday-let limit?", [p(J, "15"), p(J, "13"), p(HL, "6")], {"notes": "judgment: paid unused nights count; refunded ones do not"}),
    ("scenario", "en", "conceptual", "My 17-year-old in Aurelia bought a motorbike without asking me. Can I get the sale undone?", [p(CC, "5")], {}),
    ("scenario", "en", "conceptual", "My elderly aunt in Aurelia has a court-appointed helper for decisions, but she signed a guarantee for her nephew's loan without telling him. Can it be cancelled?", [p(CC, "9-2")], {}),
    ("scenario", "it", "conceptual", "Ho 70 anni, sono in pensione, abito a Valdaria e ho un giardino di 80 metri quadri: posso chiedere un orto comunale e quanti punti avrei?", [p(OR, "3"), p(OR, "5")], {}),
    ("scenario", "it", "conceptual", "Mio cugino vorrebbe curare il mio orto comunale mentre sono all'estero per sei mesi: posso lasciarglielo?", [p(OR, "8"), p(OR, "7")], {}),
    ("scenario", "it", "conceptual", "Ho spruzzato un diserbante chimico nel mio orto di Valdaria: cosa rischio?", [p(OR, "11"), p(OR, "8")], {}),
    ("scenario", "it", "conceptual", "Vendo smartphone ricondizionati tramite un marketplace: cosa devo mostrare nella pagina del prodotto?", [p(IT, "5")], {}),
    # ---- date-sensitive ----
    ("date-sensitive", "en", "date-sensitive", "What is the maximum penalty a council can impose on a holiday-let host in England?", [p(HL, "8", "2021")], {"as_of": "2023-06-01", "must_not": [p(HL, "8", "2025")], "notes": "£5,000"}),
    ("date-sensitive", "en", "date-sensitive", "What is the maximum penalty a council can impose on a holiday-let host in England now?", [p(HL, "8", "2025")], {"as_of": "2026-01-15", "must_not": [p(HL, "8", "2021")], "notes": "£15,000"}),
    ("date-sensitive", "en", "date-sensitive", "How long does a holiday-let host have to appeal a penalty notice to the First-tier Tribunal?", [p(HL, "9", "2025")], {"as_of": "2025-10-01", "must_not": [p(HL, "9", "2021")], "notes": "boundary day: the 2025 version is valid from 2025-10-01 (28 days)"}),
    ("date-sensitive", "en", "date-sensitive", "Do booking websites have to show a registration number on English holiday-let listings?", [p(HL, "3", "2025")], {"as_of": "2026-03-01", "must_not": [p(HL, "3", "2021")]}),
    ("date-sensitive", "en", "date-sensitive", "On how many nights a year can a second home in Fennick's Old Town ward be let to tourists?", [p(HL, "6", "2025"), p(HL, "6A", "2025")], {"as_of": "2025-12-01", "must_not": [p(HL, "6", "2021")], "notes": "60 nights (designated area, Schedule 3)"}),
    ("date-sensitive", "en", "date-sensitive", "What fee can a local housing authority charge to register a holiday let?", [p(HL, "4", "2021")], {"as_of": "2022-05-01", "must_not": [p(HL, "4", "2025")], "notes": "£150"}),
    ("date-sensitive", "it", "date-sensitive", "Quanti giorni ha chi affitta case vacanza in Inghilterra per impugnare la sanzione?", [p(HL, "9", "2021")], {"as_of": "2024-03-01", "must_not": [p(HL, "9", "2025")], "notes": "also cross-language; 21 days"}),
    ("date-sensitive", "it", "date-sensitive", "Importo massimo della sanzione per chi affitta case vacanza in Inghilterra senza rispettare le regole", [p(HL, "8", "2025")], {"as_of": "2025-11-01", "must_not": [p(HL, "8", "2021")], "notes": "also cross-language"}),
    ("date-sensitive", "it", "date-sensitive", "Entro quando il governo inglese deve pubblicare la relazione di riesame sulla registrazione delle case vacanza?", [p(HL, "11", "2021")], {"as_of": "2022-01-01", "must_not": [p(HL, "11", "2025")], "notes": "also cross-language; before 6 April 2026"}),
    ("date-sensitive", "it", "date-sensitive", "Dopo due sanzioni in due anni il comune inglese può cancellare la registrazione della casa vacanza?", [p(HL, "8", "2021")], {"as_of": "2024-06-01", "must_not": [p(HL, "8", "2025")], "notes": "also cross-language; in 2024 no (8(5) only from 2025-10-01)"}),
    # ---- cross-reference ----
    ("cross-reference", "en", "cross-reference", "Which articles does the penalties article of Regulation (EU) 2025/1432 point back to, and which breach carries the 4 % turnover fine?", [p(EN, "10")], {"expected_xrefs": [p(EN, "4")]}),
    ("cross-reference", "en", "cross-reference", "Which sections does the civil penalty in § 107 of Title 58 refer to?", [p(US, "107")], {"expected_xrefs": [p(US, "102"), p(US, "103"), p(US, "105")]}),
    ("cross-reference", "en", "cross-reference", "Regulation 8(1) of the holiday lets regulations says a penalty notice must follow a set form. What must that form contain?", [p(HL, "8"), p(HL, "2")], {"expected_xrefs": [p(HL, "2")], "notes": "Schedule 2 labelled '2' (collides with regulation 2, Interpretation; see README); same text in both versions"}),
    ("cross-reference", "en", "cross-reference", "Article 11 of the Aurelian Civil Code mentions a person referred to in Article 9-2. Who is that person?", [p(CC, "11")], {"expected_xrefs": [p(CC, "9-2")]}),
    ("cross-reference", "en", "cross-reference", "Under Article 18 of the Aurelian Civil Code, when is a missing person deemed to have died, given the two cases in Article 17?", [p(CC, "18")], {"expected_xrefs": [p(CC, "17")]}),
    ("cross-reference", "en", "cross-reference", "Article 5(1)(a) of the refurbished devices regulation requires the grade to be shown; where is the grade assigned and what do the grades mean?", [p(EN, "5")], {"expected_xrefs": [p(EN, "4"), p(EN, "I")], "notes": "Annex I labelled 'I'"}),
    ("cross-reference", "it", "cross-reference", "L'art. 10 del regolamento orti di Valdaria richiama i divieti dell'art. 8: quali di essi comportano la decadenza?", [p(OR, "10")], {"expected_xrefs": [p(OR, "8")]}),
    ("cross-reference", "it", "cross-reference", "A quale divieto si riferisce la sanzione dell'art. 11, comma 1, del regolamento orti di Valdaria?", [p(OR, "11")], {"expected_xrefs": [p(OR, "8")]}),
    ("cross-reference", "it", "cross-reference", "Art. 3-bis, comma 3, regolamento orti: come si assegnano gli orti riservati rimasti liberi secondo la graduatoria richiamata?", [p(OR, "3-bis")], {"expected_xrefs": [p(OR, "5")]}),
    ("cross-reference", "it", "cross-reference", "Il rappresentante di cui all'art. 6 del regolamento (UE) 2025/1432 di quali obblighi risponde in solido?", [p(IT, "6")], {"expected_xrefs": [p(IT, "4"), p(IT, "5")]}),
    # ---- cross-language ----
    ("cross-language", "en", "conceptual", "In the Valdaria allotment rules, how is the waiting list scored, and do retired people get extra points?", [p(OR, "5")], {}),
    ("cross-language", "en", "conceptual", "Am I allowed to sell the tomatoes I grow on my Valdaria council allotment?", [p(OR, "8"), p(APP)], {}),
    ("cross-language", "en", "conceptual", "Who is the data controller for the OrtiVivi allotment app, and in which country are its servers?", [p(APP)], {}),
    ("cross-language", "en", "conceptual", "How does the Italian version of Regulation 2025/1432 define the person who restores and re-sells a used device?", [p(IT, "3")], {"notes": "the English question asks for the Italian text; EN art. 3 is its translation"}),
    ("cross-language", "it", "conceptual", "Un drone per le consegne può passare sopra una partita di calcio negli Stati Uniti?", [p(US, "103"), p(US, "101")], {}),
    ("cross-language", "it", "conceptual", "Nel codice civile di Aurelia, cosa succede se un minorenne inganna l'altra parte facendosi credere maggiorenne?", [p(CC, "12")], {}),
    ("cross-language", "it", "conceptual", "Nella sentenza Harrowgate contro Fennick, le notti pagate ma non godute contano per il limite di 90 notti?", [p(J, "13"), p(J, "15")], {}),
    ("cross-language", "it", "conceptual", "Quali persone giuridiche straniere sono riconosciute dal codice civile di Aurelia?", [p(CC, "35")], {}),
    # ---- no document named ----
    ("no-doc-named", "en", "conceptual", "Is a company liable for harm its director causes to someone while carrying out company duties?", [p(CC, "38")], {}),
    ("no-doc-named", "en", "conceptual", "How many nights in a row can a stay last before it stops counting as a short-term let?", [p(HL, "2")], {"notes": "fewer than 31 consecutive nights; same in both versions"}),
    ("no-doc-named", "en", "conceptual", "When is a notice sent by first class post on a Friday treated as having been given?", [p(J, "17"), p(J, "16")], {}),
    ("no-doc-named", "en", "conceptual", "What is the shortest warranty a seller can give on a second-hand laptop that was restored before resale?", [p(EN, "8")], {}),
    ("no-doc-named", "it", "conceptual", "Chi fa parte del comitato che gestisce le aree ortive e cosa decide?", [p(OR, "9")], {}),
    ("no-doc-named", "it", "conceptual", "L'app usa la posizione del telefono per aprire il cancello dell'orto? La posizione viene salvata?", [p(APP)], {}),
    ("no-doc-named", "it", "conceptual", "Quali funzioni di un telefono usato vanno provate prima di rivenderlo come rigenerato?", [p(IT, "I"), p(IT, "4")], {"notes": "Allegato I, parte A"}),
    ("no-doc-named", "it", "conceptual", "Dopo un naufragio, quando una persona dispersa può essere dichiarata scomparsa e considerata morta?", [p(CC, "17"), p(CC, "18")], {"notes": "also cross-language (English document)"}),
    # ---- off-topic / unanswerable ----
    ("off-topic", "en", "conceptual", "How long should I boil an egg to get a runny yolk?", [], {}),
    ("off-topic", "en", "conceptual", "Who won the Champions League final in 2019?", [], {}),
    ("off-topic", "en", "conceptual", "What is the statute of limitations for medical malpractice claims in California?", [], {}),
    ("off-topic", "en", "conceptual", "Under the Companies Act 2006, when must a private company file its annual accounts?", [], {}),
    ("off-topic", "en", "conceptual", "What is the corporate tax rate in Ireland?", [], {}),
    ("off-topic", "en", "conceptual", "How do I register a trademark in Japan?", [], {}),
    ("off-topic", "en", "conceptual", "When is the deer hunting season in Scotland?", [], {}),
    ("off-topic", "en", "conceptual", "Under the Aurelian Civil Code, how long is the limitation period for a claim for unpaid rent?", [], {"notes": "plausible: the extract has no limitation-period article (only 12-2, rescission)"}),
    ("off-topic", "en", "conceptual", "What is the speed limit for e-scooters on public roads in the UK?", [], {}),
    ("off-topic", "en", "conceptual", "Under the EU refurbished devices regulation, what VAT rate applies to refurbished phones?", [], {"notes": "plausible: the regulation says nothing on VAT"}),
    ("off-topic", "en", "conceptual", "How many players are on the field in a rugby union team?", [], {}),
    ("off-topic", "en", "conceptual", "Can my landlord in England raise the rent during a fixed-term assured shorthold tenancy?", [], {"notes": "plausible legal question; no tenancy law in the corpus"}),
    ("off-topic", "it", "conceptual", "Come si prepara il ragù alla bolognese?", [], {}),
    ("off-topic", "it", "conceptual", "Chi ha vinto il Giro d'Italia nel 2022?", [], {}),
    ("off-topic", "it", "conceptual", "Entro quanti giorni si deve impugnare un licenziamento in Italia?", [], {}),
    ("off-topic", "it", "conceptual", "Quanto costa il canone RAI quest'anno?", [], {}),
    ("off-topic", "it", "conceptual", "Il regolamento degli orti di Valdaria prevede un contributo per comprare un motocoltivatore?", [], {"notes": "plausible: the regolamento has no such contribution"}),
    ("off-topic", "it", "conceptual", "Quali sono gli orari di apertura della biblioteca comunale di Valdaria?", [], {}),
    ("off-topic", "it", "conceptual", "Come si calcola l'IMU sulla seconda casa?", [], {}),
    ("off-topic", "it", "conceptual", "In che mese si piantano i pomodori in Emilia-Romagna?", [], {"notes": "near the allotment topic, but no document answers it"}),
]


def build() -> list[dict]:
    counters: dict[tuple[str, str], int] = {}
    strata: dict[tuple[str, str], int] = {}
    out = []
    for cls, lang, qtype, query, expected, extras in ITEMS:
        n = counters[(lang, cls)] = counters.get((lang, cls), 0) + 1
        k = strata[(cls, lang)] = strata.get((cls, lang), 0) + 1
        answerable = cls != "off-topic"
        tag = f"[class:{cls}]"
        notes = f"{tag} {extras['notes']}" if extras.get("notes") else tag
        item = {"id": f"r4-{lang}-{ABBR[cls]}-{n:02d}", "query": query, "type": qtype, "language": lang,
                "expected": expected, "expected_xrefs": extras.get("expected_xrefs", []),
                "as_of": extras.get("as_of"), "groups": [], "must_not": extras.get("must_not", []),
                "notes": notes, "answerable": answerable, "split": "dev" if k % 2 == 1 else "held-out"}
        assert answerable == bool(expected), item["id"]
        out.append(item)
    return out


if __name__ == "__main__":
    items = build()
    path = Path(__file__).resolve().parent.parent / "round4-gold.jsonl"
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    print(f"wrote {len(items)} items to {path}")
