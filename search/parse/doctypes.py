"""What a document's type says about how it is written.

Judgments, notes, memos and opinions discuss other instruments: their own numbered units are
paragraphs, and a "clause 4(c)" or "article 13.2" they write is a clause of the contract or
statute they discuss, not of themselves (unless it names "paragraph N", or "this note"). A
judgment is also known by its layout alone (`is_judgment_layout`), which the structure parser
reads before any metadata exists.
"""

from __future__ import annotations

import re

CITING_TYPES = frozenset({
    "judgment", "judgement", "ruling", "decision", "order", "opinion", "memo", "memorandum", "note",
    "internal_note", "advice", "guidance", "brief", "sentenza", "ordinanza", "parere", "nota", "memoria",
})


def cites_other_documents(doc_type: str | None) -> bool:
    """True for the types whose clause / article references point at other documents."""
    return (doc_type or "").lower() in CITING_TYPES


def approves_clauses(doc_type: str | None, language: str) -> bool:
    """True where a document may carry a specific approval of its own (artt. 1341-1342 c.c.): an
    Italian one that does not discuss other documents (a judgment or a note that discusses an
    approval carries none)."""
    return language == "it" and not cites_other_documents(doc_type)


JUDGMENT_LAYOUT = re.compile(
    r"(?m)^[ \t]*(?:APPROVED[ \t]+)?JUDG(?:E)?MENT(?:[ \t]+OF[ \t]+THE[ \t]+COURT)?[ \t]*$"  # a line of its own
    r"|^[ \t]*(?:MEMORANDUM[ \t]+)?OPINION(?:[ \t]+AND[ \t]+ORDER)?[ \t]*$"
    r"|\bNeutral Citation(?: Number)?\b"
    r"|^[ \t]*IN THE (?:HIGH COURT|COURT OF APPEAL|SUPREME COURT|CROWN COURT|COUNTY COURT|UPPER TRIBUNAL"
    r"|FIRST-TIER TRIBUNAL|UNITED STATES (?:DISTRICT )?COURT|COURT OF SESSION)\b"
    r"|^[ \t]*(?:SENTENZA|ORDINANZA)[ \t]*$|\bIN NOME DEL POPOLO ITALIANO\b"
)
"""What only a judgment's own layout carries near its top (a line "JUDGMENT", a neutral citation
number, "IN THE HIGH COURT ...", "SENTENZA", "IN NOME DEL POPOLO ITALIANO"): checked before the
contract words, which a judgment about a contract also carries; a note that cites a case ("[2024]
EWHC 12") has none of them."""


PARTY_ROLE = re.compile(r"(?i)[ \t(]*\b(?:claimants?|defendants?|appellants?|respondents?|applicants?|petitioners?"
                        r"|plaintiffs?|interested party|attore|attrice|convenut[oa]|ricorrent[ei]|resistent[ei]|appellant[ei]"
                        r"|appellat[oa]|opponente|oppost[oa])\b[ \t)]*$")
"""A line that only names a party's role ("(Claimant)", "Defendant", "attrice", "convenuta")."""


def is_judgment_layout(text: str) -> bool:
    """True when the first 3,000 characters carry a judgment's own layout (`JUDGMENT_LAYOUT`)."""
    return JUDGMENT_LAYOUT.search(text[:3000]) is not None


# an act of the EU institutions by its own first line, as the Official Journal and EUR-Lex write it
# ("REGULATION (EU) 2027/45 OF THE EUROPEAN PARLIAMENT ...", "►B DIRECTIVE (EU) 2026/2291 ..." in a
# consolidated text, "REGOLAMENTO DI ESECUZIONE (UE) 2024/1689 DELLA COMMISSIONE"): a statute
EU_MARKER = r"[►▼][A-Z]\d*[ \t]+"  # EUR-Lex's "►B" / "▼M1" before the text of a consolidated act
EU_ACT_KIND = (r"(?:(?:COMMISSION|COUNCIL)[ \t]+)?(?:(?:DELEGATED|IMPLEMENTING)[ \t]+)?(?:REGULATION|DIRECTIVE|DECISION)"
               r"|(?:REGOLAMENTO|DIRETTIVA|DECISIONE)(?:[ \t]+(?:DELEGAT[OA]|DI[ \t]+ESECUZIONE))?")
EU_ACT_NUMBER = r"\((?:EU|EC|EEC|UE|CE|CEE|Euratom)\)[ \t]+(?:No[ \t]+|n\.[ \t]+)?\d{2,4}/\d{1,4}\b"
_EU_ACT_TITLE = re.compile(
    r"(?m)^[ \t]*(?:" + EU_MARKER + r")?(?P<kind>" + EU_ACT_KIND + r")[ \t]+(?P<number>" + EU_ACT_NUMBER + r")[^\n]*\n"
    r"(?:[ \t]*\n)*[ \t]*(?:of|del|dell'|della)[ \t]+[^\n]{4,40}\n(?:[ \t]*\n)*"
    r"[ \t]*(?P<subject>(?:on|concerning|laying|establishing|amending|relativ[oa]|concernente|recante|che|sul|sulla|sui|"
    r"sugli|sull')\b[^\n]{5,300})")


def eu_act(text: str) -> tuple[str, str] | None:
    """An EU act's kind and title from its first lines (its kind and number, "of 20 January 2027",
    then what it is on / "relativo ai ..."): ("Regulation", "Regulation (EU) 2027/45 on short-term
    accommodation rental services ..."), the subject a question asks about in the title; None for
    any other text."""
    found = _EU_ACT_TITLE.search(text[:3000])
    if found is None:
        return None
    kind = " ".join(found.group("kind").split())
    kind = kind[0] + kind[1:].lower()
    return kind, f"{kind} {found.group('number')} {' '.join(found.group('subject').split())}".rstrip(".")
