"""Clause labels (termination, penalty, forum, ...) and the Italian double-signature check.

Labels are keyword patterns per language, precise rather than exhaustive: a label is a
retrieval hint and a review aid, not a legal classification.

Double signature (artt. 1341-1342 c.c.): in Italian standard-form contracts, clauses that
favour the drafter (recesso, limitazione di responsabilità, foro, ...) bind the other party
only if specifically approved in writing, usually by a second signature under a clause
"Ai sensi e per gli effetti degli artt. 1341 e 1342 c.c. ... approva specificamente ...
artt. 5, 7, 12". `check_double_signature` says whether such a clause exists, which
articles it approves, and whether every onerous article is among them.
"""

from __future__ import annotations

import re

from legalsearch.documents.models import StructureNode

LABELS = ("termination", "penalty", "forum", "governing_law", "liability_cap", "confidentiality_duration",
          "double_signature_1341")
ONEROUS_LABELS = ("termination", "penalty", "forum", "liability_cap")

_EN = {
    "termination": re.compile(
        r"(?i)\b(?:may|right to|entitled to|can|shall be entitled to)\s+(?:immediately\s+)?terminate\b"
        r"|\bterminate (?:this|the) (?:agreement|contract|tenancy|lease|licen[cs]e)\b|\bnotice (?:of|to) terminat"
        r"|\btermination (?:for|without) cause\b|^\W*\d*[.\s]*termination\b|\border for possession\b"
        r"|\b(?:bring|brought) (?:\w+ ){0,3}to an end\b"
    ),
    "penalty": re.compile(
        r"(?i)\bpenalt(?:y|ies)\b|\bliquidated damages\b|\bservice credits? (?:of|equal to|calculated)\b"
        r"|\bentitled to (?:a )?service credits?\b"
    ),
    "forum": re.compile(
        r"(?i)\b(?:non-)?exclusive jurisdiction\b|\bsubmits? to the jurisdiction\b|\bcourts located in\b"
        r"|\bvenue\b|\bcourts of (?:england|the state|ireland|[A-Z])"
    ),
    "governing_law": re.compile(
        r"(?i)\bgoverned by\b[^.]{0,80}\blaws? of\b|\bgoverning law\b|\bconstrued in accordance with the laws? of\b"
    ),
    "liability_cap": re.compile(
        r"(?i)\b(?:total|aggregate|maximum|entire|cumulative) liability\b[^.]{0,250}"
        r"\b(?:shall not exceed|not exceed|limited to|capped at|in aggregate)\b"
        r"|\blimitation of liability\b|\bliability\b[^.]{0,120}\bshall not exceed\b"
    ),
}
_EN_HINTS = {
    "termination": ("terminat", "possession", "to an end"), "penalty": ("penalt", "liquidated", "service credit"),
    "forum": ("jurisdiction", "courts", "venue"), "governing_law": ("governed", "governing law", "construed"),
    "liability_cap": ("liabilit",),
}
_EN_CONFIDENTIAL = re.compile(r"(?i)\bconfidential")
_EN_DURATION = re.compile(
    r"(?i)\b(?:continue|survive|remain|period of|for a period|after|following|from the date)\b[^.]{0,80}"
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b(?:\s*\(\d+\))?\s+years?\b"
)
_IT = {
    "termination": re.compile(
        r"(?i)\brecesso\b|\brecedere\b|\bdisdetta\b|clausola risolutiva|\bdichiarare risolto\b"
        r"|\brisolvere il contratto\b|\brisoluzione (?:di diritto|per inadempimento|anticipata)\b"
    ),
    "penalty": re.compile(r"(?i)\bpenal[ei]\b"),
    "forum": re.compile(r"(?i)\bforo\b|\bcompetenza (?:territoriale )?esclusiva\b|\btribunale di\b"),
    "governing_law": re.compile(
        r"(?i)\blegge applicabile\b|\b(?:regolat|disciplinat)[oa] dalla legge\b|\blegge italiana\b"
    ),
    "liability_cap": re.compile(
        r"(?i)limitazione (?:della |di )?responsabilit|responsabilit\w+ (?:complessiv\w+ )?[^.]{0,150}"
        r"\b(?:non potrà eccedere|non può eccedere|non potrà superare|non può superare|importo massimo)"
    ),
}
_IT_HINTS = {
    "termination": ("recess", "reced", "disdett", "risol"), "penalty": ("penal",),
    "forum": ("foro", "competenza", "tribunale"), "governing_law": ("legge",), "liability_cap": ("responsabilit",),
}
_IT_CONFIDENTIAL = re.compile(r"(?i)\briservat")
_IT_DURATION = re.compile(r"(?i)\b(?:\d+|uno|due|tre|quattro|cinque|sei|sette|otto|nove|dieci)\s+anni\b")
_APPROVAL = re.compile(
    r"(?is)(?:artt?\.\s*1341|1341\s*(?:e|,)\s*1342).{0,300}?\b(?:approva\w*\s+specificamente"
    r"|specificamente\s+approva\w*|specifica\s+approvazione|approvazione\s+specifica)"
    r"|\b(?:approva\w*\s+specificamente|specifica\s+approvazione).{0,200}?\b1341\b"
)


def label_clauses(text: str, language: str = "en") -> list[str]:
    """Labels of a clause text, in the fixed order of `LABELS`.

    Args:
        text: a chunk or clause (include its heading: "Art. 12 – Foro competente").
        language: "en" or "it".
    """
    # substring checks first: most chunks carry no label, and `in` is far cheaper than regexes
    low = text.lower()
    patterns, hints = (_IT, _IT_HINTS) if language == "it" else (_EN, _EN_HINTS)
    found = {name for name, pattern in patterns.items()
             if any(h in low for h in hints[name]) and pattern.search(text)}
    confidential, duration = (_IT_CONFIDENTIAL, _IT_DURATION) if language == "it" else (_EN_CONFIDENTIAL, _EN_DURATION)
    if ("riservat" in low if language == "it" else "confidential" in low) and confidential.search(text) \
            and duration.search(text):
        found.add("confidentiality_duration")
    if "1341" in low and _APPROVAL.search(text):
        found.add("double_signature_1341")
    return [name for name in LABELS if name in found]


def check_double_signature(text: str, tree: StructureNode, language: str = "it") -> dict:
    """Check the specific approval of onerous clauses (artt. 1341-1342 c.c.).

    Returns a JSON-able dict:
        applicable: Italian document;
        present: an approval clause exists;
        approval_spans: [[char_start, char_end], ...] of the approval clause(s);
        approved_articles: article labels the clause approves ("5", "7", "12");
        onerous_articles: {"5": ["termination"], "9": ["liability_cap"], ...};
        uncovered_articles: onerous articles missing from the approval;
        covered: every onerous article is approved.
    """
    from legalsearch.parse.references import extract_references  # local: references imports nothing of ours

    if language != "it":
        return {"applicable": False, "present": False, "approval_spans": [], "approved_articles": [],
                "onerous_articles": {}, "uncovered_articles": [], "covered": True}
    spans: list[list[int]] = []
    approved: list[str] = []
    for match in _APPROVAL.finditer(text):
        start, end = _paragraph_around(text, match.start(), match.end())
        if spans and start < spans[-1][1]:
            continue
        spans.append([start, end])
        for ref in extract_references(text[start:end], "it"):
            if ref.kind == "article" and not ref.external and ref.target not in approved:
                approved.append(ref.target)
    onerous: dict[str, list[str]] = {}
    for node in tree.walk():
        if node.kind in ("article", "definitions") and node.label:
            body = text[node.char_start:node.char_end]
            hits = [lbl for lbl in label_clauses(body, "it") if lbl in ONEROUS_LABELS]
            if hits and not _APPROVAL.search(body):
                onerous.setdefault(node.label, hits)
    uncovered = [label for label in onerous if label not in approved]
    return {
        "applicable": True,
        "present": bool(spans),
        "approval_spans": spans,
        "approved_articles": approved,
        "onerous_articles": onerous,
        "uncovered_articles": uncovered,
        "covered": bool(spans) and not uncovered,
    }


def double_signature_flags(result: dict) -> list[str]:
    """Document flags for a `check_double_signature` result.

    "1341:approved:5,7,12" when an approval clause exists, "1341:missing" when onerous
    clauses exist without one, "1341:uncovered:9" for onerous articles left out.
    """
    if not result.get("applicable"):
        return []
    flags = []
    if result["present"]:
        flags.append("1341:approved:" + ",".join(result["approved_articles"]))
    elif result["onerous_articles"]:
        flags.append("1341:missing")
    if result["present"] and result["uncovered_articles"]:
        flags.append("1341:uncovered:" + ",".join(result["uncovered_articles"]))
    return flags


def _paragraph_around(text: str, start: int, end: int) -> tuple[int, int]:
    left = text.rfind("\n\n", 0, start)
    left = 0 if left == -1 else left + 2
    right = text.find("\n\n", end)
    right = len(text) if right == -1 else right
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def double_signature(doc, chunks) -> dict:
    """`check_double_signature` for a parsed document, plus the ids of the approval chunks.

    Args:
        doc: a `ParsedDocument`.
        chunks: its chunks; those overlapping the approval clause are listed in "chunk_ids".
    """
    result = check_double_signature(doc.text, doc.tree, doc.meta.language)
    result["chunk_ids"] = [
        c.chunk_id for c in chunks
        if any(s < c.char_end and e > c.char_start for s, e in result["approval_spans"])
    ]
    result["flags"] = double_signature_flags(result)
    return result
