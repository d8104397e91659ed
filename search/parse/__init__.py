"""Stage 2, parse: what the text of a legal document says about itself, without I/O.

- `tree`: headings -> a `StructureNode` tree with exact offsets (`headings` judges the
  candidates, `titles` names the nodes for heading paths);
- `numbering`: numbering sequences and the sanity checks for OCR'd text;
- `checks`: the parser's self-checks on a tree and the fallback to units it can trust;
- `references`: cross-references ("art. 7", "clause 14.3", "art. 1341 c.c.") and their targets;
- `definitions`: defined terms and where they are used;
- `labels`: clause labels (termination, penalty, forum, ...) and the 1341-1342 c.c. check.
"""

from legalsearch.parse.definitions import extract_definitions, find_term_uses
from legalsearch.parse.labels import (
    LABELS,
    check_double_signature,
    double_signature,
    double_signature_flags,
    label_clauses,
)
from legalsearch.parse.numbering import check_numbering
from legalsearch.parse.references import extract_references, resolve_references, unresolved_refs
from legalsearch.parse.titles import describe_node
from legalsearch.parse.tree import STRUCTURAL_KINDS, has_structure, parse_structure

__all__ = [
    "LABELS", "STRUCTURAL_KINDS", "check_double_signature", "check_numbering", "describe_node",
    "double_signature", "double_signature_flags", "extract_definitions", "extract_references",
    "find_term_uses", "has_structure", "label_clauses", "parse_structure", "resolve_references",
    "unresolved_refs",
]
