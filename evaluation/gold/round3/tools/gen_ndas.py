"""Generate the round-3 NDA family (Vellacott Instruments / Vellacott Italia) from one house template.

Four English NDAs come from the English template and one Italian "accordo di riservatezza"
from the Italian translation of the same template (same clause order, same wording choices,
per-deal variables and one or two rider clauses per counterparty). Run once; the output is
committed as data:

    python tools/gen_ndas.py corpus/

Numbered NDAs use "1. TITLE" + "1.1 text"; the unnumbered ones use bare ALL-CAPS headings
with plain paragraphs, so cross-references name the heading instead of a number. The
Italian one uses "Art. N – Titolo" with commi "1.", "2.".
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

VELLACOTT = (
    "VELLACOTT INSTRUMENTS LIMITED, a company incorporated in England and Wales with company number "
    "08815274 whose registered office is at Unit 4, Avonmeads Technology Park, Bristol BS2 0SP (\"Vellacott\")"
)
VELLACOTT_SIGN = "Helen Marsh-Okafor, General Counsel"

# ---------------------------------------------------------------------------------------------
# per-deal variables


NDAS = {
    "orrin": dict(
        style="numbered", mutual=True,
        file="nda-vellacott-orrin", date="11 February 2025", iso="2025-02-11",
        title_meta="Mutual NDA – Vellacott Instruments / Orrin Aquatech (ultrasonic heat-network sensor)",
        jurisdiction="DE", tags=["nda", "district-heating", "joint-development"],
        party_full="Orrin Aquatech GmbH",
        party=("ORRIN AQUATECH GMBH, a limited liability company registered in the commercial register of the "
               "local court of Augsburg under HRB 31872 whose business address is Haunstetter Strasse 112, "
               "86161 Augsburg, Germany (\"Orrin\")"),
        short="Orrin", sign="Dr Matthias Kreuzberger, Managing Director (Geschäftsführer)",
        bd_place="Bristol or Bavaria",
        purpose=("evaluating whether to develop jointly an ultrasonic flow and heat sensor for district "
                 "heating networks, combining Vellacott's transducer designs with Orrin's signal-processing "
                 "electronics"),
        reps=("\"Representatives\" means, in relation to a Party, its Affiliates and its and their directors, "
              "officers, employees, and professional advisers (lawyers, accountants and auditors)."),
        breach=("The Recipient shall tell the Discloser in writing within 72 hours of becoming aware of any "
                "actual or suspected loss of, or unauthorised access to or disclosure of, Confidential "
                "Information, and shall take all reasonable steps, at its own cost, to contain it and to prevent "
                "any repetition."),
        return_period="14 days",
        term="three years", term_notice="30 days'",
        survival=("The obligations in {refs:obligations,permitted,return} continue for five "
                  "years after the expiry or termination of this Agreement."),
        law=("This Agreement and any non-contractual obligations arising out of or in connection with it are "
             "governed by the laws of the Federal Republic of Germany, excluding the United Nations Convention "
             "on Contracts for the International Sale of Goods."),
        forum=("The courts of Munich (Landgericht München I) have exclusive jurisdiction to settle any dispute "
               "arising out of or in connection with this Agreement."),
        third_party=("No person other than the Parties has any right to enforce, or to rely on, any term of "
                     "this Agreement."),
        riders=["feedback", "visits"],
    ),
    "brannock": dict(
        style="caps", mutual=True,
        file="nda-vellacott-brannock", date="6 May 2025", iso="2025-05-06",
        title_meta="Mutual NDA – Vellacott Instruments / Brannock Water Utilities (smart meter pilot)",
        jurisdiction="GB-ENG", tags=["nda", "water-utility", "listed-company", "smart-meters"],
        party_full="Brannock Water Utilities plc",
        party=("BRANNOCK WATER UTILITIES PLC, a public limited company incorporated in England and Wales with "
               "company number 02741986 whose registered office is at Brannock House, 9 Castle Quay, "
               "Shrewsbury SY1 2AB (\"Brannock\")"),
        short="Brannock", sign="Siân Pritchard, Company Secretary",
        bd_place="London",
        purpose=("assessing a pilot deployment of up to 20,000 Vellacott smart water meters and the related "
                 "data platform in part of Brannock's supply area"),
        reps=("\"Representatives\" means, in relation to a Party, its Affiliates and its and their directors, "
              "officers, employees, professional advisers, financial advisers and corporate brokers."),
        breach=("The Recipient shall notify the Discloser without delay, and in any event within two Business "
                "Days, after becoming aware of any actual or suspected loss of, or unauthorised access to or "
                "disclosure of, Confidential Information, and shall co-operate with the Discloser in limiting "
                "its consequences."),
        return_period="10 Business Days",
        term="two years", term_notice="one month's",
        survival=("The obligations of confidence and restricted use in this Agreement continue for four years "
                  "from the date of expiry or termination of this Agreement."),
        law=("This Agreement and any dispute or claim (including any non-contractual dispute or claim) arising "
             "out of or in connection with it or its subject matter shall be governed by and construed in "
             "accordance with the law of England and Wales."),
        forum=("Each Party irrevocably agrees that the courts of England and Wales shall have exclusive "
               "jurisdiction to settle any dispute or claim (including non-contractual disputes or claims) arising "
               "out of or in connection with this Agreement or its subject matter."),
        third_party=("A person who is not a Party has no right under the Contracts (Rights of Third Parties) "
                     "Act 1999 to enforce any term of this Agreement."),
        riders=["standstill", "inside"],
    ),
    "kittredge": dict(
        style="numbered", mutual=True,
        file="nda-vellacott-kittredge", date="19 August 2025", iso="2025-08-19",
        title_meta="Mutual NDA – Vellacott Instruments / Kittredge Mining (tailings-water monitoring)",
        jurisdiction="US-DE", tags=["nda", "mining", "clean-team", "us"],
        party_full="Kittredge Mining Corp.",
        party=("KITTREDGE MINING CORP., a Delaware corporation whose principal office is at 1800 Larimer Street, "
               "Suite 2200, Denver, Colorado 80202, United States (\"Kittredge\")"),
        short="Kittredge", sign="Dale R. Whitcomb, Vice President, Procurement",
        bd_place="Denver, Colorado or London",
        purpose=("discussing the supply by Vellacott of continuous water-quality monitoring systems for "
                 "tailings storage facilities at Kittredge's mine sites, and the terms of a possible supply "
                 "agreement"),
        reps=("\"Representatives\" means, in relation to a Party, its Affiliates and its and their directors, "
              "officers, employees, contractors and professional advisers, but, in relation to Competitively "
              "Sensitive Information, only the Clean Team Members."),
        breach=("The Recipient shall notify the Discloser in writing within five Business Days after becoming "
                "aware of any actual or suspected loss of, or unauthorised access to or disclosure of, "
                "Confidential Information, giving reasonable details of what happened."),
        return_period="30 days",
        term="one year", term_notice="15 days'",
        survival=("The obligations in {refs:obligations,permitted} continue for two years after the "
                  "expiry or termination of this Agreement, except that they continue in respect of any Trade "
                  "Secret for as long as it remains a trade secret under applicable law."),
        law=("This Agreement shall be governed by and construed in accordance with the laws of the State of "
             "Delaware, without giving effect to any choice or conflict of law rule that would cause the laws "
             "of another jurisdiction to apply."),
        forum=("The Parties submit to the exclusive jurisdiction of the Court of Chancery of the State of "
               "Delaware or, if that court lacks subject-matter jurisdiction, the federal courts located in the "
               "State of Delaware. EACH PARTY WAIVES ANY RIGHT TO TRIAL BY JURY IN ANY PROCEEDING ARISING OUT OF "
               "THIS AGREEMENT."),
        third_party=("Nothing in this Agreement confers any right or remedy on any person other than the Parties "
                     "and their permitted assigns."),
        riders=["cleanteam", "nonsolicit"],
    ),
    "aaltoranta": dict(
        style="caps", mutual=False,
        file="nda-vellacott-aaltoranta", date="2 October 2025", iso="2025-10-02",
        title_meta="One-way NDA – Vellacott Instruments to Aaltoranta (firmware licensing evaluation)",
        jurisdiction="FI", tags=["nda", "one-way", "source-code", "arbitration", "firmware"],
        party_full="Aaltoranta Oy",
        party=("AALTORANTA OY, a limited liability company incorporated in Finland with business identity code "
               "2918447-6 whose registered office is at Satamakatu 14, 40100 Jyväskylä, Finland (\"Aaltoranta\")"),
        short="Aaltoranta", sign="Ville Heikkinen, Chief Technology Officer",
        bd_place="Bristol or Helsinki",
        purpose=("enabling Aaltoranta to evaluate the firmware of Vellacott's VF-series flow meters with a view "
                 "to taking a licence of that firmware for Aaltoranta's own irrigation controllers"),
        reps=("\"Representatives\" means the Recipient's own employees and professional advisers, and any "
              "Affiliate, contractor or consultant of the Recipient that Vellacott has approved in writing in "
              "advance."),
        breach=("The Recipient shall inform Vellacott within 24 hours of becoming aware of any actual or "
                "suspected loss of, or unauthorised access to or disclosure of, Confidential Information, and "
                "shall follow Vellacott's reasonable instructions to contain it."),
        return_period="seven days",
        term="eighteen months", term_notice="",
        survival=("The obligations of the Recipient under this Agreement continue for three years from its "
                  "expiry or termination, save that they continue without limit of time in respect of Source "
                  "Code."),
        law=("This Agreement and any non-contractual obligations arising out of or in connection with it are "
             "governed by the laws of Finland."),
        forum=("Any dispute, controversy or claim arising out of or relating to this Agreement, or the breach, "
               "termination or validity of it, shall be finally settled by arbitration in accordance with the "
               "Arbitration Rules of the Finland Chamber of Commerce. The arbitral tribunal shall consist of a "
               "sole arbitrator, the seat of arbitration shall be Helsinki and the language of the arbitration "
               "shall be English. The arbitration and any award shall be kept confidential."),
        third_party=("No person other than the Parties has any right to enforce, or to rely on, any term of "
                     "this Agreement."),
        riders=["dataroom"],
    ),
}

# ---------------------------------------------------------------------------------------------
# English template


def clauses_en(n: dict) -> list[tuple[str, str, list[str]]]:
    """(key, heading, paragraphs); {ref:key} is rendered per style later."""
    mutual = n["mutual"]
    out: list[tuple[str, str, list[str]]] = []
    if mutual:
        ci_from = ("by or on behalf of a Party or its Affiliates (the \"Discloser\") to the other Party or its "
                   "Representatives (the \"Recipient\")")
    else:
        ci_from = ("by or on behalf of Vellacott or its Affiliates (in that capacity the \"Discloser\") to "
                   f"{n['short']} or its Representatives (in that capacity the \"Recipient\")")
    defs = [
        "In this Agreement:",
        "\"Affiliate\" means any company that controls, is controlled by or is under common control with a "
        "Party, \"control\" meaning the holding of a majority of the voting rights or the right to appoint a "
        "majority of the board.",
        f"\"Business Day\" means a day, other than a Saturday or Sunday, on which banks are open for ordinary "
        f"business in {n['bd_place']}.",
        "\"Confidential Information\" means any information, whether technical, commercial, financial or "
        f"operational, and in whatever form, that is disclosed or made available {ci_from} in connection "
        "with the Purpose, whether before or after the date of this Agreement, including drawings, "
        "specifications, test results, calibration data, source and object code, prices, forecasts and "
        "customer information, and any notes, analyses or other material that contain or are derived from "
        "such information.",
        n["reps"],
        "\"Trade Secret\" means any Confidential Information that qualifies as a trade secret under the law "
        "that applies to it.",
    ]
    if "cleanteam" in n["riders"]:
        defs += [
            "\"Competitively Sensitive Information\" means Confidential Information about current or future "
            "prices, discounts, cost build-ups, margins, bidding strategy or customer-specific terms that the "
            "Discloser marks \"CLEAN TEAM ONLY\".",
            "\"Clean Team Members\" means the individuals listed in Annex 1, as updated by written agreement "
            "of the Parties from time to time.",
        ]
    if "dataroom" in n["riders"]:
        defs += [
            "\"Source Code\" means the human-readable form of Vellacott's firmware, together with build "
            "scripts, comments and design notes relating to it.",
            "\"Data Room\" means the secure online repository hosted by or for Vellacott through which "
            "Confidential Information is made available under this Agreement.",
        ]
    defs.append(
        "Headings are for convenience only. The words \"including\" and \"in particular\" do not limit the "
        "words that precede them, and a reference to writing includes email."
    )
    out.append(("definitions", "DEFINITIONS", defs))
    if mutual:
        purpose = [
            f"The Parties intend to exchange Confidential Information for the sole purpose of {n['purpose']} "
            "(the \"Purpose\").",
            "Either Party may disclose Confidential Information under this Agreement. Each Party is the "
            "Discloser of the information it makes available and the Recipient of the information it "
            "receives.",
        ]
    else:
        purpose = [
            f"Vellacott is willing to make Confidential Information available for the sole purpose of "
            f"{n['purpose']} (the \"Purpose\").",
            f"This Agreement is one-way. Only information made available by Vellacott is protected by it; "
            f"information that {n['short']} chooses to give Vellacott (including its comments on the firmware) "
            f"is given on a non-confidential basis unless the Parties agree otherwise in a separate written "
            f"agreement.",
        ]
    out.append(("purpose", "PURPOSE", purpose))
    out.append(("obligations", "CONFIDENTIALITY UNDERTAKINGS", [
        "The Recipient shall hold the Confidential Information in confidence and shall not disclose it to "
        "anyone except as allowed by {ref:permitted} or {ref:compelled}.",
        "The Recipient shall use the Confidential Information only for the Purpose. It shall not use it to "
        "design, make or sell any competing product, to file any patent application, or otherwise to gain "
        "any commercial advantage over the Discloser.",
        "The Recipient shall not make copies of the Confidential Information except to the extent strictly "
        "needed for the Purpose, and every copy shall bear the same confidentiality markings as the original.",
        "The Recipient shall protect the Confidential Information with at least the care it uses for its "
        "own information of a similar kind, and never with less than reasonable care, including access "
        "controls on electronic copies.",
        n["breach"],
    ]))
    permitted = [
        "The Recipient may disclose Confidential Information to those of its Representatives who need to "
        "know it for the Purpose, provided that each of them is told of its confidential nature beforehand "
        "and is bound by duties of confidence no less strict than those in this Agreement.",
        "The Recipient is responsible for any act or omission of its Representatives as if it were its own.",
    ]
    if "cleanteam" in n["riders"]:
        permitted.append("This {ref:permitted} is subject to {ref:cleanteam}.")
    out.append(("permitted", "DISCLOSURE TO REPRESENTATIVES", permitted))
    out.append(("exceptions", "EXCLUDED INFORMATION", [
        "{ref:obligations} does not apply to information that the Recipient can show by written records: "
        "(a) is or becomes generally available to the public other than through a breach of this Agreement; "
        "(b) was lawfully in its possession before the Discloser disclosed it, free of any duty of "
        "confidence; (c) it receives from a third party who is free to disclose it; or (d) it develops "
        "independently, through personnel who had no access to the Confidential Information.",
        "Confidential Information is not excluded merely because some of its individual features are public "
        "or in the Recipient's possession, unless the combination itself is.",
    ]))
    out.append(("compelled", "LEGALLY REQUIRED DISCLOSURE", [
        "The Recipient may disclose Confidential Information to the extent required by law, by order of a "
        "court of competent jurisdiction, by any governmental or regulatory authority, or by the rules of "
        "any stock exchange on which its shares are listed, provided that, to the extent it is lawful to do "
        "so, it first gives the Discloser as much notice as possible, consults with the Discloser on the "
        "content and timing of the disclosure, and discloses no more than is required.",
    ]))
    out.append(("return", "RETURN OF MATERIALS", [
        f"Within {n['return_period']} of the Discloser's written request, or of the expiry or termination of "
        "this Agreement, the Recipient shall return to the Discloser or destroy (as the Discloser directs) "
        "all documents and materials containing Confidential Information and shall permanently erase it "
        "from its computers and devices.",
        "The Recipient may keep copies held in routine electronic back-up systems, or that it must keep "
        "by law, provided they are not accessed in the ordinary course and remain subject to this "
        "Agreement for as long as they are kept.",
        "On request, an authorised officer of the Recipient shall confirm in writing that "
        "{ref:return} has been complied with.",
    ]))
    out.append(("ownership", "OWNERSHIP", [
        "All Confidential Information remains the property of the Discloser. No licence or other right in "
        "any patent, copyright, design or other intellectual property is granted by this Agreement, except "
        "the right to use Confidential Information for the Purpose.",
        "Confidential Information is provided \"as is\". The Discloser gives no warranty as to its accuracy or "
        "completeness and has no liability for its use, except in the case of fraud.",
    ]))
    for rider in n["riders"]:
        out.append(RIDERS[rider](n))
    term = [f"This Agreement starts on the Effective Date and continues for {n['term']}"]
    if n["term_notice"]:
        term[0] += (f", unless either Party ends it earlier by giving the other {n['term_notice']} notice in "
                    "writing.")
    else:
        term[0] += (", unless Vellacott ends it earlier by notice in writing, which takes effect immediately "
                    "and may be given at any time.")
    term.append(n["survival"])
    term.append("Expiry or termination does not affect any rights or remedies that have accrued by then.")
    out.append(("term", "DURATION", term))
    out.append(("remedies", "REMEDIES", [
        "The Recipient acknowledges that damages alone may not be an adequate remedy for a breach of this "
        "Agreement, and that the Discloser is entitled to seek an injunction, specific performance or other "
        "equitable relief for any threatened or actual breach, without proof of special damage.",
        "Where a court finds that the Recipient has broken this Agreement, the Recipient shall also pay the "
        "Discloser's reasonable legal costs of enforcing it.",
    ]))
    out.append(("nodeal", "NO OBLIGATION TO CONTRACT", [
        "Nothing in this Agreement obliges either Party to enter into any further agreement. Either Party may "
        "end the discussions about the Purpose at any time, for any reason.",
        "Each Party bears its own costs in connection with the Purpose and this Agreement.",
    ]))
    out.append(("publicity", "ANNOUNCEMENTS", [
        "Neither Party shall make any public statement about the Purpose or the existence of the discussions "
        "without the other's prior written consent, except as permitted by {ref:compelled}.",
    ]))
    out.append(("assignment", "ASSIGNMENT", [
        "Neither Party may assign, transfer or sub-contract any of its rights or obligations under this "
        "Agreement without the prior written consent of the other.",
    ]))
    out.append(("notices", "NOTICES", [
        "Notices under this Agreement shall be in writing and delivered by hand, by courier or by email to "
        "the address of the receiving Party set out above (for email, to the signatory's business address). "
        "A notice sent by email is deemed received at 9.00 am on the next Business Day.",
    ]))
    out.append(("entire", "WHOLE AGREEMENT", [
        "This Agreement is the entire agreement between the Parties about its subject matter and supersedes "
        "any earlier arrangement about it.",
        "A variation of this Agreement is valid only if it is in writing and signed by both Parties. A delay "
        "in exercising a right is not a waiver of it.",
    ]))
    out.append(("third", "RIGHTS OF OTHER PERSONS", [n["third_party"]]))
    out.append(("law", "GOVERNING LAW", [n["law"]]))
    forum_title = "ARBITRATION" if "arbitration" in n["forum"] else "JURISDICTION"
    out.append(("forum", forum_title, [
        n["forum"],
        "Nothing in this clause prevents the Discloser from seeking interim or injunctive relief in any court "
        "of competent jurisdiction.",
    ]))
    return out


def _feedback(n: dict):
    return ("feedback", "FEEDBACK", [
        "Either Party may give the other comments, suggestions or ideas for improvement about the other's "
        "products, designs or firmware (\"Feedback\").",
        "The Party receiving Feedback about its own products may use, disclose and exploit it freely, without "
        "payment or attribution, provided that it does not disclose any Confidential Information of the other "
        "Party that is contained in the Feedback.",
        "Feedback is given \"as is\", and the Party giving it has no liability for its use.",
    ])


def _visits(n: dict):
    return ("visits", "VISITS TO PREMISES", [
        "Where the Purpose involves visits to Vellacott's calibration laboratory in Bristol or to Orrin's test "
        "rig in Augsburg, the visiting Party shall ensure that its personnel comply with the host's site "
        "safety and security rules and remain accompanied at all times.",
        "No photographs, video or audio recordings may be made in any test or production area without the "
        "host's prior written consent, and any information observed during a visit is Confidential "
        "Information of the host.",
    ])


def _standstill(n: dict):
    return ("standstill", "STANDSTILL", [
        "For twelve months from the Effective Date, Vellacott shall not, and shall procure that its Affiliates "
        "do not, without the prior written consent of the board of Brannock: acquire or offer to acquire any "
        "interest in shares or other securities of Brannock; solicit proxies from Brannock shareholders; or "
        "announce or make any offer for Brannock.",
        "The restrictions in this section cease to apply if a third party announces a firm intention to make "
        "an offer for Brannock under Rule 2.7 of the City Code on Takeovers and Mergers.",
    ])


def _inside(n: dict):
    return ("inside", "INSIDE INFORMATION", [
        "Vellacott acknowledges that some of Brannock's Confidential Information may be inside information for "
        "the purposes of the UK Market Abuse Regulation, and that it may therefore be prohibited from dealing "
        "in Brannock securities, or encouraging another person to deal, while it holds that information.",
        "Vellacott shall keep, and supply to Brannock on request, an up-to-date list of the individuals to whom "
        "it has given any of Brannock's Confidential Information.",
    ])


def _cleanteam(n: dict):
    return ("cleanteam", "CLEAN TEAM", [
        "Competitively Sensitive Information may be disclosed only to Clean Team Members. No Clean Team Member "
        "may be directly involved in setting the prices or commercial terms on which the Recipient buys or "
        "sells products of the kind covered by the Purpose for twelve months after last receiving such "
        "information.",
        "Clean Team Members may give other Representatives summaries or conclusions derived from Competitively "
        "Sensitive Information only in aggregated form that has first been reviewed and cleared by the "
        "Recipient's external legal counsel.",
        "Each Party shall keep a record of the Competitively Sensitive Information it receives and of the "
        "Clean Team Members who accessed it.",
    ])


def _nonsolicit(n: dict):
    return ("nonsolicit", "NON-SOLICITATION", [
        "For twelve months from the Effective Date, neither Party shall solicit or offer employment to any "
        "employee of the other Party with whom it first had contact in connection with the Purpose.",
        "A general recruitment advertisement not targeted at the other Party's employees, and hiring anyone "
        "who responds to it, is not a breach of this clause.",
    ])


def _dataroom(n: dict):
    return ("dataroom", "SOURCE CODE AND DATA ROOM", [
        "Vellacott will make Source Code available only through the Data Room in read-only form. The Recipient "
        "shall not download, print, photograph, transcribe or take screenshots of Source Code, and shall not "
        "attempt to compile, decompile or reverse engineer any part of the firmware.",
        "Access to the Data Room is limited to no more than five named individuals approved by Vellacott. The "
        "Recipient shall ensure that log-in credentials are not shared, and acknowledges that Vellacott "
        "records all access and activity in the Data Room.",
        "Vellacott may suspend or withdraw access to the Data Room at any time, and access ends automatically "
        "when this Agreement expires or is terminated.",
    ])


RIDERS = {"feedback": _feedback, "visits": _visits, "standstill": _standstill, "inside": _inside,
          "cleanteam": _cleanteam, "nonsolicit": _nonsolicit, "dataroom": _dataroom}


def render_en(n: dict) -> str:
    cls = clauses_en(n)
    numbered = n["style"] == "numbered"
    number_of = {key: i for i, (key, _h, _p) in enumerate(cls, start=1)}
    heading_of = {key: h for key, h, _p in cls}

    def ref(m: re.Match) -> str:
        key = m.group(1)
        if numbered:
            return f"clause {number_of[key]}"
        return f"the section headed {heading_of[key]}"

    title = "MUTUAL NON-DISCLOSURE AGREEMENT" if n["mutual"] else "ONE-WAY CONFIDENTIALITY AGREEMENT"
    lines = [title, "", f"THIS AGREEMENT is dated {n['date']} (the \"Effective Date\")", "", "BETWEEN:", "",
             f"(1) {VELLACOTT}; and", "", f"(2) {n['party']}.", "",
             f"Vellacott and {n['short']} are each a \"Party\" and together the \"Parties\".", "",
             "IT IS AGREED as follows:", ""]
    for i, (_key, heading, paras) in enumerate(cls, start=1):
        if numbered:
            lines.append(f"{i}. {heading}")
            for j, para in enumerate(paras, start=1):
                lines.append(f"{i}.{j} {para}")
            lines.append("")
        else:
            lines += [heading, ""]
            for para in paras:
                lines += [para, ""]
    text = "\n".join(lines)
    def refs(m: re.Match) -> str:
        keys = m.group(1).split(",")
        if numbered:
            nums = [str(number_of[k]) for k in keys]
            return "clauses " + ", ".join(nums[:-1]) + " and " + nums[-1]
        heads = [heading_of[k] for k in keys]
        return "the sections headed " + ", ".join(heads[:-1]) + " and " + heads[-1]

    text = re.sub(r"\{refs:([\w,]+)\}", refs, text)
    text = re.sub(r"\{ref:(\w+)\}", ref, text)
    # "This clause 4 is subject to ..." reads oddly when the reference is the clause itself
    text = re.sub(r"This clause (\d+) is subject to", r"This clause is subject to", text)
    text = re.sub(r"This the section headed [A-Z ]+ is subject to", "This section is subject to", text)
    # sentence-initial references
    text = re.sub(r"(?m)^(\d+\.\d+ )clause", r"\1Clause", text)
    text = re.sub(r"(?m)^the section headed", "The section headed", text)
    if not numbered:
        text = text.replace("Nothing in this clause prevents", "Nothing in this section prevents")
        text = text.replace("is not a breach of this clause", "is not a breach of this section")
    sig = ["SIGNED by the Parties on the Effective Date.", "",
           "For and on behalf of VELLACOTT INSTRUMENTS LIMITED", f"Name: {VELLACOTT_SIGN}",
           "Signature: ______________________", "",
           f"For and on behalf of {n['party_full'].upper()}", f"Name: {n['sign']}",
           "Signature: ______________________", ""]
    if "cleanteam" in n["riders"]:
        sig += ["ANNEX 1 – CLEAN TEAM MEMBERS", "",
                "For Vellacott: Dr Priya Raman (Head of Systems Engineering); Tomasz Wielgosz (Senior "
                "Applications Engineer); outside counsel Harrow Lane LLP.", "",
                "For Kittredge: Maria Ocampo (Director, Tailings Engineering); Jeremy Fitch (Environmental "
                "Compliance Manager); outside counsel Brandt Selwyn LLP.", ""]
    return text + "\n".join(sig)


# ---------------------------------------------------------------------------------------------
# Italian translation of the template (Vellacott Italia / Idrotecnica Valbasento)


VALBASENTO = dict(
    file="nda-vellacott-valbasento", iso="2025-11-24",
    title_meta="Accordo di riservatezza – Vellacott Italia / Idrotecnica Valbasento (sensori rete idrica)",
    tags=["nda", "accordo-di-riservatezza", "penale", "campioni", "1341"],
)


def render_it() -> str:
    arts = [
        ("Definizioni", [
            "Nel presente accordo (l'\"Accordo\") i termini che seguono hanno il significato qui indicato.",
            "\"Affiliata\": qualsiasi società che controlla una Parte, è da essa controllata o è sottoposta a "
            "comune controllo con essa ai sensi dell'art. 2359 c.c.",
            "\"Giorno Lavorativo\": qualsiasi giorno diverso dal sabato, dalla domenica e dai giorni festivi "
            "nazionali in Italia.",
            "\"Informazioni Riservate\": qualsiasi informazione di natura tecnica, commerciale, finanziaria od "
            "organizzativa, in qualunque forma, che una Parte o le sue Affiliate (la \"Parte Divulgante\") "
            "mettono a disposizione dell'altra Parte o dei suoi Rappresentanti (la \"Parte Ricevente\") in "
            "relazione alla Finalità, prima o dopo la data dell'Accordo, compresi disegni, specifiche, risultati "
            "di prova, dati di taratura, codice sorgente e oggetto, prezzi, previsioni e informazioni sui clienti, "
            "nonché gli appunti, le analisi e gli altri materiali che le contengono o ne derivano.",
            "\"Rappresentanti\": le Affiliate di una Parte e i rispettivi amministratori, dirigenti, dipendenti e "
            "consulenti professionali (avvocati, commercialisti e revisori).",
            "\"Campioni\": i dispositivi descritti all'art. 7.",
            "Le rubriche degli articoli hanno funzione esclusivamente indicativa.",
        ]),
        ("Finalità", [
            "Le Parti intendono scambiarsi Informazioni Riservate al solo scopo di valutare la fornitura, da "
            "parte di Vellacott Italia, di sensori di pressione e di qualità dell'acqua e della relativa "
            "piattaforma di telelettura per la rete di distribuzione gestita da Valbasento in Basilicata (la "
            "\"Finalità\").",
            "Ciascuna Parte può comunicare Informazioni Riservate ai sensi dell'Accordo ed è Parte Divulgante "
            "per le informazioni che mette a disposizione e Parte Ricevente per quelle che riceve.",
        ]),
        ("Obblighi di riservatezza", [
            "La Parte Ricevente mantiene riservate le Informazioni Riservate e non le comunica a terzi, salvo "
            "quanto consentito dall'art. 4 e dall'art. 6.",
            "La Parte Ricevente utilizza le Informazioni Riservate esclusivamente per la Finalità. Non può "
            "utilizzarle per progettare, produrre o vendere prodotti concorrenti, per depositare domande di "
            "brevetto o comunque per ottenere un vantaggio commerciale sulla Parte Divulgante.",
            "La Parte Ricevente non esegue copie delle Informazioni Riservate se non nei limiti strettamente "
            "necessari alla Finalità; ogni copia reca le stesse indicazioni di riservatezza dell'originale.",
            "La Parte Ricevente protegge le Informazioni Riservate con una diligenza non inferiore a quella che "
            "usa per le proprie informazioni di natura analoga e, in ogni caso, con la diligenza richiesta "
            "dall'art. 1176, comma 2, c.c., adottando controlli di accesso sulle copie elettroniche.",
            "La Parte Ricevente informa per iscritto la Parte Divulgante entro 48 ore da quando viene a "
            "conoscenza di qualsiasi perdita, accesso non autorizzato o divulgazione, anche solo sospetti, di "
            "Informazioni Riservate, e adotta a proprie spese ogni misura ragionevole per limitarne le "
            "conseguenze.",
        ]),
        ("Comunicazione ai Rappresentanti", [
            "La Parte Ricevente può comunicare le Informazioni Riservate ai propri Rappresentanti che abbiano "
            "necessità di conoscerle per la Finalità, a condizione che ciascuno di essi sia previamente informato "
            "della loro natura riservata e sia vincolato da obblighi di riservatezza non meno rigorosi di quelli "
            "dell'Accordo.",
            "La Parte Ricevente risponde degli atti e delle omissioni dei propri Rappresentanti come se fossero "
            "propri, anche ai sensi dell'art. 1381 c.c.",
        ]),
        ("Informazioni escluse", [
            "Gli obblighi di cui all'art. 3 non si applicano alle informazioni che la Parte Ricevente dimostri, "
            "sulla base di documenti scritti: a) essere o divenire di pubblico dominio per cause diverse dalla "
            "violazione dell'Accordo; b) essere già lecitamente in suo possesso prima della comunicazione, senza "
            "vincoli di riservatezza; c) essere state ricevute da un terzo libero di comunicarle; d) essere state "
            "sviluppate autonomamente da personale che non ha avuto accesso alle Informazioni Riservate.",
            "Le Informazioni Riservate non rientrano nelle esclusioni per il solo fatto che singoli elementi di "
            "esse siano pubblici o già noti alla Parte Ricevente, se non è tale la loro combinazione.",
        ]),
        ("Divulgazione imposta dalla legge", [
            "La Parte Ricevente può divulgare le Informazioni Riservate nella misura richiesta dalla legge, da un "
            "provvedimento dell'autorità giudiziaria o da un'autorità amministrativa o di vigilanza, purché, ove "
            "consentito, ne dia preventiva comunicazione alla Parte Divulgante con il massimo anticipo possibile, "
            "la consulti su contenuto e tempi della divulgazione e divulghi soltanto quanto strettamente "
            "richiesto.",
        ]),
        ("Campioni", [
            "Vellacott Italia concede a Valbasento in comodato d'uso gratuito, ai sensi degli artt. 1803 e "
            "seguenti c.c., dodici sensori di pressione VP-40 e quattro sonde multiparametriche VQ-7 (i "
            "\"Campioni\"), da utilizzare esclusivamente per prove sulla rete di Valbasento nell'ambito della "
            "Finalità.",
            "Valbasento non smonta, non apre e non analizza i Campioni, non ne estrae il firmware e non li "
            "consegna a terzi. I Campioni e i dati di funzionamento che essi registrano sono Informazioni "
            "Riservate di Vellacott Italia.",
            "Dalla consegna e fino alla restituzione, il rischio di perimento, furto o danneggiamento dei Campioni "
            "è a carico di Valbasento, anche se dovuto a caso fortuito, in deroga all'art. 1805 c.c.",
            "Valbasento restituisce i Campioni entro 15 giorni dalla richiesta di Vellacott Italia e in ogni caso "
            "alla cessazione dell'Accordo.",
        ]),
        ("Restituzione e distruzione", [
            "Entro 15 giorni dalla richiesta scritta della Parte Divulgante, o dalla scadenza o cessazione "
            "dell'Accordo, la Parte Ricevente restituisce o distrugge, secondo le indicazioni della Parte "
            "Divulgante, tutti i documenti e materiali che contengono Informazioni Riservate e le cancella in "
            "modo permanente dai propri sistemi e dispositivi.",
            "La Parte Ricevente può conservare le copie presenti nei sistemi di back-up automatico o che deve "
            "conservare per legge, purché non vi acceda nell'ordinaria attività; tali copie restano soggette "
            "all'Accordo finché sono conservate.",
            "Su richiesta, un legale rappresentante della Parte Ricevente conferma per iscritto l'avvenuto "
            "adempimento di quanto previsto dal presente articolo.",
        ]),
        ("Proprietà e assenza di garanzie", [
            "Le Informazioni Riservate restano di proprietà della Parte Divulgante. L'Accordo non attribuisce "
            "licenze o altri diritti su brevetti, diritti d'autore, disegni o altri diritti di proprietà "
            "industriale o intellettuale, salvo il diritto di utilizzare le Informazioni Riservate per la "
            "Finalità.",
            "Le Informazioni Riservate sono fornite \"nello stato in cui si trovano\": la Parte Divulgante non ne "
            "garantisce l'esattezza o la completezza e non risponde del loro utilizzo, salvo il caso di dolo o "
            "colpa grave.",
        ]),
        ("Durata e recesso", [
            "L'Accordo entra in vigore alla data di sottoscrizione e ha durata di tre anni. Ciascuna Parte può "
            "recedere in qualsiasi momento con preavviso scritto di 60 giorni, da inviare a mezzo posta "
            "elettronica certificata.",
            "Gli obblighi di cui agli artt. 3, 4 e 8 restano in vigore per cinque anni dalla scadenza o dalla "
            "cessazione dell'Accordo, per qualsiasi causa.",
            "La scadenza o la cessazione dell'Accordo non pregiudica i diritti già maturati.",
        ]),
        ("Penale", [
            "Per ciascuna violazione degli obblighi di cui agli artt. 3, 4 e 7, la Parte inadempiente è tenuta a "
            "corrispondere all'altra, a titolo di penale ai sensi dell'art. 1382 c.c., la somma di euro "
            "30.000,00 (trentamila/00), salvo il risarcimento del maggior danno.",
            "La penale è dovuta a seguito di semplice richiesta scritta e indipendentemente dalla prova del danno.",
            "Resta salvo il diritto della Parte non inadempiente di chiedere all'autorità giudiziaria "
            "provvedimenti d'urgenza, anche ai sensi dell'art. 700 c.p.c., per impedire una violazione in corso "
            "o imminente.",
        ]),
        ("Nessun obbligo a contrarre", [
            "L'Accordo non obbliga alcuna Parte a concludere ulteriori contratti. Ciascuna Parte può interrompere "
            "in qualsiasi momento le trattative relative alla Finalità, fermo quanto previsto dall'art. 1337 c.c.",
            "Ciascuna Parte sostiene i propri costi relativi alla Finalità e all'Accordo.",
        ]),
        ("Comunicati e pubblicità", [
            "Nessuna Parte rilascia dichiarazioni pubbliche sulla Finalità o sull'esistenza delle trattative "
            "senza il previo consenso scritto dell'altra, salvo quanto previsto dall'art. 6.",
        ]),
        ("Cessione", [
            "Nessuna Parte può cedere l'Accordo o i diritti e gli obblighi che ne derivano senza il previo "
            "consenso scritto dell'altra.",
        ]),
        ("Comunicazioni", [
            "Le comunicazioni relative all'Accordo sono effettuate per iscritto, a mezzo posta elettronica "
            "certificata agli indirizzi indicati in epigrafe o a mezzo raccomandata con avviso di ricevimento "
            "presso le sedi delle Parti.",
        ]),
        ("Intero accordo e modifiche", [
            "L'Accordo costituisce l'intera intesa tra le Parti sul suo oggetto e sostituisce ogni precedente "
            "intesa al riguardo.",
            "Le modifiche dell'Accordo sono valide solo se redatte per iscritto e sottoscritte da entrambe le "
            "Parti. Il mancato o ritardato esercizio di un diritto non costituisce rinuncia allo stesso.",
        ]),
        ("Legge applicabile e foro competente", [
            "L'Accordo è regolato dalla legge italiana.",
            "Per ogni controversia relativa all'interpretazione, all'esecuzione o alla cessazione dell'Accordo è "
            "competente in via esclusiva il Tribunale di Bologna, salvo quanto previsto dall'art. 11, comma 3, "
            "per i provvedimenti d'urgenza.",
        ]),
    ]
    lines = [
        "ACCORDO DI RISERVATEZZA", "",
        "tra", "",
        "VELLACOTT ITALIA S.r.l., società soggetta a direzione e coordinamento di Vellacott Instruments Limited, "
        "con sede legale in Bologna, Via dell'Industria 41, codice fiscale e partita IVA 03688121205, PEC "
        "vellacottitalia@pec-mail.it, in persona dell'Amministratore Delegato dott. Marco Gualandi (\"Vellacott "
        "Italia\")", "",
        "e", "",
        "IDROTECNICA VALBASENTO S.p.A., con sede legale in Potenza, Via del Gallitello 231, codice fiscale e "
        "partita IVA 01964730765, PEC idrotecnicavalbasento@legalmail.it, in persona dell'Amministratore "
        "Delegato ing. Rocco Lapenta (\"Valbasento\")", "",
        "(di seguito, congiuntamente, le \"Parti\" e, singolarmente, la \"Parte\")", "",
        "Le Parti convengono quanto segue.", "",
    ]
    for i, (title, commi) in enumerate(arts, start=1):
        lines.append(f"Art. {i} – {title}")
        for j, comma in enumerate(commi, start=1):
            lines.append(f"{j}. {comma}")
        lines.append("")
    lines += [
        "Bologna, 24 novembre 2025", "",
        "Letto, confermato e sottoscritto.", "",
        "Vellacott Italia S.r.l. – dott. Marco Gualandi ______________________", "",
        "Idrotecnica Valbasento S.p.A. – ing. Rocco Lapenta ______________________", "",
        "Approvazione specifica ai sensi degli artt. 1341 e 1342 c.c.", "",
        "Ai sensi e per gli effetti degli artt. 1341 e 1342 c.c., Idrotecnica Valbasento S.p.A. dichiara di avere "
        "letto e di approvare specificamente le seguenti clausole: art. 7 (Campioni: rischio a carico del "
        "comodatario anche per caso fortuito); art. 9 (Proprietà e assenza di garanzie: limitazione di "
        "responsabilità); art. 10 (Durata e recesso); art. 11 (Penale); art. 17 (Legge applicabile e foro "
        "competente: deroga alla competenza territoriale).", "",
        "Idrotecnica Valbasento S.p.A. – ing. Rocco Lapenta ______________________", "",
    ]
    return "\n".join(lines)


def main(out: Path) -> None:
    for n in NDAS.values():
        meta = {
            "doc_id": n["file"], "title": n["title_meta"], "doc_type": "nda", "language": "en",
            "jurisdiction": n["jurisdiction"], "version": "1", "valid_from": n["iso"], "valid_to": None,
            "parties": ["Vellacott Instruments Limited", n["party_full"]], "signed_at": n["iso"],
            "acl": [], "public": True, "tags": n["tags"],
        }
        goldlib.write_document(out, n["file"], render_en(n), meta)
    v = VALBASENTO
    meta = {
        "doc_id": v["file"], "title": v["title_meta"], "doc_type": "nda", "language": "it",
        "jurisdiction": "IT", "version": "1", "valid_from": v["iso"], "valid_to": None,
        "parties": ["Vellacott Italia S.r.l.", "Idrotecnica Valbasento S.p.A."], "signed_at": v["iso"],
        "acl": [], "public": True, "tags": v["tags"],
    }
    goldlib.write_document(out, v["file"], render_it(), meta)


if __name__ == "__main__":
    main(goldlib.out_dir(sys.argv[1:], Path(__file__).resolve().parent.parent / "corpus"))
