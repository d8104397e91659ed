"""Retrievers for the RAG frameworks applications already use (optional extras):
`pip install .[langchain]` for `langchain.LangChainRetriever`, `pip install .[llamaindex]` for
`llamaindex.LlamaIndexRetriever`. Both call `LegalSearch.search` and carry each hit's
citation, offsets and `via` in their native metadata."""

from __future__ import annotations


def hit_metadata(hit) -> dict:
    """The metadata both retrievers attach to a hit: everything of the CLI contract but the text."""
    data = hit.model_dump(mode="json", exclude={"text"})
    data["source"] = hit.source_path or hit.doc_id
    return data


def missing_extra(extra: str, package: str) -> ImportError:
    return ImportError(f"this retriever needs {package}: pip install 'legalsearch[{extra}]' (or pip install {package})")
