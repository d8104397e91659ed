"""The registry answers kept across questions (legalsearch.query.registry): kept while the change
marker stays, dropped when it moves, when this process changes an index, or when the oldest."""

from __future__ import annotations

from legalsearch.query.registry import MARKER_BODY, RegistryAnswers, filters_key, marker_of


class Registry:
    """A fake registry answering the marker request only: (documents, latest ingested_at)."""

    def __init__(self):
        self.count, self.last, self.asked = 3, 1_700_000_000_000, 0

    def fetch(self, index, body):
        assert body == MARKER_BODY
        self.asked += 1
        return {"hits": {"total": {"value": self.count}}, "aggregations": {"last": {"value": self.last}}}


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def kept(ttl=2.0, size=100, epoch=lambda: 0):
    registry, clock = Registry(), Clock()
    return RegistryAnswers(registry.fetch, ttl, size=size, clock=clock, epoch=epoch), registry, clock


def test_an_answer_is_kept_and_the_marker_read_once_per_ttl():
    answers, registry, clock = kept()
    assert answers.get("docs-a", ("df", "f", "kestrel")) is None
    answers.put("docs-a", ("df", "f", "kestrel"), (2, 0))
    clock.now += 1.0
    assert answers.get("docs-a", ("df", "f", "kestrel")) == (2, 0)
    assert registry.asked == 1
    clock.now += 1.5  # past the ttl: the marker is read again, unchanged, the answer stays
    assert answers.get("docs-a", ("df", "f", "kestrel")) == (2, 0)
    assert registry.asked == 2


def test_a_moved_marker_drops_that_registrys_answers_only():
    answers, registry, clock = kept()
    answers.get("docs-a", "k")
    answers.put("docs-a", "k", 1)
    answers.get("docs-b", "k")
    answers.put("docs-b", "k", 2)
    registry.last += 1  # a document re-ingested: same count, a later ingested_at
    clock.now += 3.0
    assert answers.get("docs-a", "k") is None
    registry.count += 1
    assert answers.get("docs-b", "k") is None  # its own marker read: the count moved too
    answers, registry, clock = kept()
    answers.get("docs-a", "k")
    answers.put("docs-a", "k", 1)
    registry.count -= 1  # a document removed
    clock.now += 3.0
    assert answers.get("docs-a", "k") is None


def test_a_change_in_this_process_drops_everything_at_once():
    changes = [0]
    answers, registry, _ = kept(epoch=lambda: changes[0])
    answers.get("docs-a", "k")
    answers.put("docs-a", "k", 1)
    changes[0] += 1  # an ingest ended in this process: within the ttl, still not kept
    assert answers.get("docs-a", "k") is None
    assert registry.asked == 2  # the marker is read again


def test_nothing_is_kept_without_a_marker_read_first():
    answers, registry, _ = kept()
    answers.put("docs-a", "k", 1)
    assert answers.get("docs-a", "k") is None


def test_the_least_recently_used_answer_goes_first():
    answers, _, _ = kept(size=2)
    for key in ("a", "b"):
        answers.get("docs", key)
        answers.put("docs", key, key)
    assert answers.get("docs", "a") == "a"  # used: b is now the oldest
    answers.put("docs", "c", "c")
    assert answers.get("docs", "b") is None
    assert answers.get("docs", "a") == "a" and answers.get("docs", "c") == "c"


def test_marker_and_filters_keys():
    assert marker_of({"hits": {"total": {"value": 4}}, "aggregations": {"last": {"value": None}}}) == (4, None)
    assert filters_key([{"term": {"a": 1}}, {"range": {"b": {"lte": "2026"}}}]) == \
        filters_key([{"term": {"a": 1}}, {"range": {"b": {"lte": "2026"}}}])
    assert filters_key([{"term": {"acl": "g1"}}]) != filters_key([{"term": {"acl": "g2"}}])
