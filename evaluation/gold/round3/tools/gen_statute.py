"""Write the two versions of the fictional Distribution and Agency (Fair Dealing) Act 2021.

Version "2021" (as enacted, in force 1 October 2021 to 5 April 2026) and version "2026" (as
amended by the fictional (Amendment) Act 2025, in force from 6 April 2026). Sections that
the amendment does not touch are written once and are identical in both files.

    python tools/gen_statute.py corpus/

What changes (the gold notes rely on this):
  unchanged: s.1, 3, 4, 6, 9, 12, 14, 16; Schedule 2
  changed:   s.2 (new "online marketplace", small-distributor turnover), 5 (notice), 7 (price
             changes), 8 (who gets compensation, cap for small distributors), 11 (restraint of trade),
             13 (stock buy-back), 15 (complaints), 17 (commencement); Schedule 1 para 3 (discount rate)
  inserted:  s.12A (online sales); Schedule 2A (transitional)
  repealed:  s.10 (exclusive purchasing) -> "10 [Repealed]"
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

AMEND = "the Distribution and Agency (Fair Dealing) (Amendment) Act 2025"

HEADER = {
    "2021": "Distribution and Agency (Fair Dealing) Act 2021 (extract, as enacted)",
    "2026": ("Distribution and Agency (Fair Dealing) Act 2021 (extract, as in force on 6 April 2026, as amended by "
             f"{AMEND})"),
}
NOTICE = ("This Act is fictional. It was written to test legal research tools and is not the text of any "
          "enacted law. Nothing in it is a statement of the law of any part of the United Kingdom.")

# Each entry: a string (same in both versions), a dict {version: text or None (absent)}.
BODY: list[object] = []


def both(text: str) -> None:
    BODY.append(text)


def per(v2021: str | None, v2026: str | None) -> None:
    BODY.append({"2021": v2021, "2026": v2026})


both("""PART 1
PRELIMINARY

1 Application of this Act
(1) This Act applies to a distribution agreement or a commercial agency contract under which the distributor or agent is established in the United Kingdom and carries on its activity there, whatever law governs the agreement.
(2) This Act does not apply to an agreement of a kind listed in Schedule 2 (exempt agreements).
(3) Sections 5 to 13 apply only to agreements entered into on or after 1 October 2021.""")

_S2_COMMON_A = """2 Interpretation
(1) In this Act—
"agent" means a self-employed intermediary who has continuing authority to negotiate, or to negotiate and conclude, the sale or purchase of goods on behalf of another person (the "principal");
"distribution agreement" means an agreement under which a supplier appoints a person (the "distributor") to buy goods from the supplier and to resell them in its own name and on its own account within a territory or to a group of customers, and includes a commercial agency contract so far as the context permits;
"exclusive territory" means a territory or group of customers allocated to a distributor to the exclusion of the supplier's other distributors;
"gross margin" means the difference between the distributor's net resale price of goods and the net price it paid the supplier for them, after deducting rebates;"""
per(_S2_COMMON_A + """
"small distributor" means a distributor which, in its most recent financial year, had fewer than 50 employees and an annual turnover not exceeding £10 million;
"supplier" includes a principal.
(2) References in this Act to the termination of an agreement include its non-renewal at the end of a fixed term at the instance of the supplier.""",
    _S2_COMMON_A + """
"online marketplace" means a service which allows sellers to conclude distance contracts with customers through a website or application operated by, or on behalf of, a person other than the seller;
"small distributor" means a distributor which, in its most recent financial year, had fewer than 50 employees and an annual turnover not exceeding £15 million;
"supplier" includes a principal.
(2) References in this Act to the termination of an agreement include its non-renewal at the end of a fixed term at the instance of the supplier.
[Definition of "online marketplace" inserted, and in the definition of "small distributor" "£15 million" substituted for "£10 million", by """ + AMEND + """, s.1.]""")

both("""PART 2
CONDUCT OF THE RELATIONSHIP

3 Duty of good faith
(1) In performing a distribution agreement each party must act dutifully and in good faith towards the other.
(2) The supplier must, in particular—
(a) give the distributor the information it needs to perform the agreement, including current price lists and technical documentation; and
(b) tell the distributor within a reasonable time if it expects that the volume of goods it can supply will be significantly lower than the distributor could normally have expected.
(3) The distributor must, in particular—
(a) make proper efforts to promote and sell the goods in its territory; and
(b) comply with reasonable instructions of the supplier about the presentation and storage of the goods.
(4) The parties may not derogate from this section.

4 Written statement of terms
(1) Each party to a distribution agreement is entitled, on request, to receive from the other a signed written document setting out the terms of the agreement, including any terms agreed later.
(2) A term by which a party waives the right conferred by subsection (1) is void.""")

_S5_HEAD = """5 Minimum period of notice
(1) Where a distribution agreement is concluded for an indefinite period, either party may terminate it by notice."""
_S5_TAIL = """(3) The parties may agree on longer periods of notice, but the period to be observed by the supplier must not be shorter than that to be observed by the distributor.
(4) A fixed-term agreement that continues to be performed by both parties after the term has expired is deemed to be converted into an agreement for an indefinite period, and the fixed term counts in calculating the period of notice.
(5) Nothing in this section affects the right of either party to terminate an agreement immediately under section 6."""
per(_S5_HEAD + """
(2) The period of notice must be not less than—
(a) one month, for the first year of the agreement;
(b) two months, for the second year commenced; and
(c) three months, for the third year commenced and each subsequent year.
""" + _S5_TAIL,
    _S5_HEAD + """
(2) The period of notice must be not less than one month for each year, or part of a year, for which the agreement has run, with a minimum of three months and a maximum of twelve months.
(2A) Where the distributor has an exclusive territory, the period of notice under subsection (2) must in any event be not less than six months.
""" + _S5_TAIL + """
[Subsections (2) and (2A) substituted for subsection (2) by """ + AMEND + """, s.2; see Schedule 2A, paragraph 2.]""")

both("""6 Immediate termination
(1) Either party may terminate a distribution agreement without notice—
(a) because of the failure of the other party to perform all or part of its obligations, where the failure is material and, if it is capable of remedy, has not been remedied within 30 days after a written request to remedy it; or
(b) where exceptional circumstances arise which make the continuation of the relationship unreasonable.
(2) A party who terminates an agreement under this section must state its reasons in writing when it does so.""")

per("""7 Changes to prices and other terms
(1) A supplier who proposes to change the prices at which it sells goods to a distributor must give the distributor not less than 30 days' written notice of the change.
(2) A term which allows a supplier to change any other term of a distribution agreement unilaterally is unenforceable unless the change is notified to the distributor in writing not less than 30 days before it takes effect.""",
    """7 Changes to prices and other terms
(1) A supplier who proposes to change the prices at which it sells goods to a distributor must give the distributor not less than 60 days' written notice of the change.
(2) A term which allows a supplier to change any other term of a distribution agreement unilaterally is unenforceable unless the change is notified to the distributor in writing not less than 60 days before it takes effect.
(3) Where a change notified under subsection (1) or (2) increases prices by more than 10 per cent in any period of twelve months, or materially reduces the distributor's territory, the distributor may terminate the agreement by notice given before the change takes effect, and section 8 then applies as if the agreement had been terminated by the supplier.
[In subsections (1) and (2) "60 days" substituted for "30 days", and subsection (3) inserted, by """ + AMEND + """, s.3.]""")

per("""8 Compensation on termination
(1) Where a distribution agreement under which the distributor has an exclusive territory is terminated by the supplier, the distributor is entitled to compensation if and to the extent that—
(a) it has brought the supplier new customers or has significantly increased the volume of business with existing customers, and the supplier continues to derive substantial benefits from that business; and
(b) the payment of compensation is equitable having regard to all the circumstances.
(2) The amount of compensation is to be calculated in accordance with Schedule 1 and must not exceed a figure equivalent to one year's average gross margin, calculated over the preceding five years or, if the agreement has run for less than five years, over the period for which it has run.
(3) The grant of compensation does not prevent the distributor from claiming damages.
(4) The distributor loses its entitlement to compensation if, within one year after termination, it has not notified the supplier that it intends to pursue its entitlement.""",
    """8 Compensation on termination
(1) This section applies where a distribution agreement is terminated by the supplier and—
(a) the distributor has an exclusive territory; or
(b) the distributor is a small distributor and the agreement has run for at least three years.
(1A) The distributor is entitled to compensation if and to the extent that—
(a) it has brought the supplier new customers or has significantly increased the volume of business with existing customers, and the supplier continues to derive substantial benefits from that business; and
(b) the payment of compensation is equitable having regard to all the circumstances.
(2) The amount of compensation is to be calculated in accordance with Schedule 1 and must not exceed a figure equivalent to one year's average gross margin or, in the case of a small distributor, eighteen months' average gross margin, calculated over the preceding five years or, if the agreement has run for less than five years, over the period for which it has run.
(3) The grant of compensation does not prevent the distributor from claiming damages.
(4) The distributor loses its entitlement to compensation if, within one year after termination, it has not notified the supplier that it intends to pursue its entitlement.
[Subsections (1) and (1A) substituted for subsection (1), and words in subsection (2) inserted, by """ + AMEND + """, s.4(1) and (2); see Schedule 2A, paragraph 6.]""")

both("""9 Exclusion of compensation
(1) Compensation under section 8 is not payable where—
(a) the supplier has terminated the agreement because of a default attributable to the distributor which would justify immediate termination under section 6(1)(a);
(b) the distributor has terminated the agreement, unless the termination is justified by circumstances attributable to the supplier or by the age, infirmity or illness of the distributor as a result of which it cannot reasonably be required to continue its activities; or
(c) with the agreement of the supplier, the distributor assigns its rights and duties under the agreement to another person.""")

per("""10 Exclusive purchasing obligations
(1) A distribution agreement may require the distributor to buy goods of the contract type only from the supplier (an "exclusive purchasing obligation") for a period not exceeding five years from the start of the agreement.
(2) An exclusive purchasing obligation that is expressed to last for more than five years, or for an indefinite period, has effect as if it were limited to five years.""",
    """10 [Repealed]
[Section 10 repealed by """ + AMEND + """, s.5; see Schedule 2A, paragraph 3.]""")

_S11_1 = """11 Restrictions after termination
(1) A term restricting the business activities of a distributor following termination of a distribution agreement (a "restraint of trade clause") is valid only if and to the extent that—
(a) it is in writing; and
(b) it relates to the territory or group of customers entrusted to the distributor and to the kind of goods covered by the agreement."""
per(_S11_1 + """
(2) A restraint of trade clause is not valid for more than two years after the termination of the agreement.""",
    _S11_1 + """
(2) A restraint of trade clause is not valid for more than one year after the termination of the agreement.
(3) A restraint of trade clause is unenforceable unless the supplier pays the distributor, for the period of the restraint, an allowance of not less than one half of the average monthly gross margin earned by the distributor in the last two years of the agreement.
[In subsection (2) "one year" substituted for "two years", and subsection (3) inserted, by """ + AMEND + """, s.6; see Schedule 2A, paragraph 4.]""")

both("""12 Resale prices
(1) A term of a distribution agreement which fixes, or sets a minimum for, the price at which the distributor may resell the goods is void.
(2) Subsection (1) does not prevent the supplier from—
(a) recommending a resale price; or
(b) setting a maximum resale price,
provided that the recommended or maximum price does not in practice operate as a fixed or minimum price as a result of pressure from, or incentives offered by, the supplier.""")

per(None, """12A Online sales
(1) A term of a distribution agreement is void to the extent that it prevents the distributor from selling the goods online to customers in its territory, or to customers outside its territory who approach it without having been solicited.
(2) Subsection (1) does not prevent the supplier from—
(a) requiring the distributor to meet reasonable quality standards for its own website or application;
(b) prohibiting the use of online marketplaces, provided that the prohibition is set out in writing, applies without discrimination to all of the supplier's distributors in the United Kingdom, and is objectively justified by the nature of the goods; or
(c) restricting active sales into an exclusive territory allocated to another distributor or reserved to the supplier.
[Section 12A inserted by """ + AMEND + """, s.7; see Schedule 2A, paragraph 5.]""")

_S13_1 = """13 Stock held at termination
(1) Where a distribution agreement is terminated by the supplier otherwise than under section 6, the distributor may require the supplier to buy back any goods of the contract type which the distributor holds in stock and which are in their original packaging and in saleable condition."""
per(_S13_1 + """
(2) The buy-back price is the net price paid by the distributor for the goods, less a handling deduction not exceeding 10 per cent of that price.
(3) The distributor must exercise the right conferred by subsection (1) by written notice given within 30 days after termination.""",
    _S13_1 + """
(2) The buy-back price is the net price paid by the distributor for the goods; no deduction may be made for goods delivered to the distributor less than twelve months before termination, and for other goods a handling deduction not exceeding 10 per cent of that price may be made.
(3) The distributor must exercise the right conferred by subsection (1) by written notice given within 60 days after termination.
[Subsection (2) substituted, and in subsection (3) "60 days" substituted for "30 days", by """ + AMEND + """, s.8.]""")

both("""PART 3
ENFORCEMENT

14 The Distribution Adjudicator
(1) The Secretary of State must appoint a person to be known as the Distribution Adjudicator ("the Adjudicator").
(2) The functions of the Adjudicator are—
(a) to investigate complaints made under section 15;
(b) to publish guidance on the operation of this Act; and
(c) to arbitrate disputes under this Act where both parties agree in writing.
(3) The Adjudicator must publish a report on the exercise of its functions each year.""")

per("""15 Complaints to the Adjudicator
(1) A distributor may complain to the Adjudicator that a supplier has failed to comply with section 5, 7, 11, 12 or 13.
(2) A complaint must be made within six months of the act or omission complained of.
(3) Where the Adjudicator upholds a complaint, it may—
(a) recommend that the supplier take the action specified in the recommendation; or
(b) require the supplier to publish details of its failure in a manner specified by the Adjudicator.""",
    """15 Complaints to the Adjudicator
(1) A distributor may complain to the Adjudicator that a supplier has failed to comply with section 5, 7, 11, 12, 12A or 13.
(2) A complaint must be made within twelve months of the act or omission complained of.
(3) Where the Adjudicator upholds a complaint, it may—
(a) recommend that the supplier take the action specified in the recommendation;
(b) require the supplier to publish details of its failure in a manner specified by the Adjudicator; or
(c) impose on the supplier a financial penalty not exceeding 1 per cent of its annual turnover in the United Kingdom.
(4) A supplier on whom a financial penalty is imposed may appeal to the High Court within 28 days.
[In subsection (1) "12A" inserted, in subsection (2) "twelve months" substituted for "six months", and subsections (3)(c) and (4) inserted, by """ + AMEND + """, s.9.]""")

both("""16 Contracting out
(1) A term of an agreement is void to the extent that it purports to exclude or restrict, to the detriment of the distributor and before the agreement expires, the rights conferred by section 5, 8, 11 or 13.
(2) A term applying the law of a country outside the United Kingdom does not prevent this Act from applying to an agreement within section 1(1).""")

_S17 = """17 Citation, commencement and extent
(1) This Act may be cited as the Distribution and Agency (Fair Dealing) Act 2021.
(2) This Act comes into force on 1 October 2021 and extends to England and Wales, Scotland and Northern Ireland."""
per(_S17, _S17 + """
(3) The amendments made by """ + AMEND + """ come into force on 6 April 2026, subject to the transitional and saving provisions in Schedule 2A.
[Subsection (3) inserted by """ + AMEND + """, s.10.]""")

_SCH1 = """SCHEDULE 1
CALCULATION OF COMPENSATION
Section 8

1 The starting point is the gross margin earned by the distributor on sales to customers in its territory in each of the last five years of the agreement or, if it has run for less than five years, in each year for which it has run.
2 The annual average of those figures is reduced to reflect—
(a) any part of that margin which is attributable to customers or business that the supplier will not continue to benefit from after termination;
(b) the costs which the distributor saves because the agreement has ended; and
(c) any sum received by the distributor under section 13 in excess of the value of the goods concerned."""
_SCH1_TAIL = """
4 Compensation is not to be reduced because the distributor obtains other work or enters into a distribution agreement with another supplier after termination."""
per(_SCH1 + """
3 The resulting figure is multiplied by the number of years (not exceeding one) for which the supplier is expected to continue to benefit, and discounted to its present value using the Bank of England base rate on the date of termination.""" + _SCH1_TAIL,
    _SCH1 + """
3 The resulting figure is multiplied by the number of years (not exceeding the limit in section 8(2)) for which the supplier is expected to continue to benefit, and discounted to its present value at a fixed rate of 3 per cent a year.
[In paragraph 3 words substituted by """ + AMEND + """, s.4(3).]""" + _SCH1_TAIL)

both("""SCHEDULE 2
EXEMPT AGREEMENTS
Section 1(2)

1 An agreement under which the distributor's purchases from the supplier did not exceed £50,000 in each of the three years before the matter in question arose.
2 An agreement between companies which are members of the same group of companies.
3 An agreement for the distribution of goods which are ordinarily sold on a commodity exchange.
4 A contract with an agent whose activities as an agent are secondary to its other business activities.""")

per(None, """SCHEDULE 2A
TRANSITIONAL AND SAVING PROVISIONS
Section 17(3)

1 In this Schedule "the commencement date" means 6 April 2026, and "existing agreement" means a distribution agreement entered into before that date.
2 Section 5, as amended by """ + AMEND + """, applies to any notice of termination given on or after the commencement date, including notice given under an existing agreement; a notice given before the commencement date is governed by section 5 as it stood immediately before that date.
3 An exclusive purchasing obligation in an existing agreement that was valid under section 10 immediately before the commencement date continues to have effect until it expires or until 6 April 2027, whichever is earlier.
4 A restraint of trade clause in an existing agreement continues to have effect for the period agreed, but not for more than two years after termination; section 11(3) applies to any part of the period of restraint falling after 6 April 2027.
5 Section 12A applies to an existing agreement only from 6 October 2026.
6 Section 8(1)(b) applies only where the termination takes effect on or after the commencement date.
[Schedule 2A inserted by """ + AMEND + """, s.10 and Schedule.]""")


META = {
    "2021": {"valid_from": "2021-10-01", "valid_to": "2026-04-06", "tags": ["distribution", "agency", "statute"]},
    "2026": {"valid_from": "2026-04-06", "valid_to": None, "tags": ["distribution", "agency", "statute", "amended"]},
}


def render(version: str) -> str:
    parts = [HEADER[version], "", NOTICE, ""]
    for entry in BODY:
        text = entry if isinstance(entry, str) else entry[version]
        if text is None:
            continue
        parts += [text, ""]
    return "\n".join(parts)


def main(out: Path) -> None:
    goldlib.write_statute(out, "distribution-fair-dealing-act", "distribution-fair-dealing-act-2021",
                          "Distribution and Agency (Fair Dealing) Act 2021 (fictional; extract)", META, render,
                          {"parties": [], "signed_at": None, "acl": [], "public": True})


if __name__ == "__main__":
    main(goldlib.out_dir(sys.argv[1:], Path(__file__).resolve().parent.parent / "corpus"))
