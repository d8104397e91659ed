"""Write round2-gold.jsonl from the items below (python tools/build_gold.py).

Each item's notes start with "[class:<primary>]" and, where it also exercises other
classes, "[also:<a>,<b>]". Classes: clause-in-doc, cross-language, unnumbered-heading,
loose-names, look-alikes, versions, identifiers, cross-references, access-control,
open-doc-type.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

K, H, P, S, T = (f"nda-corvane-{n}" for n in ("kestrel", "halvorsen", "pemberton", "saltmarsh", "tidewell"))
NDAS = (K, H, P, S, T)
TL, LK, DD = "contratto-fornitura-tecnoluce", "contratto-licenza-kestrel", "contratto-servizi-dolomiti"
ACT = "commercial-payment-practices-act-2022"
SAAS = "saas-corvane-larchmont"
PRIV = "privacy-notice-corvane"
NOTE = "privileged-note-kestrel"
JUD = "judgment-halberd-v-quillfeather"
GROUP = "legal-disputes"

GOLD = goldlib.GoldBuilder("r2", Path(__file__).resolve().parent.parent / "round2-gold.jsonl")
q, p = GOLD.q, goldlib.p


def other_ndas(*keep: str) -> list[dict]:
    return goldlib.others(NDAS, *keep)


# ---------------------------------------------------------------------------------------------
# ENGLISH
# ---------------------------------------------------------------------------------------------

# 1. clause-in-doc (the question avoids the clause's own words)
q("en", "clause-in-doc", "Is Corvane on the hook for the sales Larchmont misses out on while the warehouse platform is down?",
  [p(SAAS, "15.2")], "Exclusion of loss of profits / sales / indirect loss (clause 15.2). 15.3 is the cap, not the answer.")
q("en", "clause-in-doc", "What is the most Corvane could ever be made to pay Larchmont in damages in a single year?",
  [p(SAAS, "15.3")], "General annual cap: 125% of the Fees paid or payable in that Contract Year. 15.4 is a separate data-protection cap (not asked).")
q("en", "clause-in-doc", "If the warehouse staff records we host for Larchmont get leaked, is there a different ceiling on what we owe them?",
  [p(SAAS, "15.4")], "Separate data-protection cap of GBP 5,000,000 over the Subscription Term, outside the 15.3 cap.")
q("en", "clause-in-doc", "How long does Larchmont have to settle a Corvane bill?",
  [p(SAAS, "7.3")], "30 days from receipt of a valid invoice. 7.4 (disputes, 10 Business Days) is a different period.")
q("en", "clause-in-doc", "Larchmont doesn't like a new outside company Corvane wants to bring in to handle its data. What can it do?",
  [p(SAAS, "9.4")], "Sub-processor change: 30 days' notice, objection on reasonable data-protection grounds, then termination of the affected part without the Early Termination Fee.")
q("en", "clause-in-doc", "Once the Larchmont subscription is over, how long can they still pull their data out and when is it wiped?",
  [p(SAAS, "19.2"), p(SAAS, "19.3")], "60-day Exit Period with export (19.2); deletion within 90 days after the Exit Period (19.3). Either chunk is a hit.")
q("en", "clause-in-doc", "Can Corvane cut off Larchmont's log-ins when Larchmont stops paying?",
  [p(SAAS, "17.1")], "Suspension: undisputed invoice unpaid > 30 days after due date and 10 Business Days' notice. (Termination for non-payment is 18.3, a further step.)")
q("en", "clause-in-doc", "Does the late payment legislation protect someone shopping as a private individual?",
  [p(ACT, "1")], "Section 1(2)(a): consumer contracts are excepted contracts. Section 1 is identical in both versions, so no version and no as_of.")
q("en", "clause-in-doc", "Can we write our purchase terms so that suppliers cannot charge us anything extra when we pay late?",
  [p(ACT, "12"), p(ACT, "5")], "Section 12 (terms excluding statutory interest / fixed sum are void unless a substantial contractual remedy) and s.5(4). Both sections read the same in both versions on this point; no as_of.")
q("en", "clause-in-doc", "Can Kestrel take apart the gripper prototypes and sensors lent to it to see how they are built?",
  [p(K, "8.2")], "Only the Kestrel NDA has a Samples clause; 8.2 forbids disassembly / reverse engineering of Samples.",
  also=("look-alikes",), must_not=other_ndas(K))

# 2. cross-language (English questions about Italian documents)
q("en", "cross-language", "Which court hears disputes under the Tecnoluce supply contract?",
  [p(TL, "21")], "Art. 21, comma 2: Foro di Milano, exclusive (not Brescia, where Tecnoluce is based). The other Italian contracts' forum clauses are wrong answers.",
  must_not=[p(LK, "18"), p(DD, "12")])
q("en", "cross-language", "What do we get from Tecnoluce if the lights arrive late, and is there a limit?",
  [p(TL, "8")], "Art. 8: 0.3% of the order value per working day of delay, up to 8%; termination of the order after 15 working days. Allegato C has a separate quarterly punctuality penalty (not the per-order answer).")
q("en", "cross-language", "How long is Tecnoluce's product guarantee, and how long after finding a fault do we have to report it?",
  [p(TL, "10")], "Art. 10: 36 months from delivery; defects reported within 60 days of discovery (derogating from art. 1495 c.c.).")
q("en", "cross-language", "What happens if we buy less from Tecnoluce in a year than we committed to?",
  [p(TL, "3")], "Art. 3, commi 2-3: Volume Minimo EUR 350,000; 8% of the shortfall as a lump-sum indemnity unless the shortfall is the supplier's fault.")
q("en", "cross-language", "What uptime does our Italian hosting provider promise for the warehouse platform?",
  [p(DD, "3")], "Art. 3, comma 1: 99.95% monthly availability (measurement in Allegato B).", also=("loose-names",))
q("en", "cross-language", "How much does Kestrel pay us for each robot cell it sells with our vision software, and is there a yearly floor?",
  [p(LK, "5")], "Art. 5: EUR 450 royalty per Cella Robotica; Royalty Minima EUR 60,000 per year (5.2).", also=("loose-names",))
q("en", "cross-language", "Can Kestrel's customers get the right to run our vision software?",
  [p(LK, "3")], "Art. 3.3: sublicence to end customers in object code, limited to the cell it is embedded in. (16.2 keeps those sublicences alive after termination; not asked.)")
q("en", "cross-language", "Does Kestrel get our source code if Corvane Italia goes bust?",
  [p(LK, "13")], "Art. 13: escrow with Fiduciaria Escrow Italia; release on liquidazione giudiziale or 90 days without security updates.")
q("en", "cross-language", "Does Kestrel have any exclusivity under its software licence?",
  [p(LK, "2")], "Art. 2.2-2.3: exclusive for agrifood robotic cells in Italy until 31 December 2026, lost if fewer than 40 such cells are sold by 30 June 2026.")

# 3. unnumbered headings
q("en", "unnumbered-heading", "How long does Corvane hold on to the CV of someone it didn't hire?",
  [p(PRIV)], "Privacy notice, heading 'How long we keep your information' (mixed case, unnumbered): 6 months after the recruitment process, or 12 more months with consent. The notice has no numbered units (no_structure), so doc_id only.")
q("en", "unnumbered-heading", "Does Corvane send my contact details to America?",
  [p(PRIV)], "Heading 'SENDING YOUR INFORMATION ABROAD': the CRM provider stores some data in the US (UK Extension to the Data Privacy Framework or the IDTA).")
q("en", "unnumbered-heading", "I work in a Larchmont warehouse and Corvane's system logs my scanner use. Who should I ask about that?",
  [p(PRIV)], "Heading 'WHO WE ARE': for customer staff data Corvane is a processor, so the employer (controller) is the first contact. The SaaS Schedule 3 lists the data but does not answer who to ask.")
q("en", "unnumbered-heading", "How quickly will Corvane answer if I ask for a copy of everything it holds about me?",
  [p(PRIV)], "Heading 'YOUR RIGHTS': one month, extendable by two months for complex requests.")
q("en", "unnumbered-heading", "Which legal system applies to the Larchmont platform contract?",
  [p(SAAS)], "The answer (law of England and Wales) sits under the unnumbered heading 'GOVERNING LAW' after clause 24.6; the parser folds it into the chunk labelled '24.6' (counterparts), so doc_id only. The clause text never says 'governing law'; only the heading does.")
q("en", "unnumbered-heading", "Can we hire away Halvorsen engineers we met on the telemetry project?",
  [p(H)], "Halvorsen NDA (unnumbered ALL-CAPS headings), heading 'NON-SOLICITATION': 12 months after termination; general adverts excepted. No other NDA has this clause.",
  also=("look-alikes",), must_not=other_ndas(H))
q("en", "unnumbered-heading", "Can Saltmarsh's engineers reuse what they simply remember from our forecasting models?",
  [p(S)], "Saltmarsh NDA (unnumbered headings), heading 'RESIDUAL KNOWLEDGE': unaided memory may be used, no licence, no pricing/customer data. Only Saltmarsh has it.",
  also=("look-alikes",), must_not=other_ndas(S))

# 4. loose names
q("en", "loose-names", "Our NDA with Officine Fabbri: when does it run out?",
  [p(K, "10.1")], "Legal name Officine Fabbri Robotica S.r.l.; the NDA body calls it 'Kestrel'. Two years from 14 March 2024, unless ended earlier on 30 days' notice. The Italian licence with the same company (art. 14, five years) is the wrong document.",
  must_not=other_ndas(K) + [p(LK, "14")])
q("en", "loose-names", "Can the Kestrel Robotics people show our information to their own lawyers?",
  [p(K, "4.1"), p(K, "1.1")], "Disclosure to Representatives (4.1), defined in 1.1 to include professional advisers. 'Kestrel Robotics' is the trading name.",
  also=("look-alikes",), must_not=other_ndas(K))
q("en", "loose-names", "The confidentiality deal with the Scottish clinical research company: which court do we go to?",
  [p(P, "19")], "Described, not named: Pemberton Clinical Research (Dundee). Court of Session, Edinburgh, exclusive.",
  also=("look-alikes",), must_not=other_ndas(P))
q("en", "loose-names", "The NDA with the Norwegian shipping company: how long are we bound to secrecy?",
  [p(H)], "Halvorsen Maritime AS, Bergen. Five years from first disclosure of each item, under the unnumbered 'TERM' heading (doc_id only).",
  also=("look-alikes", "unnumbered-heading"), must_not=other_ndas(H))
q("en", "loose-names", "The Rotterdam warehouse-robots RFP confidentiality agreement: can we pass their documents to our subcontractors?",
  [p(T, "1.1"), p(T, "4.1")], "Tidewell: contractors/subcontractors are Representatives only if Tidewell approved them in writing in advance (1.1), disclosure to Representatives (4.1).",
  also=("look-alikes",), must_not=other_ndas(T))
q("en", "loose-names", "The Trento hosting contract: what is the monthly fee?",
  [p(DD, "5")], "Dolomiti Data Center (Trento): EUR 18,400 per month plus VAT, indexed at 75% of ISTAT FOI.", also=("cross-language",))
q("en", "loose-names", "The Larchmont deal: how many user seats come with the subscription?",
  [p(SAAS, "1")], "Schedule 1 paragraph 1: 250 Authorised User licences. Schedule 1 is labelled '1' (no clause chunk has that label).")

# 5. look-alikes (the question names the NDA; the others are must_not as whole documents)
q("en", "look-alikes", "How long do the confidentiality obligations last under the Pemberton NDA?",
  [p(P, "10.2")], "Seven years after expiry or termination; trade secrets for as long as they remain secret. Kestrel 3 y after end, Halvorsen 5 y per item, Saltmarsh 2 y after end, Tidewell 4 y from the Effective Date.",
  must_not=other_ndas(P))
q("en", "look-alikes", "Under the Tidewell NDA, what do we have to show to claim we came up with something ourselves?",
  [p(T, "5.1")], "Only Tidewell's independent-development exception requires written records made at the time; the others just require no access.",
  must_not=other_ndas(T))
q("en", "look-alikes", "What law governs the Kestrel NDA?",
  [p(K, "18")], "Laws of the Republic of Italy. Clause 18 is 'GOVERNING LAW' in all three numbered NDAs (Pemberton: Scotland; Tidewell: Netherlands).",
  must_not=other_ndas(K))
q("en", "look-alikes", "Within how many days must Pemberton give back or destroy our papers once we ask?",
  [p(P, "8.1")], "30 days (8.1), with a director's certificate in the same period (8.3). Kestrel 10 BD, Halvorsen 15 BD, Saltmarsh 10 days, Tidewell 14 days.",
  must_not=other_ndas(P))
q("en", "look-alikes", "What's the deadline for sending our documents back under the Halvorsen NDA?",
  [p(H)], "15 Business Days, heading 'RETURN OF MATERIALS' (unnumbered, doc_id only).", also=("unnumbered-heading",),
  must_not=other_ndas(H))
q("en", "look-alikes", "Does the Saltmarsh NDA let them share our information with the banks financing them?",
  [p(S)], "Saltmarsh's 'Representatives' definition includes actual or prospective financing sources (unnumbered DEFINITIONS heading).",
  also=("unnumbered-heading",), must_not=other_ndas(S))
q("en", "look-alikes", "Kestrel NDA: how soon after discovering a leak on their side must they tell us?",
  [p(K, "3.5")], "48 hours. Pemberton 24 hours; the others 'promptly'.", must_not=other_ndas(K))

# 6a. versions (Commercial Payment Practices Act: 2022 version valid to 2025-10-01, 2025 version from then)
q("en", "versions", "What is the longest payment period a large company can impose on a small supplier?",
  [p(ACT, "3", "2022")], "Before the 2025 amendment: 60 days, or longer if expressly agreed and not grossly unfair; no special rule for large payers.",
  as_of="2025-06-01", must_not=[p(ACT, version="2025")])
q("en", "versions", "What is the longest payment period a large company can impose on a small supplier?",
  [p(ACT, "3", "2025"), p(ACT, "2A", "2025")], "After 1 October 2025: 30 days where a large enterprise pays a small supplier, no contracting out (s.3(2)-(3)); Schedule 2A para 1 keeps old s.3 for invoices received before 1 October 2026 under older contracts.",
  as_of="2026-01-15", must_not=[p(ACT, version="2022")])
q("en", "versions", "What interest can a supplier add when a big company pays its invoice late?",
  [p(ACT, "5", "2022")], "2022 version: 8% over base rate for every purchaser.", as_of="2024-11-01",
  must_not=[p(ACT, version="2025")])
q("en", "versions", "What interest can a supplier add when a big company pays its invoice late?",
  [p(ACT, "5", "2025")], "Boundary day: valid_from <= as_of < valid_to, so on 2025-10-01 the 2025 version applies: 10% over base rate for large-enterprise purchasers.",
  as_of="2025-10-01", must_not=[p(ACT, version="2022")])
q("en", "versions", "Can a building client still hold back 5% of the price until the work is finished?",
  [p(ACT, "7A", "2025"), p(ACT, "7", "2025"), p(ACT, "2A", "2025")], "2025 version: s.7 repealed ('7 [Repealed]'), s.7A makes retention terms void for contracts from 1 October 2025; Schedule 2A para 2 for older retentions.",
  as_of="2026-03-01", must_not=[p(ACT, version="2022")])
q("en", "versions", "How often must large businesses publish figures on how fast they pay suppliers?",
  [p(ACT, "8", "2022")], "2022 version: every six months, within 30 days of the period end.", as_of="2024-01-01",
  must_not=[p(ACT, version="2025")])
q("en", "versions", "What fixed sum can we claim for chasing a GBP 5,000 invoice that was paid late?",
  [p(ACT, "6", "2025")], "2025 version: GBP 90 for debts of GBP 1,000 to 9,999.99 (was GBP 70).", as_of="2025-11-20",
  must_not=[p(ACT, version="2022")])
q("en", "versions", "Can a big company be fined for repeatedly paying small suppliers late?",
  [p(ACT, "11A", "2025")], "Section 11A (inserted 2025): civil penalty up to the lower of GBP 1m and 1% of UK turnover.",
  as_of="2025-12-01", must_not=[p(ACT, version="2022")])
q("en", "versions", "Larchmont paid one of our invoices late in March 2025: what rate of interest can we charge?",
  [p(SAAS, "7.5"), p(ACT, "5", "2022")], "Clause 7.5 borrows the s.5 statutory rate; on 2025-03-31 the 2022 version (8% over base) is in force. Cross-document reference.",
  also=("cross-references",), as_of="2025-03-31", must_not=[p(ACT, version="2025")])

# 6b. identifiers
q("en", "identifiers", "Larchmont agreement clause 15.3", [p(SAAS, "15.3")], "Bare clause number; 15.3 is its own chunk.")
q("en", "identifiers", "clause 18.2(c) availability termination right",
  [p(SAAS, "18.2")], "Sub-paragraph (c) is inside the 18.2 chunk.")
q("en", "identifiers", "Schedule 2 paragraph 3 service credits Larchmont",
  [p(SAAS, "2")], "Schedule 2 chunk, labelled '2' (clause 2 is split into 2.1-2.3).")
q("en", "identifiers", "section 11A civil penalties Commercial Payment Practices Act",
  [p(ACT, "11A", "2025")], "'11A' must not be read as section 11.", as_of="2026-02-01",
  must_not=[p(ACT, version="2022"), p(ACT, "11", "2025")])
q("en", "identifiers", "s.7 retention of payments", [p(ACT, "7", "2022")], "2022 text of s.7 (5% cap, release within 12 months).",
  as_of="2024-06-01", must_not=[p(ACT, version="2025")])
q("en", "identifiers", "Kestrel NDA clause 8.2", [p(K, "8.2")], "Clause 8.2 exists in Pemberton (return) and Tidewell (no warranty) too; only Kestrel's is asked.",
  also=("look-alikes",), must_not=other_ndas(K))
q("en", "identifiers", "clause 10.1 of the Tidewell NDA", [p(T, "10.1")], "Tidewell 10.1 is the EUR 25,000 contractual penalty; Kestrel's and Pemberton's 10.1 are their term clauses.",
  also=("look-alikes",), must_not=other_ndas(T))

# 6c. cross-references
q("en", "cross-references", "Service credits are Larchmont's only money remedy for downtime - what exception does that clause keep?",
  [p(SAAS, "5.2")], "5.2 keeps the termination right in clause 18.2(c).", xrefs=[p(SAAS, "18.2")])
q("en", "cross-references", "What is carved out of Corvane's overall liability cap under the Larchmont agreement?",
  [p(SAAS, "15.3"), p(SAAS, "15.5")], "15.3 is subject to 15.1 (death, fraud) and 15.4 (separate data cap); 15.5 takes the 14.1 IP indemnity outside both caps.",
  xrefs=[p(SAAS, "15.1"), p(SAAS, "15.4"), p(SAAS, "14.1")])
q("en", "cross-references", "Which parts of the Larchmont agreement keep applying after it ends?",
  [p(SAAS, "19.4")], "19.4 lists clauses 8.5, 12, 14, 15, 19 and 23; one representative chunk of each multi-chunk clause is listed.",
  xrefs=[p(SAAS, "8.5"), p(SAAS, "12.4"), p(SAAS, "15.3"), p(SAAS, "23.1")])
q("en", "cross-references", "Pemberton NDA: which obligations continue for seven years after it ends?",
  [p(P, "10.2")], "10.2 says 'clauses 3 to 8': a range; the parser resolves only its ends. Representative targets at the ends and in the middle.",
  xrefs=[p(P, "3.1"), p(P, "5.1"), p(P, "8.1")], must_not=other_ndas(P))
q("en", "cross-references", "Under the Tidewell NDA, which breaches trigger the contractual penalty?",
  [p(T, "10.1")], "'clauses 3, 4 or 7': confidentiality obligations, permitted disclosure, return/destruction.",
  xrefs=[p(T, "3.1"), p(T, "4.1"), p(T, "7.1")], must_not=other_ndas(T))
q("en", "cross-references", "section 7A retention terms: where is the transitional rule for contracts signed before October 2025?",
  [p(ACT, "7A", "2025")], "7A(3) points to Schedule 2A (para 2).", xrefs=[p(ACT, "2A", "2025")], as_of="2026-01-01",
  must_not=[p(ACT, version="2022")])

# 6d. access control (privileged note: acl legal-disputes)
q("en", "access-control", "What is our plan if Kestrel really copied our pose-estimation model?",
  [p(NOTE, "6.2"), p(NOTE, "7.1")], "Option B (forensic comparison, then without-notice description and seizure in Turin), recommended in 7.1. Visible to legal-disputes.",
  groups=[GROUP])
q("en", "access-control", "What is the lowest figure we would settle for with Kestrel over the KR-Vision 2 cell?",
  [], "No groups: the privileged note (7.2: not less than EUR 300,000) must never come back, nor through expansion. No public passage answers; scored for violations only.",
  must_not=[p(NOTE)])
q("en", "access-control", "Kestrel KR-Vision 2 forensic expert budget and settlement authority",
  [], "A group other than legal-disputes sees nothing of the note.", groups=["sales"], must_not=[p(NOTE)])
q("en", "access-control", "Can Kestrel argue under the NDA that it built the vision model on its own?",
  [p(K, "5.1")], "Public answer: the independent-development exception 5.1(d) (burden on the recipient, 5.2). The privileged note analyses exactly this (its 3.2) and must not leak without groups.",
  also=("look-alikes",), must_not=[p(NOTE)] + other_ndas(K))

# 6e. open doc_type (doc_type "judgment", not in the product's DOC_TYPES)
q("en", "open-doc-type", "In Halberd v Quillfeather, who had to prove the software was developed independently?",
  [p(JUD, "14")], "Para 14: the recipient relying on the exception bears the burden. The doc_type 'judgment' is outside DOC_TYPES (see README).")
q("en", "open-doc-type", "Does a two-year confidentiality period in an NDA also end the protection of source code?",
  [p(JUD, "21"), p(JUD, "20")], "Paras 20-21: general information free after the period; source code remains protected as a trade secret unless the agreement clearly says otherwise.")
q("en", "open-doc-type", "How did the Commercial Court work out the damages against Quillfeather?",
  [p(JUD, "24"), p(JUD, "25")], "Negotiating damages (One Step v Morris-Garner), reasonable licence fee of GBP 1.35 million.")
q("en", "open-doc-type", "court ruling on whether a clean room is needed to rely on independent development",
  [p(JUD, "16")], "Para 16: not a legal requirement, but without it (or records) the burden is hard to discharge.")

# ---------------------------------------------------------------------------------------------
# ITALIANO
# ---------------------------------------------------------------------------------------------

# 1. clause-in-doc
q("it", "clause-in-doc", "Se Tecnoluce ci consegna le lampade in ritardo, quanto ci deve?",
  [p(TL, "8")], "Art. 8: 0,3% per giorno lavorativo, massimo 8% dell'Ordine.")
q("it", "clause-in-doc", "Entro quanto tempo dobbiamo segnalare a Tecnoluce un guasto scoperto dopo il montaggio?",
  [p(TL, "10")], "Art. 10, comma 2: sessanta giorni dalla scoperta (in deroga all'art. 1495 c.c.).")
q("it", "clause-in-doc", "Tecnoluce può far fabbricare i sensori da un'altra azienda?",
  [p(TL, "18")], "Art. 18, comma 2: subfornitura solo per componenti non essenziali; moduli di controllo e sensori no.")
q("it", "clause-in-doc", "Cosa succede se il prezzo dell'alluminio sale molto durante la fornitura Tecnoluce?",
  [p(TL, "5")], "Art. 5, comma 3: oltre il 10% il Fornitore chiede la rinegoziazione; senza accordo in 30 giorni ciascuna parte può recedere (rinvio all'art. 15, comma 3).")
q("it", "clause-in-doc", "Quante volte all'anno Corvane Italia può far controllare i conti di Kestrel sulle vendite delle celle?",
  [p(LK, "6")], "Art. 6.1: una volta per anno solare, preavviso di dieci giorni lavorativi. Nel testo Kestrel è 'Officine Fabbri Robotica' / 'Licenziatario'.",
  also=("loose-names",))
q("it", "clause-in-doc", "Kestrel può usare il nostro SDK per costruirsi un software di visione concorrente?",
  [p(LK, "3")], "Art. 3.2: divieto di usare il Software per sviluppare software concorrente (anche 3.1, ingegneria inversa).",
  also=("loose-names",))
q("it", "clause-in-doc", "Se il data center di Trento va fuori uso, in quante ore deve ripartire la piattaforma e quanti dati possiamo perdere al massimo?",
  [p(DD, "3")], "Art. 3, comma 2: ripristino entro 4 ore, perdita massima di 15 minuti di dati.")
q("it", "clause-in-doc", "Qual è il massimo che possiamo farci risarcire dal fornitore di hosting?",
  [p(DD, "9")], "Art. 9: dodici canoni mensili per anno; EUR 1.500.000 per incidenti di sicurezza e dati personali (artt. 6.2 e 8).")

# 2. cross-language (Italian questions about English documents)
q("it", "cross-language", "Quale legge regola l'accordo di riservatezza con Pemberton?",
  [p(P, "18")], "Legge scozzese (clausola 18). Le altre NDA hanno la stessa clausola con un'altra legge.",
  also=("look-alikes",), must_not=other_ndas(P))
q("it", "cross-language", "Per quanto tempo Corvane conserva i dati di un candidato che non è stato assunto?",
  [p(PRIV)], "Informativa privacy inglese, titolo 'How long we keep your information' (non numerato): sei mesi, più dodici con consenso. Solo doc_id.",
  also=("unnumbered-heading",))
q("it", "cross-language", "Larchmont può sciogliere il contratto se la piattaforma è spesso irraggiungibile?",
  [p(SAAS, "18.2")], "Clausola 18.2(c): disponibilità sotto il 97% in tre mesi su dodici. (5.2 rinvia a questo diritto.)")
q("it", "cross-language", "Qual è il tetto di responsabilità di Corvane verso Larchmont per le violazioni sui dati personali?",
  [p(SAAS, "15.4")], "Clausola 15.4: GBP 5.000.000 complessivi, separati dal limite generale della 15.3.")
q("it", "cross-language", "Secondo la legge britannica sui ritardi di pagamento tra imprese, quali contratti restano fuori?",
  [p(ACT, "1")], "Section 1(2): excepted contracts (consumatori, lavoro, servizi finanziari, garanzie). Testo identico nelle due versioni.")
q("it", "cross-language", "Nel caso Halberd contro Quillfeather, come è stato calcolato il risarcimento?",
  [p(JUD, "25"), p(JUD, "24")], "Paragrafi 24-25: 'negotiating damages', canone di licenza ragionevole di GBP 1,35 milioni.",
  also=("open-doc-type",))
q("it", "cross-language", "Possiamo assumere i dipendenti di Halvorsen conosciuti durante il progetto?",
  [p(H)], "NDA Halvorsen, titolo non numerato 'NON-SOLICITATION': divieto per 12 mesi dopo la cessazione.",
  also=("unnumbered-heading", "look-alikes"), must_not=other_ndas(H))
q("it", "cross-language", "Per quanti anni dopo la fine del contratto Larchmont restano riservate le informazioni?",
  [p(SAAS, "12.4")], "Clausola 12.4: cinque anni; senza limite per il codice sorgente e i Customer Data.")

# 3. unnumbered headings
q("it", "unnumbered-heading", "Quali clausole del contratto Tecnoluce sono state approvate specificamente per iscritto?",
  [p(TL)], "Titolo non numerato 'APPROVAZIONE SPECIFICA AI SENSI DEGLI ARTT. 1341 E 1342 C.C.': il parser lo unisce al blocco firme (nessuna etichetta), quindi solo doc_id.")
q("it", "unnumbered-heading", "Perché Corvane Italia ha scelto proprio Tecnoluce come fornitore?",
  [p(TL)], "Premesse c) (titolo non numerato 'PREMESSE', nel blocco iniziale senza etichetta): procedura di selezione conclusa a dicembre 2024.")
q("it", "unnumbered-heading", "Nella licenza con Kestrel il licenziatario ha sottoscritto a parte la clausola sul foro?",
  [p(LK)], "Titolo non numerato 'Approvazione specifica ai sensi degli artt. 1341 e 1342 c.c.': approva tra l'altro il 18.2 (Foro competente). Solo doc_id.",
  also=("loose-names",))
q("it", "unnumbered-heading", "A cosa serve a Corvane Italia un'infrastruttura ad alta disponibilità, secondo il contratto di hosting?",
  [p(DD)], "Premesse ('PREMESSO CHE', non numerate): la piattaforma di supervisione dei magazzini automatizzati erogata ai clienti in modalità di servizio.")

# 4. loose names
q("it", "loose-names", "Il contratto di licenza con Kestrel: quanto dura?",
  [p(LK, "14")], "Il testo chiama la controparte 'Officine Fabbri Robotica' / 'Licenziatario' ('Kestrel Robotics' solo nelle parti). Cinque anni dal 1° novembre 2024, rinnovo biennale. La durata dell'NDA con la stessa società (clausola 10.1) è la risposta sbagliata.",
  must_not=[p(K, "10.1")])
q("it", "loose-names", "L'accordo di riservatezza con Kestrel: quale tribunale è competente?",
  [p(K, "19.1")], "NDA in inglese: Tribunale di Torino in via esclusiva (19.1). Il foro della licenza (Milano, art. 18) è un altro documento.",
  also=("cross-language", "look-alikes"), must_not=[p(LK, "18")] + other_ndas(K))
q("it", "loose-names", "Nel contratto con il fornitore bresciano delle lampade LED, chi paga il trasporto?",
  [p(TL, "5")], "Tecnoluce (Brescia), descritta e non nominata. Art. 5, comma 1: prezzi resa DAP comprensivi di imballo e trasporto.")
q("it", "loose-names", "Officine Fabbri quanto ha pagato di canone iniziale per il software di visione?",
  [p(LK, "5")], "Ragione sociale invece del marchio Kestrel: canone una tantum EUR 80.000 (art. 5.1 a).")
q("it", "loose-names", "Il contratto con Larchmont: davanti a quali giudici si discute una lite?",
  [p(SAAS)], "Titolo non numerato 'JURISDICTION' dopo la 24.6 (giudici di Inghilterra e Galles, esclusivi); il parser lo mette nel chunk '24.6'. Solo doc_id.",
  also=("cross-language", "unnumbered-heading"))

# 5. look-alikes
q("it", "look-alikes", "Quale foro è competente nel contratto con Dolomiti?",
  [p(DD, "12")], "Foro di Trento. Tecnoluce (art. 21) e licenza Kestrel (art. 18) indicano Milano.",
  must_not=[p(TL, "21"), p(LK, "18")])
q("it", "look-alikes", "Limitazione di responsabilità del contratto Tecnoluce: qual è il tetto?",
  [p(TL, "11")], "150% dei corrispettivi dei dodici mesi precedenti. Licenza Kestrel art. 11 (100%) e Dolomiti art. 9 (dodici canoni) sono clausole simili di altri contratti.",
  must_not=[p(LK, "11"), p(DD, "9")])
q("it", "look-alikes", "Per quanti anni dura la riservatezza nella licenza Kestrel?",
  [p(LK, "12")], "Cinque anni dalla cessazione; nessun limite per il Codice Sorgente. Tecnoluce art. 13 dice tre anni.",
  must_not=[p(TL, "13")])
q("it", "look-alikes", "Con l'NDA Saltmarsh, quanto durano gli obblighi dopo la fine dell'accordo?",
  [p(S)], "Due anni dalla scadenza o dalla cessazione (titolo non numerato 'TERM').",
  also=("cross-language", "unnumbered-heading"), must_not=other_ndas(S))
q("it", "look-alikes", "Con l'NDA Tidewell, quanto si paga per ogni violazione della riservatezza?",
  [p(T, "10.1")], "EUR 25.000 per violazione più EUR 1.000 al giorno, massimo EUR 250.000. Solo Tidewell ha una penale.",
  also=("cross-language",), must_not=other_ndas(T))

# 6a. versions
q("it", "versions", "Qual è il tasso degli interessi di mora se il debitore è una grande impresa, secondo il Commercial Payment Practices Act?",
  [p(ACT, "5", "2025")], "Versione 2025: 10% sopra il base rate per le grandi imprese.", also=("cross-language",),
  as_of="2026-02-01", must_not=[p(ACT, version="2022")])
q("it", "versions", "Entro quanti giorni va contestata una fattura secondo la legge britannica sui pagamenti commerciali?",
  [p(ACT, "4", "2025")], "Versione 2025: 15 giorni (prima 30).", also=("cross-language",),
  as_of="2025-11-01", must_not=[p(ACT, version="2022")])
q("it", "versions", "Ogni quanto le grandi imprese devono pubblicare il report sui tempi di pagamento?",
  [p(ACT, "8", "2025"), p(ACT, "2A", "2025")], "Versione 2025: trimestrale (s.8(2)), ma la Schedule 2A para 4 mantiene i semestri fino al primo esercizio che inizia dal 1° gennaio 2026, che il 15 dicembre 2025 non è ancora iniziato.",
  also=("cross-language",), as_of="2025-12-15", must_not=[p(ACT, version="2022")])
q("it", "versions", "Qual è la disponibilità garantita dal nostro fornitore di hosting italiano?",
  [], "Il 1° marzo 2025 il contratto Dolomiti (valid_from 2025-07-01) non era ancora in vigore: non deve tornare. Nessun passaggio risponde; conta solo le violazioni.",
  as_of="2025-03-01", must_not=[p(DD)])

# 6b. identifiers
q("it", "identifiers", "art. 16 contratto Tecnoluce clausola risolutiva espressa",
  [p(TL, "16")], "L'art. 16 della licenza Kestrel è 'Effetti della cessazione'.", must_not=[p(LK, "16")])
q("it", "identifiers", "articolo 13.2 licenza Kestrel",
  [p(LK, "13")], "Numerazione '13.2' dentro l'articolo 13: il chunk è etichettato '13'.")
q("it", "identifiers", "Allegato C del contratto Tecnoluce",
  [p(TL, "C")], "Piano di consegna e livelli di servizio. L'Allegato C di Dolomiti è l'atto di nomina a responsabile.",
  must_not=[p(DD, "C")])
q("it", "identifiers", "ART. 4 - CREDITI DI SERVIZIO Dolomiti",
  [p(DD, "4")], "Intestazione maiuscola con trattino; commi '1)'.", must_not=[p(TL, "4"), p(LK, "4")])
q("it", "identifiers", "Allegato B licenza Kestrel priorità 1",
  [p(LK, "B")], "Livelli di servizio e tariffe. Allegato B Tecnoluce (listino) e Dolomiti (crediti) sono altri documenti.",
  must_not=[p(TL, "B"), p(DD, "B")])

# 6c. cross-references
q("it", "cross-references", "Se Corvane Italia recede dal contratto Tecnoluce, le penali già maturate restano dovute?",
  [p(TL, "15")], "Art. 15, comma 3: 'salvo quanto previsto all'art. 8'.", xrefs=[p(TL, "8")])
q("it", "cross-references", "I limiti di responsabilità del contratto Tecnoluce valgono anche per la manleva e per la riservatezza?",
  [p(TL, "11")], "Art. 11, comma 3: esclusi art. 12 (manleva), art. 13 (riservatezza) e art. 10, comma 4 (difetto seriale).",
  xrefs=[p(TL, "12"), p(TL, "13"), p(TL, "10")])
q("it", "cross-references", "Quali inadempimenti consentono di risolvere di diritto il contratto Tecnoluce?",
  [p(TL, "16")], "Art. 16 rinvia agli artt. 8 comma 2, 10 comma 4, 13 e 14.",
  xrefs=[p(TL, "8"), p(TL, "10"), p(TL, "13"), p(TL, "14")])
q("it", "cross-references", "I crediti di servizio di Dolomiti escludono il risarcimento del maggior danno?",
  [p(DD, "4")], "Art. 4, comma 2: no, salvo quanto previsto all'art. 9 (limite di responsabilità, in cui i crediti si computano); soglia dell'art. 3.",
  xrefs=[p(DD, "9"), p(DD, "3")])
q("it", "cross-references", "Licenza Kestrel: le sublicenze dei clienti finali sopravvivono alla cessazione del contratto?",
  [p(LK, "16")], "Art. 16.2 rinvia all''articolo 3.3' (forma 'N.M', che il parser non risolve).", xrefs=[p(LK, "3")])

# 6d. access control
q("it", "access-control", "Qual è la nostra strategia contro Kestrel per il modello di visione copiato?",
  [p(NOTE, "7.1"), p(NOTE, "6.2")], "Domanda in italiano, nota in inglese; visibile al gruppo legal-disputes.",
  also=("cross-language",), groups=[GROUP])
q("it", "access-control", "Cifra minima per chiudere con Kestrel in via transattiva",
  [], "Senza gruppi la nota privilegiata non deve mai tornare; nessun passaggio pubblico risponde.",
  also=("cross-language",), must_not=[p(NOTE)])
q("it", "access-control", "Possiamo risolvere la licenza con Kestrel se viola i limiti d'uso del software?",
  [p(LK, "15")], "Risposta pubblica: art. 15.2 b). La nota privilegiata (4.2) tratta proprio questo e non deve uscire per il gruppo 'commerciale'.",
  groups=["commerciale"], must_not=[p(NOTE)])
q("it", "access-control", "Perché sconsigliamo di risolvere subito la licenza con Kestrel?",
  [p(NOTE, "4.2")], "Nota privilegiata 4.2 (royalty, audit, sublicenze, escrow); visibile a legal-disputes.",
  also=("cross-language",), groups=[GROUP])

# 6e. open doc_type
q("it", "open-doc-type", "Sentenza Halberd: chi deve dimostrare lo sviluppo indipendente?",
  [p(JUD, "14")], "Paragrafo 14: il destinatario che invoca l'eccezione.", also=("cross-language",))
q("it", "open-doc-type", "Nella sentenza contro Quillfeather è stata concessa un'inibitoria 'springboard'? Per quanto tempo?",
  [p(JUD, "26")], "Paragrafo 26: nove mesi (e inibitoria sul codice sorgente).", also=("cross-language",))


if __name__ == "__main__":
    GOLD.main(sys.argv[1:])
