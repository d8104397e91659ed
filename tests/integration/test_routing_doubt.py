"""Routing that knows when it is unsure (issue 28, deliverable 3): three Acts on neighbouring
subjects in one index (evaluation/gold/round12-acts/corpus), questions in everyday words that name
none. When routing's lists do not all put one Act first, the routing prior among these look-alikes
falls to `routing_unsure_prior` and the chunks' own scores order the Acts. Real node, real MiniLM.
The questions are written for this test (not the gold set's)."""

from __future__ import annotations

import pytest
from legalsearch.query.explain import explain, render
from legalsearch.query.models import SearchRequest

pytestmark = pytest.mark.integration

LEAFLET = "I'm putting a leaflet through letterboxes to advertise my flat for weekend stays. Is there anything it has to say?"
GYM = "My gym membership renewed itself for another year without any reminder. Can I get out of it?"


def _request(index, query, **kw):
    return SearchRequest(query=query, index=index, expand_xrefs=False, **kw)


def test_a_tie_between_look_alike_acts_leaves_the_order_to_the_chunks(service, acts_index):
    plan = service.plan(_request(acts_index, LEAFLET))
    # routing put the subscriptions Act first on a tie of its lists; the question is about holiday lets
    assert plan.unsure and plan.routed[0] != "holiday-lets-act:1"
    assert plan.prior == pytest.approx(0.02)
    hits = service.search(_request(acts_index, LEAFLET), write_log=False).hits
    assert [h.doc_id for h in hits[:3]] == ["holiday-lets-act"] * 3, [(h.doc_id, h.section) for h in hits[:5]]
    assert "3" in [h.section for h in hits[:3]]  # "Information in advertisements"
    # the prior as it was (0.5 whatever the doubt) ranks a chunk of routing's first Act higher
    off = service.search(_request(acts_index, LEAFLET, routing_unsure_prior=0.5), write_log=False).hits

    def first_of(found, doc_key):
        return next(h.rank for h in found if f"{h.doc_id}:{h.version}" == doc_key)

    assert first_of(off, plan.routed[0]) < first_of(hits, plan.routed[0])


def test_lists_that_agree_keep_the_full_prior_and_a_named_act_is_searched_alone(service, acts_index):
    plan = service.plan(_request(acts_index, GYM))
    assert not plan.unsure and plan.routed[0] == "consumer-subscriptions-act:1" and plan.prior == pytest.approx(0.5)
    named = service.plan(_request(acts_index, "Under the Holiday Lets (Registration and Safety) Act, what must an advert show?"))
    assert named.routed == ("holiday-lets-act:1",) and not named.unsure


def test_explain_says_routing_was_unsure_and_which_prior_it_used(service, acts_index):
    result = explain(service, _request(acts_index, LEAFLET))
    assert result["routing_unsure"] is True and result["routing_prior"] == pytest.approx(0.02)
    assert "routing prior 0.02 (routing's lists disagree on the first document)" in render(result)
