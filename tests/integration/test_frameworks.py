"""The LangChain and LlamaIndex retrievers against the real frameworks' base classes and the real
node (no mock of either), and the README's Python example, run as written."""

from __future__ import annotations

import re
import uuid

import pytest
from legalsearch import LangChainRetriever, LegalSearch, LlamaIndexRetriever

from tests.conftest import REPO


@pytest.fixture(scope="module")
def client(settings, opensearch_url):
    return LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)


def test_langchain_retriever_returns_native_documents_with_citations(client, sample_index):
    from langchain_core.documents import Document as LangChainDocument
    from langchain_core.retrievers import BaseRetriever

    retriever = LangChainRetriever(client=client, index=sample_index[0], k=3)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("What is the liability cap in clause 14.3?")
    assert docs and all(isinstance(d, LangChainDocument) for d in docs)
    top = docs[0]
    assert top.metadata["section"] == "14.3" and "14.3" in top.metadata["citation"]
    text = (REPO / "samples" / "corpus" / "master-services-agreement.txt").read_text()
    assert text[top.metadata["char_start"]:top.metadata["char_end"]] == top.page_content
    assert top.metadata["via"] == "retrieval"


def test_langchain_retriever_passes_filters_through(client, sample_index):
    retriever = LangChainRetriever(client=client, index=sample_index[0], k=5)
    question = "settlement strategy on the liability cap"
    assert all(d.metadata["doc_id"] != "privileged-note-litigation" for d in retriever.invoke(question))
    allowed = retriever.invoke(question, groups=["litigation-team"])
    assert allowed[0].metadata["doc_id"] == "privileged-note-litigation"
    before = retriever.invoke("Can a landlord end a tenancy without giving a reason?", as_of="2025-06-01")
    assert {d.metadata["version"] for d in before if d.metadata["doc_id"] == "housing-act-1988"} == {"2019"}


def test_llamaindex_retriever_returns_native_nodes_with_citations(client, sample_index):
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, TextNode

    retriever = LlamaIndexRetriever(client, index=sample_index[0], k=3, as_of="2026-06-01")
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve("Can a landlord end a tenancy without giving a reason?")
    assert nodes and all(isinstance(n, NodeWithScore) and isinstance(n.node, TextNode) for n in nodes)
    housing = [n for n in nodes if n.node.metadata["doc_id"] == "housing-act-1988"]
    assert housing and {n.node.metadata["version"] for n in housing} == {"2026"}
    first = nodes[0].node
    assert first.metadata["citation"] and first.metadata["char_end"] > first.metadata["char_start"]
    private = LlamaIndexRetriever(client, index=sample_index[0], k=5)
    assert all(n.node.metadata["doc_id"] != "privileged-note-litigation"
               for n in private.retrieve("settlement strategy on the liability cap"))


def test_readme_python_example_runs(client, opensearch_url, monkeypatch):
    readme = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert blocks, "README.md has no Python example"
    index = f"test-readme-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("OPENSEARCH_URL", opensearch_url)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    monkeypatch.chdir(REPO)
    try:
        for block in blocks:
            code = block.replace('index="demo"', f'index="{index}"')
            exec(compile(code, "README.md", "exec"), {"__name__": "readme"})  # noqa: S102 - our own README
    finally:
        client.delete_index(index)
