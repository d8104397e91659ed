"""The ingest analyses the passage terms of what it writes (legalsearch.index.terms), on the real
node: a later process reads from disk exactly the terms the node gives for the same texts, and asks
the node nothing for them; `warm_terms` does the same for an index ingested before."""

from __future__ import annotations

from legalsearch.index import indices, terms
from legalsearch.index.terms import DISK_FILE, TermsCache

from tests.integration.conftest import ingested_index

DOCS = {
    "lease-harrowgate.txt": "LEASE AGREEMENT\n\n1. Rent\nThe tenant pays the rent monthly in advance.\n\n"
                            "2. Deposit\nThe landlord protects the deposit in an approved scheme within thirty days.\n",
    "licence-marlowe.txt": "SOFTWARE LICENCE\n\n1. Grant\nThe licensor grants a non-exclusive licence to use the software.\n\n"
                           "2. Termination\nEither party may terminate on ninety days' written notice.\n",
}


class Counting:
    """The store, counting the term-vector requests."""

    def __init__(self, store):
        self._store, self.asked = store, 0

    def call(self, method, path, body=None):
        self.asked += path.endswith("_mtermvectors")
        return self._store.call(method, path, body)


def chunks_of(store, index):
    fields = ["heading_path", "section_title", "text", "doc_title", "summary"]
    return [h["_source"] for page in store.stream(index, {"match_all": {}}, 500, fields) for h in page]


def from_disk(settings, chunks, uuid) -> TermsCache:
    cache = TermsCache()  # a later process: nothing in memory
    cache.use_disk(settings.cache_dir / DISK_FILE)
    cache.know(chunks, uuid)
    return cache


def test_the_ingest_keeps_on_disk_the_terms_the_node_gives(settings, store, run_ingest, tmp_path):
    for name, text in DOCS.items():
        (tmp_path / name).write_text(text)
    with ingested_index(store, run_ingest, "test-terms", [tmp_path], embedder="minilm", public_if_no_acl=True) \
            as (index, report):
        summary = report.summary()
        sources = chunks_of(store, index)
        texts = list(dict.fromkeys(terms.passage_texts(sources)))
        assert summary["options"]["terms_analysed"] == len(texts) > len(DOCS)
        chunks = indices.require(store, index)
        uuid = indices.uuid_of(store, chunks)
        counting = Counting(store)
        kept = terms.passage_terms(counting, chunks, texts, from_disk(settings, chunks, uuid))
        assert counting.asked == 0
        assert kept == terms.passage_terms(store, chunks, texts, None)  # the node's own analysis now
        assert any("deposit" in t for t in kept) and any("licenc" in " ".join(t) for t in kept)


def test_warm_terms_covers_an_index_ingested_before(settings, store, run_ingest, service, tmp_path):
    for name, text in DOCS.items():
        (tmp_path / name).write_text(text.replace("thirty", "forty"))
    with ingested_index(store, run_ingest, "test-terms-before", [tmp_path], embedder="minilm",
                        public_if_no_acl=True) as (index, _):
        chunks = indices.require(store, index)
        uuid = indices.uuid_of(store, chunks)
        texts = list(dict.fromkeys(terms.passage_texts(chunks_of(store, index))))
        keys = [terms.digest(t) for t in texts]
        disk = terms.TermsDisk(settings.cache_dir / DISK_FILE)
        try:  # as if ingested by a version that kept nothing
            with disk._lock:
                disk._db.execute("DELETE FROM terms WHERE idx = ?", [uuid])
                disk._db.commit()
            assert disk.get_many(uuid, keys) == {}
        finally:
            disk.close()
        with terms.TERMS._lock:  # and this process forgets them: a later process
            terms.TERMS._terms.clear()
        result = service.warm_terms(index)
        assert result["chunks"] == len(chunks_of(store, index)) and result["texts_analysed"] == len(texts)
        assert service.warm_terms(index)["texts_analysed"] == 0  # idempotent
        counting = Counting(store)
        assert terms.passage_terms(counting, chunks, texts, from_disk(settings, chunks, uuid)) == \
            terms.passage_terms(store, chunks, texts, None)
        assert counting.asked == 0
