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
