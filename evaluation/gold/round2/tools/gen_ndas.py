"""Generate the five look-alike Corvane mutual NDAs from one shared template.

Real NDA families are produced exactly like this: one house template, a few per-deal
variables and an occasional rider clause. Run once; the outputs are committed as data:

    python tools/gen_ndas.py corpus/

Numbered NDAs use "1. TITLE" / "1.1 text"; unnumbered ones use bare ALL-CAPS headings
with plain paragraphs (cross-references then name the heading, not a number).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

CORVANE = (
    "CORVANE TECHNOLOGIES LIMITED, a company incorporated in England and Wales with company "
    "number 10482736 whose registered office is at 41 Tallis Yard, London SE1 9QN (\"Corvane\")"
)


def clauses(n: dict) -> list[tuple[str, str, list[str]]]:
    """(key, heading, paragraphs) in document order; {ref:key} / {ref:key.i} are rendered later."""

    out: list[tuple[str, str, list[str]]] = []
    out.append(("definitions", "DEFINITIONS AND INTERPRETATION", [
        "In this Agreement the following words and expressions have the following meanings:",
        "\"Affiliate\" means, in relation to a Party, any entity that directly or indirectly controls, "
        "is controlled by, or is under common control with that Party from time to time, where "
        "\"control\" means the ownership of more than fifty per cent of the voting rights or the power "
        "to direct the management and policies of the entity.",
        "\"Business Day\" means a day other than a Saturday, Sunday or public holiday in "
        f"{n['bd_place']}.",
        "\"Confidential Information\" means all information of a confidential nature, in whatever form "
        "or medium, disclosed or made available, directly or indirectly, by or on behalf of a Party or its "
        "Affiliates (the \"Discloser\") to the other Party or its Affiliates or Representatives (the "
        "\"Recipient\"), whether before, on or after the date of this Agreement, including without "
        "limitation technical data, designs, drawings, specifications, software in source or object code, "
        "algorithms, data sets, models, samples, business plans, forecasts, pricing, customer and supplier "
        "information and know-how, together with all analyses, compilations, notes and other materials "
        "prepared by the Recipient to the extent that they contain or reflect any such information, and the "
        "fact that the Parties are in discussions concerning the Purpose.",
        n["reps_def"],
        *n.get("extra_defs", []),
        "Clause headings do not affect the interpretation of this Agreement. Words such as \"including\" "
        "and \"in particular\" are illustrative and do not limit the sense of the words that precede them. "
        "A reference to a Party includes its successors and permitted assigns, and a reference to writing "
        "includes email.",
    ]))
    out.append(("purpose", "PURPOSE", [
        f"The Parties wish to exchange Confidential Information for the sole purpose of {n['purpose']} "
        "(the \"Purpose\").",
        "Each Party may disclose Confidential Information to the other under this Agreement and each Party "
        "shall therefore act as Discloser in respect of the information it discloses and as Recipient in "
        "respect of the information it receives.",
    ]))
    out.append(("obligations", "CONFIDENTIALITY OBLIGATIONS", [
        "In consideration of the Discloser making Confidential Information available, the Recipient "
        "undertakes to keep the Confidential Information secret and confidential and not to disclose it, "
        "directly or indirectly, to any third party except as permitted by {ref:permitted} or "
        "{ref:compelled}.",
        "The Recipient shall not use, exploit or commercialise the Confidential Information for any "
        "purpose other than the Purpose, and in particular shall not use it to compete with the Discloser "
        "or to obtain any commercial advantage over the Discloser.",
        "The Recipient shall not copy or reduce to writing any of the Confidential Information except as "
        "strictly necessary for the Purpose, and any copies shall be the property of the Discloser and shall "
        "carry the same confidentiality markings as the original.",
        "The Recipient shall apply to the Confidential Information security measures and a degree of care "
        "no less rigorous than those it applies to its own confidential information of a similar nature, "
        "and in any event no less than a reasonable degree of care, including appropriate technical and "
        "organisational controls over access to electronic copies.",
        n["breach_notice"],
    ]))
    out.append(("permitted", "PERMITTED DISCLOSURE", [
        "The Recipient may disclose the Confidential Information to those of its Representatives who need "
        "to know it for the Purpose, provided that the Recipient informs each of them of its confidential "
        "nature before disclosure.",
        "The Recipient shall procure that each Representative to whom Confidential Information is "
        "disclosed complies with the obligations in {ref:obligations} as if it were a party to this "
        "Agreement, and the Recipient shall be liable for any act or omission of its Representatives that "
        "would be a breach of this Agreement if done or omitted by the Recipient.",
    ]))
    out.append(("exceptions", "EXCEPTIONS", [
        "The obligations in {ref:obligations} shall not apply to any information to the extent that the "
        "Recipient can show that (a) it is or becomes generally available to the public other than as a "
        "result of its disclosure by the Recipient or its Representatives in breach of this Agreement; "
        "(b) it was lawfully in the possession of the Recipient, free of any obligation of confidence, "
        "before it was disclosed by the Discloser; (c) it is lawfully received by the Recipient from a "
        "third party who is not under any obligation of confidence to the Discloser in respect of it; or "
        f"(d) {n['indep_dev']}",
        "The burden of showing that any of the circumstances in {ref:exceptions.1} applies rests on the "
        "Recipient. Information shall not be treated as falling within those circumstances merely because "
        "individual features of it are in the public domain or in the Recipient's possession, unless the "
        "combination of those features and their principle of operation are also so available.",
    ]))
    out.append(("compelled", "DISCLOSURE REQUIRED BY LAW", [
        "The Recipient may disclose Confidential Information to the extent that it is required to do so by "
        "law, by any governmental or other regulatory authority, by a court or other authority of competent "
        "jurisdiction or by the rules of any securities exchange on which its shares or those of its "
        "Affiliates are listed.",
        "Before making any such disclosure the Recipient shall, to the extent permitted by law, give the "
        "Discloser as much notice as possible of the disclosure, consult with the Discloser on its timing "
        "and content, take into account the Discloser's reasonable requests, and co-operate with any "
        "attempt by the Discloser to obtain a protective order or other remedy. The Recipient shall "
        "disclose only that part of the Confidential Information which it is legally required to disclose.",
    ]))
    if "personal_data" in n:
        out.append(("personal_data", "PERSONAL DATA", n["personal_data"]))
    out.append(("return", n["return_heading"], [
        "The Recipient shall, within " + n["return_days"] + " of a written request from the Discloser, or "
        "automatically on the expiry or termination of this Agreement, at the Discloser's option return to "
        "the Discloser or securely destroy all documents and materials, in whatever form, containing or "
        "reflecting the Discloser's Confidential Information, and permanently erase it from any computer, "
        "storage device or cloud service under the Recipient's control.",
        "The Recipient may retain Confidential Information to the extent required by applicable law or by "
        "the rules of a regulatory authority to which it is subject, and in electronic back-up systems "
        "from which deletion is not reasonably practicable, provided that such retained information is not "
        "accessed for any other purpose and remains subject to this Agreement for as long as it is retained.",
        n["certify"],
    ]))
    if "samples" in n:
        out.append(("samples", "SAMPLES AND PROTOTYPES", n["samples"]))
    out.append(("no_licence", "NO LICENCE AND NO WARRANTY", [
        "All Confidential Information remains the property of the Discloser. Nothing in this Agreement "
        "grants the Recipient any licence or other right in or to any patent, copyright, trade mark, "
        "design right, database right or other intellectual property of the Discloser, except the limited "
        "right to use the Confidential Information for the Purpose.",
        "The Confidential Information is provided \"as is\". The Discloser gives no warranty or "
        "representation as to its accuracy, completeness or fitness for any purpose, and shall have no "
        "liability to the Recipient arising from its use, save in the case of fraud.",
        "Neither Party is obliged by this Agreement to enter into any further agreement or transaction, "
        "and either Party may end discussions concerning the Purpose at any time without liability.",
    ]))
    out.append(("term", n["term_heading"], n["term"]))
    for key, heading, paras in n.get("riders", []):
        out.append((key, heading, paras))
    out.append(("remedies", "REMEDIES", [
        "Each Party acknowledges that damages alone may not be an adequate remedy for a breach of this "
        "Agreement and that the Discloser shall be entitled to seek the remedies of injunction, specific "
        "performance and other equitable or interim relief for any threatened or actual breach, in "
        "addition to any other remedy available to it, without proof of special damage.",
    ]))
    out.append(("announcements", "ANNOUNCEMENTS", [
        "Neither Party shall make, or permit any person to make, any public announcement or press release "
        "concerning this Agreement, the Purpose or the discussions between the Parties, or use the name "
        "or logo of the other Party in any marketing material, without the prior written consent of the "
        "other Party, save as required by law.",
    ]))
    out.append(("assignment", "ASSIGNMENT", [
        "Neither Party may assign, transfer, charge, subcontract or otherwise deal with any of its rights "
        "or obligations under this Agreement without the prior written consent of the other Party, which "
        "shall not be unreasonably withheld, save that either Party may assign this Agreement to an "
        "Affiliate on written notice to the other Party.",
    ]))
    out.append(("notices", "NOTICES", [n["notices"]]))
    out.append(("entire", "ENTIRE AGREEMENT, VARIATION AND WAIVER", [
        "This Agreement constitutes the entire agreement between the Parties relating to its subject "
        "matter and supersedes all previous agreements, arrangements and understandings between them, "
        "whether written or oral, relating to that subject matter.",
        "No variation of this Agreement shall be effective unless it is in writing and signed by an "
        "authorised representative of each Party. No failure or delay by a Party in exercising any right "
        "or remedy shall operate as a waiver of it, nor shall any single or partial exercise of any right "
        "or remedy prevent its further exercise.",
    ]))
    out.append(("third_parties", "THIRD PARTY RIGHTS", [n["third_parties"]]))
    out.append(("counterparts", "COUNTERPARTS AND ELECTRONIC SIGNATURE", [
        "This Agreement may be executed in any number of counterparts, each of which when executed shall "
        "constitute an original and all of which together shall constitute one agreement. Signature by "
        "means of a qualified or advanced electronic signature, or by exchange of scanned signed copies, "
        "shall be as effective as signature of a wet-ink original.",
    ]))
    out.append(("law", "GOVERNING LAW", [n["law"]]))
    out.append(("jurisdiction", "JURISDICTION", n["jurisdiction"]))
    return out


def render(n: dict) -> str:
    items = clauses(n)
    numbered = n["numbered"]
    number = {key: i for i, (key, _, _) in enumerate(items, start=1)}
    heading_of = {key: heading for key, heading, _ in items}

    def ref(text: str) -> str:
        import re

        def sub(m: re.Match[str]) -> str:
            key, _, sub_no = m.group(1).partition(".")
            if numbered:
                return f"clause {number[key]}" + (f".{sub_no}" if sub_no else "")
            title = " ".join(w if i == 0 or w not in ("And", "Of", "By", "To") else w.lower()
                             for i, w in enumerate(heading_of[key].title().split()))
            return f"the clause headed \"{title}\""

        return re.sub(r"\{ref:([a-z_]+(?:\.\d+)?)\}", sub, text)

    lines: list[str] = ["MUTUAL NON-DISCLOSURE AGREEMENT", ""]
    lines.append(
        f"THIS AGREEMENT is made on {n['date_words']} (the \"Effective Date\")"
    )
    lines.append("")
    lines.append("BETWEEN:")
    lines.append("")
    lines.append(f"(1) {CORVANE}; and")
    lines.append("")
    lines.append(f"(2) {n['counterparty']}.")
    lines.append("")
    lines.append(f"Corvane and {cp_name(n)} are each a \"Party\" and together the \"Parties\".")
    lines.append("")
    lines.append("IT IS AGREED as follows:")
    lines.append("")
    for i, (key, heading, paras) in enumerate(items, start=1):
        if numbered:
            lines.append(f"{i}. {heading}")
            lines.append("")
            if len(paras) == 1:
                lines.append(ref(paras[0]))
                lines.append("")
            else:
                for j, p in enumerate(paras, start=1):
                    if key == "definitions" and 1 < j < len(paras):
                        # definitions are indented paragraphs of clause 1.1
                        lines.append(ref(p))
                    elif key == "definitions" and j == len(paras):
                        lines.append(f"{i}.2 {ref(p)}")
                    else:
                        lines.append(f"{i}.{j} {ref(p)}")
                    lines.append("")
        else:
            lines.append(heading)
            lines.append("")
            for p in paras:
                lines.append(ref(p))
                lines.append("")
    lines.append(n["signature"])
    return "\n".join(lines).rstrip() + "\n"


def cp_name(n: dict) -> str:
    return n["short"]


NDAS: list[dict] = [
    {
        "file": "nda-corvane-kestrel",
        "short": "Kestrel",
        "numbered": True,
        "date_words": "14 March 2024",
        "counterparty": (
            "OFFICINE FABBRI ROBOTICA S.R.L., a company incorporated in Italy, registered with the "
            "Companies Register of Turin under number 11873450013, whose registered office is at Corso "
            "Francia 212, 10146 Torino, Italy, and which trades under the name \"Kestrel Robotics\" "
            "(\"Kestrel\")"
        ),
        "bd_place": "London or Turin",
        "purpose": (
            "evaluating and, if the Parties so agree, jointly developing a vision-guided robotic picking "
            "cell combining Kestrel's gripper and arm hardware with Corvane's machine-vision software"
        ),
        "reps_def": (
            "\"Representatives\" means, in relation to a Party, its Affiliates and its and their "
            "directors, officers, employees, agents and professional advisers who need to know the "
            "Confidential Information for the Purpose."
        ),
        "breach_notice": (
            "The Recipient shall notify the Discloser in writing within forty-eight (48) hours of becoming "
            "aware of any actual or suspected unauthorised access to, or use or disclosure of, the "
            "Discloser's Confidential Information, and shall take all reasonable steps requested by the "
            "Discloser to limit its consequences."
        ),
        "indep_dev": (
            "it is independently developed by or for the Recipient by individuals who have had no access "
            "to the Confidential Information."
        ),
        "return_heading": "RETURN AND DESTRUCTION OF MATERIALS",
        "return_days": "ten (10) Business Days",
        "certify": (
            "On request, the Recipient shall confirm in writing, signed by one of its directors, that it "
            "has complied with this clause."
        ),
        "samples": [
            "Where the Discloser lends or delivers to the Recipient any hardware, gripper units, sensors, "
            "prototypes or other physical samples for the Purpose (\"Samples\"), the Samples remain the "
            "property of the Discloser at all times and are held by the Recipient at its own risk until "
            "returned.",
            "The Recipient shall not, and shall not permit any person to, disassemble, decompile, "
            "reverse engineer, analyse the chemical or physical composition of, or attempt to derive the "
            "design or source code of, any Sample, save to the extent that such restriction is prohibited "
            "by applicable law.",
            "The Recipient shall return all Samples to the Discloser, at the Recipient's cost and in the "
            "condition in which they were delivered (fair wear and tear excepted), within ten (10) Business "
            "Days of a written request from the Discloser.",
        ],
        "term_heading": "TERM",
        "term": [
            "This Agreement commences on the Effective Date and shall continue for a period of two (2) "
            "years, unless terminated earlier by either Party on not less than thirty (30) days' written "
            "notice to the other Party.",
            "Notwithstanding the expiry or termination of this Agreement, the obligations of the Parties "
            "under clauses 3 to 9 shall continue in force for a period of three (3) years from the date of "
            "such expiry or termination.",
        ],
        "notices": (
            "Any notice under this Agreement shall be in writing and delivered by hand, by courier or by "
            "email to the address of the relevant Party set out above (or such other address as that Party "
            "may notify). Notices to Kestrel may also be sent by certified email (posta elettronica "
            "certificata) to officinefabbri@pec.it. A notice sent by email is deemed received at the time "
            "of transmission if sent during business hours on a Business Day, and otherwise at 9.00 a.m. on "
            "the next Business Day."
        ),
        "third_parties": (
            "A person who is not a Party to this Agreement shall have no right to enforce any of its terms, "
            "save that the Affiliates of the Discloser may enforce the obligations of the Recipient in "
            "respect of Confidential Information disclosed on their behalf."
        ),
        "law": (
            "This Agreement, and any dispute or claim, including any non-contractual dispute or claim, "
            "arising out of or in connection with it or its subject matter, is governed by and shall be "
            "construed in accordance with the laws of the Republic of Italy."
        ),
        "jurisdiction": [
            "The Court of Turin (Tribunale di Torino) shall have exclusive jurisdiction to settle any "
            "dispute or claim arising out of or in connection with this Agreement or its subject matter or "
            "formation.",
            "Nothing in this clause shall prevent either Party from seeking interim or injunctive relief "
            "in any court of competent jurisdiction.",
        ],
        "signature": (
            "Signed by the authorised representatives of the Parties on the date set out at the beginning "
            "of this Agreement.\n\n"
            "For and on behalf of CORVANE TECHNOLOGIES LIMITED\nName: Eleanor Brandt\nTitle: Chief Operating "
            "Officer\n\n"
            "For and on behalf of OFFICINE FABBRI ROBOTICA S.R.L.\nName: Giulio Fabbri\nTitle: "
            "Amministratore Delegato"
        ),
        "meta": {
            "doc_id": "nda-corvane-kestrel",
            "title": "Mutual NDA – Corvane Technologies / Officine Fabbri Robotica (Kestrel Robotics)",
            "doc_type": "nda",
            "language": "en",
            "jurisdiction": "IT",
            "valid_from": "2024-03-14",
            "parties": ["Corvane Technologies Limited", "Officine Fabbri Robotica S.r.l."],
            "signed_at": "2024-03-14",
            "public": True,
            "tags": ["nda", "robotics"],
        },
    },
    {
        "file": "nda-corvane-halvorsen",
        "short": "Halvorsen",
        "numbered": False,
        "date_words": "2 September 2024",
        "counterparty": (
            "HALVORSEN MARITIME AS, a company incorporated in Norway with organisation number 918 442 037 "
            "whose registered office is at Bryggen 17, 5003 Bergen, Norway (\"Halvorsen\")"
        ),
        "bd_place": "London or Bergen",
        "purpose": (
            "assessing whether Corvane's analytics platform can ingest and analyse engine, hull and fuel "
            "telemetry from Halvorsen's fleet of offshore supply vessels"
        ),
        "reps_def": (
            "\"Representatives\" means, in relation to a Party, its Affiliates and its and their "
            "directors, officers, employees, agents, contractors and professional advisers who need to "
            "know the Confidential Information for the Purpose."
        ),
        "breach_notice": (
            "The Recipient shall notify the Discloser promptly in writing on becoming aware of any actual "
            "or suspected unauthorised access to, or use or disclosure of, the Discloser's Confidential "
            "Information, and shall take all reasonable steps requested by the Discloser to limit its "
            "consequences."
        ),
        "indep_dev": (
            "it is independently developed by or for the Recipient by individuals who have had no access "
            "to the Confidential Information."
        ),
        "return_heading": "RETURN OF MATERIALS",
        "return_days": "fifteen (15) Business Days",
        "certify": (
            "On request, the Recipient shall confirm in writing that it has complied with the clause "
            "headed \"Return of Materials\"."
        ),
        "term_heading": "TERM",
        "term": [
            "This Agreement commences on the Effective Date and continues until terminated by either Party "
            "giving not less than one (1) month's written notice to the other Party.",
            "The obligations of confidentiality and non-use in this Agreement shall apply to each item of "
            "Confidential Information for a period of five (5) years from the date on which that item was "
            "first disclosed to the Recipient, and shall survive termination of this Agreement for that "
            "period.",
        ],
        "riders": [
            ("non_solicit", "NON-SOLICITATION", [
                "Neither Party shall, during the term of this Agreement and for twelve (12) months after "
                "its termination, directly or indirectly solicit or entice away, or attempt to solicit or "
                "entice away, from the employment of the other Party any employee of the other Party with "
                "whom it has had material contact in connection with the Purpose.",
                "The restriction in the clause headed \"Non-Solicitation\" does not prevent either Party "
                "from employing any person who responds, without any direct approach, to a general "
                "advertisement of vacancies published in the ordinary course of business, or who has ceased "
                "to be employed by the other Party for at least six (6) months.",
            ]),
        ],
        "notices": (
            "Any notice under this Agreement shall be in writing and delivered by hand, by courier or by "
            "email to the address of the relevant Party set out above, marked for the attention of its "
            "general counsel. A notice sent by email is deemed received at the time of transmission if sent "
            "during business hours on a Business Day, and otherwise at 9.00 a.m. on the next Business Day."
        ),
        "third_parties": (
            "A person who is not a Party to this Agreement shall have no right under the Contracts (Rights "
            "of Third Parties) Act 1999 to enforce any of its terms."
        ),
        "law": (
            "This Agreement and any dispute or claim (including non-contractual disputes or claims) arising "
            "out of or in connection with it or its subject matter or formation shall be governed by and "
            "construed in accordance with the law of England and Wales."
        ),
        "jurisdiction": [
            "Each Party irrevocably agrees that the courts of England and Wales shall have exclusive "
            "jurisdiction to settle any dispute or claim (including non-contractual disputes or claims) "
            "arising out of or in connection with this Agreement or its subject matter or formation.",
        ],
        "signature": (
            "Signed by the authorised representatives of the Parties on the date set out at the beginning "
            "of this Agreement.\n\n"
            "For and on behalf of CORVANE TECHNOLOGIES LIMITED\nName: Eleanor Brandt\nTitle: Chief Operating "
            "Officer\n\n"
            "For and on behalf of HALVORSEN MARITIME AS\nName: Ingrid Solheim\nTitle: Chief Technology "
            "Officer"
        ),
        "meta": {
            "doc_id": "nda-corvane-halvorsen",
            "title": "Mutual NDA – Corvane Technologies / Halvorsen Maritime",
            "doc_type": "nda",
            "language": "en",
            "jurisdiction": "GB-ENG",
            "valid_from": "2024-09-02",
            "parties": ["Corvane Technologies Limited", "Halvorsen Maritime AS"],
            "signed_at": "2024-09-02",
            "public": True,
            "tags": ["nda", "maritime"],
        },
    },
    {
        "file": "nda-corvane-pemberton",
        "short": "Pemberton",
        "numbered": True,
        "date_words": "21 May 2024",
        "counterparty": (
            "PEMBERTON CLINICAL RESEARCH LIMITED, a company incorporated in Scotland with company number "
            "SC604219 whose registered office is at 9 Riverside Quay, Dundee DD1 4QB (\"Pemberton\")"
        ),
        "bd_place": "Edinburgh or London",
        "purpose": (
            "scoping a pilot in which Corvane's analytics platform would be used to detect anomalies in "
            "site-level data from clinical trials managed by Pemberton"
        ),
        "reps_def": (
            "\"Representatives\" means, in relation to a Party, its Affiliates and its and their "
            "directors, officers, employees, agents, contractors and professional advisers who need to "
            "know the Confidential Information for the Purpose."
        ),
        "extra_defs": [
            "\"Trade Secret\" means any Confidential Information that constitutes a trade secret under "
            "the Trade Secrets (Enforcement, etc.) Regulations 2018, including Pemberton's statistical "
            "monitoring algorithms and Corvane's model weights.",
            "\"Personal Data\" and \"processing\" have the meanings given in the UK GDPR.",
        ],
        "breach_notice": (
            "The Recipient shall notify the Discloser in writing without undue delay, and in any event "
            "within twenty-four (24) hours, of becoming aware of any actual or suspected unauthorised "
            "access to, or use or disclosure of, the Discloser's Confidential Information, and shall take "
            "all reasonable steps requested by the Discloser to limit its consequences."
        ),
        "indep_dev": (
            "it is independently developed by or for the Recipient by individuals who have had no access "
            "to the Confidential Information."
        ),
        "personal_data": [
            "The Parties do not intend to share Personal Data under this Agreement. Any trial data made "
            "available for the Purpose shall first be pseudonymised by Pemberton so that no trial subject "
            "can be identified by Corvane without additional information held only by Pemberton.",
            "Corvane shall not attempt to re-identify any trial subject or combine the data made "
            "available with any other data for that purpose. If Corvane becomes aware that it has received "
            "Personal Data, it shall notify Pemberton immediately, stop processing that data and delete it "
            "on Pemberton's instructions.",
            "If the Parties later agree that Personal Data will be processed for the Purpose, they shall "
            "first enter into a data processing agreement complying with Article 28 of the UK GDPR.",
        ],
        "return_heading": "RETURN AND DESTRUCTION OF MATERIALS",
        "return_days": "thirty (30) days",
        "certify": (
            "Within the same period the Recipient shall deliver to the Discloser a certificate, signed by a "
            "director of the Recipient, confirming that it has complied with this clause."
        ),
        "term_heading": "TERM",
        "term": [
            "This Agreement commences on the Effective Date and shall continue for a period of three (3) "
            "years, unless terminated earlier by either Party on not less than sixty (60) days' written "
            "notice to the other Party.",
            "The obligations of the Parties under clauses 3 to 8 shall survive the expiry or termination "
            "of this Agreement for a period of seven (7) years, save that in respect of any Trade Secret "
            "they shall continue for as long as the information remains a trade secret.",
        ],
        "notices": (
            "Any notice under this Agreement shall be in writing and delivered by hand, by recorded "
            "delivery or by email to the address of the relevant Party set out above, marked for the "
            "attention of its company secretary. A notice sent by email is deemed received at the time of "
            "transmission if sent during business hours on a Business Day, and otherwise at 9.00 a.m. on the "
            "next Business Day."
        ),
        "third_parties": (
            "Nothing in this Agreement confers any third-party right under the Contract (Third Party "
            "Rights) (Scotland) Act 2017 or otherwise on any person who is not a Party."
        ),
        "law": (
            "This Agreement and any dispute or claim (including non-contractual disputes or claims) "
            "arising out of or in connection with it or its subject matter or formation shall be governed "
            "by and construed in accordance with the law of Scotland."
        ),
        "jurisdiction": [
            "The Parties irrevocably submit to the exclusive jurisdiction of the Court of Session in "
            "Edinburgh in respect of any dispute or claim arising out of or in connection with this "
            "Agreement or its subject matter or formation.",
        ],
        "signature": (
            "IN WITNESS WHEREOF this Agreement has been executed by the Parties on the date set out at the "
            "beginning of it.\n\n"
            "Signed for and on behalf of CORVANE TECHNOLOGIES LIMITED\nby Eleanor Brandt, Chief Operating "
            "Officer\n\n"
            "Signed for and on behalf of PEMBERTON CLINICAL RESEARCH LIMITED\nby Dr Fiona McAllister, "
            "Managing Director"
        ),
        "meta": {
            "doc_id": "nda-corvane-pemberton",
            "title": "Mutual NDA – Corvane Technologies / Pemberton Clinical Research",
            "doc_type": "nda",
            "language": "en",
            "jurisdiction": "GB-SCT",
            "valid_from": "2024-05-21",
            "parties": ["Corvane Technologies Limited", "Pemberton Clinical Research Limited"],
            "signed_at": "2024-05-21",
            "public": True,
            "tags": ["nda", "clinical-trials"],
        },
    },
    {
        "file": "nda-corvane-saltmarsh",
        "short": "Saltmarsh",
        "numbered": False,
        "date_words": "9 January 2025",
        "counterparty": (
            "SALTMARSH ENERGY INC., a Delaware corporation whose principal office is at 1200 Travis Street, "
            "Suite 3100, Houston, Texas 77002, United States (\"Saltmarsh\")"
        ),
        "bd_place": "London or New York",
        "purpose": (
            "evaluating a possible commercial arrangement under which Corvane would supply load and "
            "price forecasting models for Saltmarsh's grid-scale battery storage sites"
        ),
        "reps_def": (
            "\"Representatives\" means, in relation to a Party, its Affiliates and its and their "
            "directors, officers, employees, agents, professional advisers and actual or prospective "
            "financing sources who need to know the Confidential Information for the Purpose."
        ),
        "breach_notice": (
            "The Recipient shall notify the Discloser promptly in writing on becoming aware of any actual "
            "or suspected unauthorised access to, or use or disclosure of, the Discloser's Confidential "
            "Information, and shall take all reasonable steps requested by the Discloser to limit its "
            "consequences."
        ),
        "indep_dev": (
            "it is independently developed by or for the Recipient by individuals who have had no access "
            "to the Confidential Information."
        ),
        "return_heading": "RETURN OF MATERIALS",
        "return_days": "ten (10) days",
        "certify": (
            "On request, an officer of the Recipient shall certify in writing that the Recipient has "
            "complied with the clause headed \"Return of Materials\"."
        ),
        "term_heading": "TERM",
        "term": [
            "This Agreement commences on the Effective Date and shall continue for one (1) year, unless "
            "terminated earlier by either Party on thirty (30) days' written notice to the other Party.",
            "The Recipient's obligations under this Agreement with respect to Confidential Information "
            "received before expiry or termination shall survive for two (2) years after the date of such "
            "expiry or termination.",
        ],
        "riders": [
            ("residuals", "RESIDUAL KNOWLEDGE", [
                "Nothing in this Agreement shall restrict either Party from using, for any purpose, the "
                "general ideas, concepts, know-how and techniques that are retained in the unaided memory "
                "of its personnel who had authorised access to the Confidential Information, provided that "
                "such personnel have not intentionally memorised the Confidential Information for the "
                "purpose of retaining and subsequently using or disclosing it.",
                "The clause headed \"Residual Knowledge\" does not grant any licence under any patent or "
                "copyright of the Discloser, and does not permit the disclosure of the source of any "
                "residual information or of any financial, pricing or customer data of the Discloser.",
            ]),
            ("export", "EXPORT CONTROL", [
                "Each Party shall comply with all export control and sanctions laws of the United States, "
                "the United Kingdom and the European Union applicable to any technical data it receives "
                "under this Agreement, and shall not export, re-export or transfer any such technical data "
                "to any country, entity or person in breach of those laws.",
            ]),
        ],
        "notices": (
            "Any notice under this Agreement shall be in writing and delivered by hand, by internationally "
            "recognised courier or by email to the address of the relevant Party set out above, with a copy "
            "by email to its legal department. A notice sent by email is deemed received at the time of "
            "transmission if sent during business hours on a Business Day, and otherwise at 9.00 a.m. on the "
            "next Business Day."
        ),
        "third_parties": (
            "This Agreement is for the sole benefit of the Parties and their permitted assigns, and nothing "
            "in it, express or implied, confers on any other person any legal or equitable right, benefit "
            "or remedy."
        ),
        "law": (
            "This Agreement shall be governed by and construed in accordance with the laws of the State of "
            "New York, without giving effect to any choice or conflict of law provision or rule that would "
            "cause the application of the laws of any other jurisdiction."
        ),
        "jurisdiction": [
            "Any legal suit, action or proceeding arising out of or relating to this Agreement shall be "
            "instituted exclusively in the federal courts of the United States or the courts of the State "
            "of New York, in each case located in the Borough of Manhattan, and each Party irrevocably "
            "submits to the exclusive jurisdiction of such courts.",
            "EACH PARTY HEREBY IRREVOCABLY WAIVES, TO THE FULLEST EXTENT PERMITTED BY LAW, ANY RIGHT IT MAY "
            "HAVE TO A TRIAL BY JURY IN ANY PROCEEDING ARISING OUT OF OR RELATING TO THIS AGREEMENT.",
        ],
        "signature": (
            "IN WITNESS WHEREOF, the Parties have caused this Agreement to be executed by their duly "
            "authorized representatives as of the Effective Date.\n\n"
            "CORVANE TECHNOLOGIES LIMITED\nBy: Eleanor Brandt\nTitle: Chief Operating Officer\n\n"
            "SALTMARSH ENERGY INC.\nBy: Marcus T. Delaney\nTitle: Senior Vice President, Corporate "
            "Development"
        ),
        "meta": {
            "doc_id": "nda-corvane-saltmarsh",
            "title": "Mutual NDA – Corvane Technologies / Saltmarsh Energy",
            "doc_type": "nda",
            "language": "en",
            "jurisdiction": "US-NY",
            "valid_from": "2025-01-09",
            "parties": ["Corvane Technologies Limited", "Saltmarsh Energy Inc."],
            "signed_at": "2025-01-09",
            "public": True,
            "tags": ["nda", "energy"],
        },
    },
    {
        "file": "nda-corvane-tidewell",
        "short": "Tidewell",
        "numbered": True,
        "date_words": "30 June 2025",
        "counterparty": (
            "TIDEWELL LOGISTICS B.V., a private limited liability company incorporated in the Netherlands, "
            "registered with the Dutch Chamber of Commerce under number 70312488, whose registered office is "
            "at Waalhaven Zuidzijde 21, 3089 JH Rotterdam, the Netherlands (\"Tidewell\")"
        ),
        "bd_place": "London or Amsterdam",
        "purpose": (
            "responding to Tidewell's request for proposal for the integration of autonomous mobile "
            "robots and warehouse analytics at its Rotterdam and Venlo distribution centres"
        ),
        "reps_def": (
            "\"Representatives\" means, in relation to a Party, its Affiliates and its and their "
            "directors, officers, employees and professional advisers who need to know the Confidential "
            "Information for the Purpose; contractors and subcontractors are Representatives only if the "
            "Discloser has approved them in writing in advance."
        ),
        "breach_notice": (
            "The Recipient shall notify the Discloser promptly in writing on becoming aware of any actual "
            "or suspected unauthorised access to, or use or disclosure of, the Discloser's Confidential "
            "Information, and shall take all reasonable steps requested by the Discloser to limit its "
            "consequences."
        ),
        "indep_dev": (
            "it is independently developed by or for the Recipient without use of or reference to the "
            "Confidential Information, as demonstrated by written records made at the time of such "
            "development."
        ),
        "return_heading": "RETURN AND DESTRUCTION OF MATERIALS",
        "return_days": "fourteen (14) days",
        "certify": (
            "On request, the Recipient shall confirm in writing that it has complied with this clause."
        ),
        "term_heading": "TERM",
        "term": [
            "This Agreement commences on the Effective Date and ends on the earlier of (a) the date on which "
            "the Parties sign a definitive agreement relating to the Purpose, which shall then govern the "
            "confidentiality of information exchanged, and (b) the date falling eighteen (18) months after "
            "the Effective Date.",
            "The obligations of the Recipient in respect of Confidential Information received before this "
            "Agreement ends shall continue for four (4) years from the Effective Date.",
        ],
        "riders": [
            ("penalty", "CONTRACTUAL PENALTY", [
                "If the Recipient breaches any of its obligations under clauses 3, 4 or 7, it shall pay "
                "to the Discloser, without any notice of default being required, an immediately due and "
                "payable penalty of twenty-five thousand euros (EUR 25,000) for each breach, plus one "
                "thousand euros (EUR 1,000) for each day on which the breach continues, up to a maximum of "
                "two hundred and fifty thousand euros (EUR 250,000) in aggregate.",
                "The penalty in clause 10.1 is without prejudice to the Discloser's right to claim full "
                "compensation for its loss to the extent that it exceeds the penalty paid, and to the "
                "remedies in clause 11. Article 6:92 of the Dutch Civil Code applies only to the extent "
                "that it is not excluded by this clause.",
            ]),
        ],
        "notices": (
            "Any notice under this Agreement shall be in writing and delivered by hand, by courier or by "
            "email to the address of the relevant Party set out above. A notice sent by email is deemed "
            "received at the time of transmission if sent during business hours on a Business Day, and "
            "otherwise at 9.00 a.m. on the next Business Day."
        ),
        "third_parties": (
            "This Agreement does not contain any third-party stipulation (derdenbeding) and no person other "
            "than the Parties may rely on or enforce any of its terms."
        ),
        "law": (
            "This Agreement and any non-contractual obligations arising out of or in connection with it "
            "are governed by the laws of the Netherlands."
        ),
        "jurisdiction": [
            "All disputes arising out of or in connection with this Agreement shall be submitted "
            "exclusively to the competent court in Amsterdam (Rechtbank Amsterdam), without prejudice to "
            "the right of either Party to seek interim relief before the preliminary relief judge "
            "(voorzieningenrechter) of that court.",
        ],
        "signature": (
            "Signed by the authorised representatives of the Parties on the date set out at the beginning "
            "of this Agreement.\n\n"
            "For and on behalf of CORVANE TECHNOLOGIES LIMITED\nName: Eleanor Brandt\nTitle: Chief Operating "
            "Officer\n\n"
            "For and on behalf of TIDEWELL LOGISTICS B.V.\nName: Pieter van der Laan\nTitle: Statutory "
            "Director (statutair bestuurder)"
        ),
        "meta": {
            "doc_id": "nda-corvane-tidewell",
            "title": "Mutual NDA – Corvane Technologies / Tidewell Logistics",
            "doc_type": "nda",
            "language": "en",
            "jurisdiction": "NL",
            "valid_from": "2025-06-30",
            "parties": ["Corvane Technologies Limited", "Tidewell Logistics B.V."],
            "signed_at": "2025-06-30",
            "public": True,
            "tags": ["nda", "logistics"],
        },
    },
]


def main(out: Path) -> None:
    for n in NDAS:
        goldlib.write_document(out, n["file"], render(n), n["meta"])
        print(n["file"])


if __name__ == "__main__":
    main(goldlib.out_dir(sys.argv[1:], Path(__file__).resolve().parent.parent / "corpus"))
