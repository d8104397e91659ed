"""Where the sample corpus is, and small lookup helpers shared by the document tests.

(A module with a unique name: test modules import it instead of `conftest`, which would
clash with other test folders' conftest modules.)
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "samples" / "corpus"
TEXT_SAMPLES = sorted(p.name for p in CORPUS.glob("*.txt"))


def by_section(chunk_list, section):
    """Chunks whose section label is `section`."""
    return [c for c in chunk_list if c.section == section]
