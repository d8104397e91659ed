"""Passage terms kept on disk (legalsearch.index.terms): read back by index uuid, never across
indices, and an ingest's warming asks the node only for texts it does not know."""

from __future__ import annotations

from legalsearch.index import terms
from legalsearch.index.terms import TermsCache, TermsDisk


class Analyser:
    """A node's `_mtermvectors` over artificial documents: lower-cased words as terms."""

    def __init__(self):
        self.asked: list[list[str]] = []

    def call(self, method, path, body):
        texts = [d["doc"][terms.TERMS_FIELD] for d in body["docs"]]
        self.asked.append(texts)
        return 200, {"docs": [{"term_vectors": {terms.TERMS_FIELD: {"terms": {w: {} for w in t.lower().split()}}}}
                              for t in texts]}


def test_the_disk_keeps_terms_by_index_uuid(tmp_path):
    disk = TermsDisk(tmp_path / "terms.sqlite")
    disk.put_many("uuid-1", {b"k1": frozenset({"notice", "term"}), b"k2": frozenset()})
    assert disk.get_many("uuid-1", [b"k1", b"k2", b"k3"]) == {b"k1": frozenset({"notice", "term"}), b"k2": frozenset()}
    assert disk.get_many("uuid-2", [b"k1"]) == {}
    disk.close()
    again = TermsDisk(tmp_path / "terms.sqlite")  # another process, later
    assert again.get_many("uuid-1", [b"k1"]) == {b"k1": frozenset({"notice", "term"})}


def test_a_new_process_reads_what_an_earlier_one_analysed_only_for_an_index_it_knows(tmp_path):
    node = Analyser()
    first = TermsCache()
    first.use_disk(tmp_path / "terms.sqlite")
    first.know("chunks-v1", "uuid-1")
    assert terms.passage_terms(node, "chunks-v1", ["Governing Law", "Term"], first) == [{"governing", "law"}, {"term"}]
    assert len(node.asked) == 1
    later = TermsCache()
    later.use_disk(tmp_path / "terms.sqlite")
    assert terms.passage_terms(node, "chunks-v1", ["Term"], later) == [{"term"}]
    assert len(node.asked) == 2  # the uuid unknown: asked again, nothing read from disk
    other = TermsCache()
    other.use_disk(tmp_path / "terms.sqlite")
    other.know("chunks-v1", "uuid-1")
    assert terms.passage_terms(node, "chunks-v1", ["Governing Law", "Term"], other) == [{"governing", "law"}, {"term"}]
    assert len(node.asked) == 2  # both from disk
    other.know("chunks-v2", "uuid-2")  # a new generation: its own analysis
    terms.passage_terms(node, "chunks-v2", ["Term"], other)
    assert node.asked[-1] == ["Term"]


def test_warming_asks_only_the_texts_it_does_not_know(tmp_path):
    node, cache = Analyser(), TermsCache()
    cache.use_disk(tmp_path / "terms.sqlite")
    sources = [{"heading_path": ["1 Term"], "text": "Five years.", "doc_title": "NDA", "summary": "An NDA."},
               {"heading_path": ["2 Law"], "text": "England.", "doc_title": "NDA", "summary": "An NDA."}]
    assert terms.warm(node, "chunks-v1", "uuid-1", sources, cache) == 3  # two passages, one document text
    assert terms.warm(node, "chunks-v1", "uuid-1", sources, cache) == 0
    assert len(node.asked) == 1
    fresh = TermsCache()
    fresh.use_disk(tmp_path / "terms.sqlite")
    fresh.know("chunks-v1", "uuid-1")
    texts = terms.passage_texts(sources)
    assert terms.passage_terms(node, "chunks-v1", texts, fresh) == [set(t.lower().split()) for t in texts]
    assert len(node.asked) == 1


def test_a_cache_folder_that_cannot_hold_the_file_leaves_the_terms_in_memory(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    node, cache = Analyser(), TermsCache()
    cache.use_disk(blocked / "terms.sqlite")
    assert cache.disk is None
    cache.know("chunks-v1", "uuid-1")
    assert terms.passage_terms(node, "chunks-v1", ["Term"], cache) == [{"term"}]
    assert terms.passage_terms(node, "chunks-v1", ["Term"], cache) == [{"term"}] and len(node.asked) == 1
