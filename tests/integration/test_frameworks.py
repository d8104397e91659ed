"""The LangChain and LlamaIndex retrievers against the real frameworks' base classes and the real
node (no mock of either), and the README's Python example, run as written."""

from __future__ import annotations

import asyncio
import re
import uuid

import pytest
from legalsearch import LangChainRetriever, LegalSearch, LlamaIndexRetriever
from legalsearch.errors import QueryError

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


CAP = "What is the liability cap in clause 14.3?"  # its top hit cites clause 14.4 (an xref)
TENANCY = "Can a landlord end a tenancy without giving a reason?"


def test_langchain_returns_exactly_k_documents_with_ids_scores_and_their_xrefs(client, sample_index):
    retriever = LangChainRetriever(client=client, index=sample_index[0], k=2)
    docs = retriever.invoke(CAP)
    assert len(docs) == 2 and all(d.metadata["via"] == "retrieval" for d in docs)
    assert [d.id for d in docs] == [d.metadata["chunk_id"] for d in docs]
    scores = [d.metadata["score"] for d in docs]
    assert all(isinstance(s, float) for s in scores) and scores == sorted(scores, reverse=True)
    xrefs = [x for d in docs for x in d.metadata["xrefs"]]
    assert xrefs and all(x["text"] and x["citation"] and x["via"].startswith(("xref:", "definition:", "amended_by:")) for x in xrefs)
    assert {x["via"].partition(":")[2] for d in docs for x in d.metadata["xrefs"]} <= {d.id for d in docs}

    with_xrefs = LangChainRetriever(client=client, index=sample_index[0], k=2, include_xrefs=True).invoke(CAP)
    assert [d.id for d in with_xrefs[:2]] == [d.id for d in docs]
    assert [d.id for d in with_xrefs[2:]] == [x["chunk_id"] for x in xrefs]
    assert all(d.metadata["score"] is None for d in with_xrefs[2:])


def test_langchain_metadata_filter_dict_maps_onto_our_filters(client, sample_index):
    retriever = LangChainRetriever(client=client, index=sample_index[0], k=4)
    old = retriever.invoke(TENANCY, filter={"doc_id": "housing-act-1988", "as_of": "2025-06-01"})
    assert len(old) == 4 and {(d.metadata["doc_id"], d.metadata["version"]) for d in old} == {
        ("housing-act-1988", "2019")}
    question = "settlement strategy on the liability cap"
    allowed = retriever.invoke(question, filter={"group": {"$in": ["litigation-team"]}})
    assert allowed[0].metadata["doc_id"] == "privileged-note-litigation"
    preset = LangChainRetriever(client=client, index=sample_index[0], k=3,
                                search_kwargs={"filter": {"doc_type": {"$eq": "statute"}}})
    assert {d.metadata["doc_type"] for d in preset.invoke(TENANCY)} == {"statute"}
    with pytest.raises(QueryError, match=r"unknown filter key 'author'; accepted keys: as_of, doc_id, doc_ids, doc_type"):
        retriever.invoke(TENANCY, filter={"author": "x"})


def test_langchain_lcel_retrieval_chain_gets_exactly_k_scored_documents(client, sample_index):
    """The RetrievalQA pattern up to the LLM: {"context": retriever | format_docs, "question":
    RunnablePassthrough()} | prompt, run by LangChain's own runnables (no model needed)."""
    from langchain_core.prompts import PromptTemplate
    from langchain_core.runnables import RunnablePassthrough

    seen = []

    def format_docs(docs):
        seen.extend(docs)
        return "\n\n".join(f"[{d.metadata['citation']}] {d.page_content}" for d in docs)

    retriever = LangChainRetriever(client=client, index=sample_index[0], k=3)
    prompt = PromptTemplate.from_template("Answer from the context only.\n\n{context}\n\nQuestion: {question}")
    chain = {"context": retriever | format_docs, "question": RunnablePassthrough()} | prompt
    text = chain.invoke(CAP).to_string()
    assert len(seen) == 3 and all(isinstance(d.metadata["score"], float) for d in seen)
    assert text.endswith(f"Question: {CAP}") and f"[{seen[0].metadata['citation']}] " in text
    assert text.count("\n\n[") == 3


async def _ticks_while(coroutine):
    """(the coroutine's result, how often another task ran meanwhile): a search that blocks the
    event loop lets the ticker run at most once or twice."""
    ticks = 0
    done = False

    async def ticker():
        nonlocal ticks
        while not done:
            ticks += 1
            await asyncio.sleep(0.005)

    task = asyncio.create_task(ticker())
    try:
        result = await coroutine
    finally:
        done = True
        await task
    return result, ticks


def test_langchain_ainvoke_searches_without_blocking_the_event_loop(client, sample_index):
    retriever = LangChainRetriever(client=client, index=sample_index[0], k=3)
    docs, ticks = asyncio.run(_ticks_while(retriever.ainvoke(TENANCY, filter={"as_of": "2026-06-01"})))
    assert [d.id for d in docs] == [d.id for d in retriever.invoke(TENANCY, filter={"as_of": "2026-06-01"})]
    assert len(docs) == 3 and ticks >= 3


def test_llamaindex_nodes_have_chunk_ids_scores_and_a_similarity_cutoff_works(client, sample_index):
    from llama_index.core.postprocessor import SimilarityPostprocessor

    retriever = LlamaIndexRetriever(client, index=sample_index[0], k=5)
    nodes = retriever.retrieve(CAP)
    assert len(nodes) == 5 and all(n.node.metadata["via"] == "retrieval" for n in nodes)
    assert [n.node.node_id for n in nodes] == [n.node.metadata["chunk_id"] for n in nodes]
    scores = [n.score for n in nodes]
    assert all(isinstance(s, float) for s in scores) and scores[0] > scores[-1]
    assert any(n.node.metadata["xrefs"] for n in nodes)
    again = {n.node.node_id for n in retriever.retrieve("limitation of liability cap")}
    assert again & {n.node.node_id for n in nodes}, "the same chunk keeps its id across queries"

    cutoff = (scores[0] + scores[-1]) / 2
    kept = SimilarityPostprocessor(similarity_cutoff=cutoff).postprocess_nodes(nodes)
    assert 0 < len(kept) < len(nodes)
    assert [n.node.node_id for n in kept] == [n.node.node_id for n in nodes if n.score >= cutoff]

    with_xrefs = LlamaIndexRetriever(client, index=sample_index[0], k=5, include_xrefs=True).retrieve(CAP)
    assert len(with_xrefs) > 5 and all(n.score is None for n in with_xrefs[5:])


def test_llamaindex_filters_as_a_dict_or_metadata_filters(client, sample_index):
    from llama_index.core.vector_stores.types import FilterOperator, MetadataFilter, MetadataFilters

    as_dict = LlamaIndexRetriever(client, index=sample_index[0], k=3,
                                  filters={"doc_id": "housing-act-1988", "as_of": "2025-06-01"}).retrieve(TENANCY)
    assert len(as_dict) == 3 and {n.node.metadata["version"] for n in as_dict} == {"2019"}
    native = MetadataFilters(filters=[MetadataFilter(key="doc_id", value="housing-act-1988"),
                                      MetadataFilter(key="as_of", value="2025-06-01")])
    as_native = LlamaIndexRetriever(client, index=sample_index[0], k=3, filters=native).retrieve(TENANCY)
    assert [n.node.node_id for n in as_native] == [n.node.node_id for n in as_dict]
    with pytest.raises(QueryError, match="accepted keys: as_of, doc_id"):
        LlamaIndexRetriever(client, index=sample_index[0], filters={"party": "Acme"})
    with pytest.raises(QueryError, match="only == and in filters"):
        LlamaIndexRetriever(client, index=sample_index[0], filters=MetadataFilters(
            filters=[MetadataFilter(key="doc_id", value="x", operator=FilterOperator.NE)]))


def test_llamaindex_aretrieve_searches_without_blocking_the_event_loop(client, sample_index):
    retriever = LlamaIndexRetriever(client, index=sample_index[0], k=3, as_of="2026-06-01")
    nodes, ticks = asyncio.run(_ticks_while(retriever.aretrieve(TENANCY)))
    assert [n.node.node_id for n in nodes] == [n.node.node_id for n in retriever.retrieve(TENANCY)]
    assert len(nodes) == 3 and ticks >= 3


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
