"""Print the chunks the product's structural chunker makes of corpus files (no search, no server):
position, section label, heading path and the first characters. Used only to get section labels right.

    PYTHONPATH=<repo> python tools/labels.py corpus/<file>.txt [...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from legalsearch.scripts import DocumentMeta, chunk_document, load_document, read_sidecar


def main(paths: list[str]) -> None:
    for p in paths:
        path = Path(p)
        doc = load_document(path, meta=DocumentMeta.model_validate(read_sidecar(path)))
        chunks = chunk_document(doc, "structural", max_chars=1800)
        print(f"== {path.name} {doc.meta.doc_id} v{doc.meta.version} words={len(doc.text.split())} "
              f"chunks={len(chunks)} flags={doc.flags}")
        for c in chunks:
            head = " > ".join(c.heading_path)[:70]
            print(f"{c.position:3d} {str(c.section):8s} {head:70s} | {c.text[:50]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
