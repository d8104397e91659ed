"""What a document's type says about how it is written.

Judgments, notes, memos and opinions discuss other instruments: their own numbered units are
paragraphs, and a "clause 4(c)" or "article 13.2" they write is a clause of the contract or
statute they discuss, not of themselves (unless it names "paragraph N", or "this note").
"""

from __future__ import annotations

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
