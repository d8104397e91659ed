"""Write the two versions of the (fictional) Commercial Payment Practices Act 2022 extract.

Sections that did not change are the same text in both files; sections that changed are
written twice. Run: python tools/gen_statute.py corpus/
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

HEAD = {
    "2022": "Commercial Payment Practices Act 2022 (extract, as in force on 6 April 2022)",
    "2025": "Commercial Payment Practices Act 2022 (extract, as in force on 1 October 2025, as amended by the Commercial Payment Practices (Amendment) Act 2025)",
}
NOTE = ("This extract is fictional. It was written for testing legal retrieval and is not the text of "
        "any enacted law; it must not be relied on as a statement of the law.")

S1 = """1 Application of this Act
(1) This Act applies to a contract for the supply of goods or services where the purchaser and the supplier are each acting in the course of a business, other than an excepted contract.
(2) In this Act "excepted contract" means—
(a) a contract under which the purchaser is a consumer;
(b) a contract of employment;
(c) a contract for the provision of financial services regulated under the Financial Services and Markets Act 2000;
(d) a contract intended to operate by way of mortgage, pledge, charge or other security.
(3) This Act applies to a contract which is governed by the law of any part of the United Kingdom, but it does not apply where the law of a part of the United Kingdom applies only by virtue of a choice of law term of the contract and, apart from that term, the law of a country outside the United Kingdom would apply and there is no significant connection between the contract and any part of the United Kingdom.
(4) This Act does not apply to a contract entered into before 6 April 2022."""

S2_COMMON = """2 Interpretation
(1) In this Act—
"base rate" means the official dealing rate set by the Bank of England;
"large enterprise" means a business which, in its most recent financial year, had more than 250 employees or an annual turnover exceeding £36 million;
"payment period" means the period beginning with the day on which the purchaser receives the relevant invoice or, if later, the goods or services, and ending with the day on which payment of the qualifying debt is due;
"qualifying debt" means a debt created by virtue of an obligation under a contract to which this Act applies to pay the whole or any part of the contract price;
"relevant invoice" means an invoice or similar demand for payment of a qualifying debt;
"small supplier" means a supplier which, in its most recent financial year, had fewer than 50 employees and an annual turnover not exceeding £10.2 million;"""
S2_2022 = S2_COMMON + """
"the Commissioner" means the Small Business Commissioner.
(2) For the purposes of this Act a purchaser receives an invoice when the invoice is delivered to the address or electronic address specified by the purchaser for that purpose."""
S2_2025 = S2_COMMON + """
"structured electronic invoice" means an invoice issued, transmitted and received in a structured electronic format which allows its automatic and electronic processing;
"the Commissioner" means the Small Business Commissioner.
(2) For the purposes of this Act a purchaser receives an invoice when the invoice is delivered to the address or electronic address specified by the purchaser for that purpose.
[Subsection (1) amended by the Commercial Payment Practices (Amendment) Act 2025, s.1(2).]"""

S3_2022 = """3 Maximum payment period
(1) Where the parties to a contract to which this Act applies agree a payment period, that period shall not exceed 60 days unless—
(a) a longer period is expressly agreed in the contract, and
(b) the longer period is not grossly unfair to the supplier.
(2) In deciding whether a payment period is grossly unfair to the supplier, regard shall be had to all the circumstances, including any gross deviation from good commercial practice, the nature of the goods or services and whether the purchaser has any objective reason to deviate from a period of 60 days.
(3) Where no payment period has been agreed, the qualifying debt is due at the end of the period of 30 days beginning with the day on which the purchaser receives the relevant invoice or, if later, the goods or services.
(4) A term which provides for a payment period that does not comply with subsection (1) is void to the extent that it exceeds 60 days, and the contract shall have effect as if it provided for a payment period of 60 days."""
S3_2025 = """3 Maximum payment period
(1) Where the parties to a contract to which this Act applies agree a payment period, that period shall not exceed 60 days.
(2) Where the purchaser is a large enterprise, the payment period shall not exceed 45 days; and where, in addition, the supplier is a small supplier, the payment period shall not exceed 30 days.
(3) Subsections (1) and (2) have effect notwithstanding any agreement to the contrary, and a term which provides for a longer payment period is void to the extent of the excess; the contract shall have effect as if it provided for the maximum payment period applicable under this section.
(4) Where no payment period has been agreed, the qualifying debt is due at the end of the period of 30 days beginning with the day on which the purchaser receives the relevant invoice or, if later, the goods or services.
(5) Schedule 2A makes transitional provision in relation to contracts entered into before 1 October 2025.
[Section substituted by the Commercial Payment Practices (Amendment) Act 2025, s.2.]"""

S4_2022 = """4 Acceptance, verification and disputed invoices
(1) Where a contract provides for a procedure of acceptance or verification by which the conformity of the goods or services with the contract is to be ascertained, that procedure shall not exceed 30 days from the day on which the purchaser receives the goods or services, unless a longer period is expressly agreed and is not grossly unfair to the supplier.
(2) A purchaser who disputes a relevant invoice shall, within 30 days of receiving it, notify the supplier in writing that the invoice is disputed and of the grounds of the dispute.
(3) A relevant invoice which has not been disputed in accordance with subsection (2) shall be treated, for the purposes of this Act, as accepted by the purchaser."""
S4_2025 = """4 Acceptance, verification and disputed invoices
(1) Where a contract provides for a procedure of acceptance or verification by which the conformity of the goods or services with the contract is to be ascertained, that procedure shall not exceed 30 days from the day on which the purchaser receives the goods or services; where the purchaser is a large enterprise no longer period may be agreed.
(2) A purchaser who disputes a relevant invoice shall, within 15 days of receiving it, notify the supplier in writing that the invoice is disputed and of the grounds of the dispute.
(3) A relevant invoice which has not been disputed in accordance with subsection (2) shall be treated, for the purposes of this Act, as accepted by the purchaser.
(4) Where part only of a relevant invoice is disputed, the purchaser shall pay the undisputed part within the payment period, and the dispute shall not delay the payment of that part.
[Section amended by the Commercial Payment Practices (Amendment) Act 2025, s.3.]"""

S4A_2025 = """4A Electronic invoices
(1) A large enterprise shall accept, and may not refuse to process, a relevant invoice which is submitted as a structured electronic invoice complying with the standard specified in regulations made by the Secretary of State.
(2) A purchaser may not refuse or delay payment of a relevant invoice on the ground only of the format in which it has been submitted, provided that it is in a reasonably legible paper or electronic form.
(3) A term of a contract which makes payment conditional on the use of an invoicing portal or platform for which the supplier must pay a fee is void.
[Section inserted by the Commercial Payment Practices (Amendment) Act 2025, s.4.]"""

S5_COMMON_1 = """5 Statutory interest
(1) It is an implied term in a contract to which this Act applies that a qualifying debt carries simple interest ("statutory interest") from the day after the end of the payment period until the debt is paid."""
S5_2022 = S5_COMMON_1 + """
(2) Statutory interest runs at the rate of 8 per cent per annum over the base rate in force on the relevant reference date.
(3) The reference dates are 30 June, for interest which starts to run in the period from 1 January to 30 June, and 31 December, for interest which starts to run in the period from 1 July to 31 December.
(4) The parties may agree a contractual remedy for late payment of a qualifying debt, in which case statutory interest does not apply unless the contractual remedy is not a substantial remedy within the meaning of section 12."""
S5_2025 = S5_COMMON_1 + """
(2) Statutory interest runs at the rate of 8 per cent per annum over the base rate in force on the relevant reference date; but where the purchaser is a large enterprise the rate is 10 per cent per annum over that base rate.
(3) The reference dates are 30 June, for interest which starts to run in the period from 1 January to 30 June, and 31 December, for interest which starts to run in the period from 1 July to 31 December.
(4) The parties may agree a contractual remedy for late payment of a qualifying debt, in which case statutory interest does not apply unless the contractual remedy is not a substantial remedy within the meaning of section 12.
[Subsection (2) amended by the Commercial Payment Practices (Amendment) Act 2025, s.5.]"""

S6_2022 = """6 Compensation for recovery costs
(1) Once statutory interest begins to run in relation to a qualifying debt, the supplier is entitled to be paid a fixed sum of—
(a) £40, for a qualifying debt of less than £1,000;
(b) £70, for a qualifying debt of £1,000 or more but less than £10,000;
(c) £100, for a qualifying debt of £10,000 or more.
(2) Where the reasonable costs of the supplier in recovering the qualifying debt exceed the fixed sum, the supplier is also entitled to the difference.
(3) The fixed sum is payable once for each qualifying debt, however many reminders are sent."""
S6_2025 = """6 Compensation for recovery costs
(1) Once statutory interest begins to run in relation to a qualifying debt, the supplier is entitled to be paid a fixed sum of—
(a) £50, for a qualifying debt of less than £1,000;
(b) £90, for a qualifying debt of £1,000 or more but less than £10,000;
(c) £150, for a qualifying debt of £10,000 or more.
(2) Where the reasonable costs of the supplier in recovering the qualifying debt exceed the fixed sum, the supplier is also entitled to the difference.
(3) The fixed sum is payable once for each qualifying debt, however many reminders are sent.
[Subsection (1) amended by the Commercial Payment Practices (Amendment) Act 2025, s.6.]"""

S7_2022 = """7 Retention of payments
(1) A contract for the carrying out of construction operations may provide for the purchaser to retain part of the contract price as security for the performance of the supplier's obligations (a "retention") only if—
(a) the amount retained does not exceed 5 per cent of the contract price, and
(b) the retained sum is released to the supplier no later than 12 months after practical completion of the work.
(2) A term which provides for a retention that does not comply with subsection (1) is void to the extent of the non-compliance.
(3) A purchaser who holds a retention shall hold it on trust for the supplier in a separate account and shall provide the supplier, on request, with a statement of the sums so held."""
S7_2025 = """7 [Repealed]
[Section repealed by the Commercial Payment Practices (Amendment) Act 2025, s.7(1); see section 7A and Schedule 2A.]"""
S7A_2025 = """7A Prohibition of retention terms
(1) A term of a contract entered into on or after 1 October 2025 which allows the purchaser to retain any part of the contract price as security for the performance of the supplier's obligations is void.
(2) Subsection (1) does not prevent the parties from agreeing that the supplier shall provide a performance bond, a parent company guarantee or another form of security which does not involve withholding payment of the contract price.
(3) Schedule 2A makes transitional provision for retentions held under contracts entered into before 1 October 2025.
[Section inserted by the Commercial Payment Practices (Amendment) Act 2025, s.7(2).]"""

S8_2022 = """8 Duty to report on payment practices
(1) A large enterprise shall publish a report on its payment practices, policies and performance for each reporting period.
(2) The reporting periods of an enterprise are each period of six months beginning with the first day of its financial year and each subsequent period of six months.
(3) A report shall be published on the web-based service provided by the Secretary of State for that purpose within 30 days after the end of the reporting period to which it relates."""
S8_2025 = """8 Duty to report on payment practices
(1) A large enterprise shall publish a report on its payment practices, policies and performance for each reporting period.
(2) The reporting periods of an enterprise are each period of three months beginning with the first day of its financial year and each subsequent period of three months.
(3) A report shall be published on the web-based service provided by the Secretary of State for that purpose within 30 days after the end of the reporting period to which it relates.
(4) A report shall be approved by the board of directors of the enterprise and signed by a director named in it.
[Subsection (2) amended and subsection (4) inserted by the Commercial Payment Practices (Amendment) Act 2025, s.8.]"""

S9 = """9 Contents of report
(1) A report under section 8 shall state—
(a) the enterprise's standard payment period and any maximum payment period in its standard terms;
(b) the average number of days taken to pay relevant invoices during the reporting period;
(c) the percentage of relevant invoices paid within 30 days, between 31 and 60 days, and later than 60 days;
(d) the procedure by which suppliers may resolve disputes about payment.
(2) The Secretary of State may by regulations require further information to be included in a report."""

S10_2022 = """10 Small Business Commissioner: complaints
(1) A small supplier may complain to the Commissioner about the payment practices of a purchaser in relation to a qualifying debt owed to it.
(2) The Commissioner may consider a complaint, make recommendations to the purchaser and, where the purchaser does not act on the recommendations, publish a report on the complaint naming the purchaser.
(3) A complaint shall be made within 12 months of the day on which the qualifying debt became due."""
S10_2025 = """10 Small Business Commissioner: complaints and investigations
(1) A small supplier may complain to the Commissioner about the payment practices of a purchaser in relation to a qualifying debt owed to it.
(2) The Commissioner may consider a complaint, make recommendations to the purchaser and, where the purchaser does not act on the recommendations, publish a report on the complaint naming the purchaser.
(3) A complaint shall be made within 24 months of the day on which the qualifying debt became due.
(4) The Commissioner may, without having received a complaint, investigate the payment practices of a large enterprise where the Commissioner has reasonable grounds to suspect that it is failing to comply with section 3.
[Subsection (3) amended and subsection (4) inserted by the Commercial Payment Practices (Amendment) Act 2025, s.9.]"""

S11_2022 = """11 Offence of failing to publish a report
(1) A large enterprise which fails to publish a report in accordance with section 8 commits an offence.
(2) A person guilty of an offence under this section is liable on summary conviction to a fine.
(3) It is a defence for a person charged with an offence under this section to show that it took all reasonable steps to secure compliance with section 8."""
S11_2025 = """11 Offences relating to reports
(1) A large enterprise which fails to publish a report in accordance with section 8, or which publishes a report that is misleading, false or deceptive in a material particular, commits an offence.
(2) Where an offence under subsection (1) is committed, every director of the enterprise who failed to take all reasonable steps to secure compliance with section 8 also commits the offence.
(3) A person guilty of an offence under this section is liable on summary conviction to a fine.
(4) It is a defence for a person charged with an offence under this section to show that it took all reasonable steps to secure compliance with section 8.
[Section amended by the Commercial Payment Practices (Amendment) Act 2025, s.10.]"""
S11A_2025 = """11A Civil penalties for persistent late payment
(1) The Commissioner may, by notice, impose a civil penalty on a large enterprise which has persistently failed to pay relevant invoices of small suppliers within the period required by section 3(2).
(2) A large enterprise persistently fails to pay if, in each of two consecutive reporting periods, more than 20 per cent of the relevant invoices of small suppliers were paid after the end of the payment period.
(3) The amount of a civil penalty shall not exceed the lower of £1,000,000 and 1 per cent of the enterprise's turnover in the United Kingdom in its most recent financial year.
(4) An enterprise on which a civil penalty is imposed may appeal to the First-tier Tribunal within 28 days of the date of the notice.
[Section inserted by the Commercial Payment Practices (Amendment) Act 2025, s.11.]"""

S12 = """12 Contract terms excluding or varying statutory rights
(1) Any contract term is void to the extent that it purports to exclude or vary the right to statutory interest or to the fixed sum under section 6, unless there is a substantial contractual remedy for late payment of the qualifying debt.
(2) A contractual remedy for late payment is regarded as a substantial remedy unless it is insufficient either to compensate the supplier for late payment or to deter late payment, and it would not be fair or reasonable to allow the remedy to be relied on to oust or vary the right to statutory interest."""

S13 = """13 Application to the Crown
This Act binds the Crown, and applies to a contract entered into by a government department as purchaser as it applies to any other purchaser."""

S14 = """14 Short title, commencement and extent
(1) This Act may be cited as the Commercial Payment Practices Act 2022.
(2) This Act comes into force on 6 April 2022.
(3) This Act extends to England and Wales, Scotland and Northern Ireland."""

SCH2A = """SCHEDULE 2A
TRANSITIONAL PROVISION: CONTRACTS ENTERED INTO BEFORE 1 OCTOBER 2025
[Schedule inserted by the Commercial Payment Practices (Amendment) Act 2025, s.12.]
1 Section 3 as it had effect immediately before 1 October 2025 continues to apply to a contract entered into before that date in respect of relevant invoices received before 1 October 2026; section 3 as substituted applies to relevant invoices received on or after that date, whatever the date of the contract.
2 Section 7 as it had effect immediately before its repeal continues to apply to a retention held under a contract entered into before 1 October 2025, save that the retained sum shall be released no later than the earlier of 12 months after practical completion and 30 September 2027.
3 Section 5(2) as amended applies to statutory interest on any qualifying debt whose payment period ends on or after 1 October 2025, whatever the date of the contract.
4 Until the beginning of the first financial year of an enterprise that starts on or after 1 January 2026, its reporting periods under section 8 continue to be periods of six months."""


def build(version: str) -> str:
    v25 = version == "2025"
    parts = [HEAD[version], "", NOTE, "", "PART I", "PAYMENT PERIODS, INTEREST AND RETENTIONS", ""]
    body1 = [S1, S2_2025 if v25 else S2_2022, S3_2025 if v25 else S3_2022, S4_2025 if v25 else S4_2022]
    if v25:
        body1.append(S4A_2025)
    body1 += [S5_2025 if v25 else S5_2022, S6_2025 if v25 else S6_2022, S7_2025 if v25 else S7_2022]
    if v25:
        body1.append(S7A_2025)
    parts += [s + "\n" for s in body1]
    parts += ["PART II", "REPORTING AND ENFORCEMENT", ""]
    body2 = [S8_2025 if v25 else S8_2022, S9, S10_2025 if v25 else S10_2022, S11_2025 if v25 else S11_2022]
    if v25:
        body2.append(S11A_2025)
    parts += [s + "\n" for s in body2]
    parts += ["PART III", "GENERAL", ""]
    parts += [s + "\n" for s in (S12, S13, S14)]
    if v25:
        parts += [SCH2A + "\n"]
    return "\n".join(parts).rstrip() + "\n"


META = {
    "2022": {"valid_from": "2022-04-06", "valid_to": "2025-10-01", "tags": ["late-payment", "statute"]},
    "2025": {"valid_from": "2025-10-01", "valid_to": None, "tags": ["late-payment", "statute", "amended"]},
}


def main(out: Path) -> None:
    for name in goldlib.write_statute(out, "commercial-payment-practices-act", "commercial-payment-practices-act-2022",
                                      "Commercial Payment Practices Act 2022 (extract)", META, build,
                                      {"public": True}):
        print(name)


if __name__ == "__main__":
    main(goldlib.out_dir(sys.argv[1:], Path(__file__).resolve().parent.parent / "corpus"))
