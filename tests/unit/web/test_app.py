"""The service's pure parts: credentials, problems, per-user slots, the document layout."""

from __future__ import annotations

import base64
import json

import pytest
from legalsearch.errors import (
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    QueryError,
    StoreError,
)
from legalsearch.query import view
from legalsearch.web.app import Caller, Problem, Slots, credentials, problem_of


def _basic(text: str) -> str:
    return "Basic " + base64.b64encode(text.encode()).decode()


def _jwt(claims: dict) -> str:
    part = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJIUzUxMiJ9.{part}.c2ln"


def test_basic_credentials_and_bearer_tokens_are_read_and_everything_else_is_a_401():
    assert credentials(_basic("alice:pa:ss")) == Caller("alice", password="pa:ss")
    # a token's user is read (unverified: the node verifies it) for the per-user limit and the log
    token = _jwt({"sub": "alice", "exp": 1})
    assert credentials(f"Bearer {token}") == Caller("alice", token=token)
    assert credentials("Bearer a.b.c").name == "bearer"  # a payload that is no JSON names nobody
    for header in (None, "", "Bearer abc", "Bearer ", "Basic !!!", _basic("no-colon"), _basic(":password"), "Digest x"):
        with pytest.raises(Problem) as caught:
            credentials(header)
        assert caught.value.status == 401 and caught.value.headers["WWW-Authenticate"].startswith("Basic")


@pytest.mark.parametrize("error, status", [
    (AuthenticationError("wrong password"), 401), (PermissionDeniedError("may not"), 403),
    (NotFoundError("no index"), 404), (QueryError("bad k"), 422), (StoreError("boom"), 502),
    (RuntimeError("secret detail"), 500),
])
def test_each_error_has_its_status_and_the_libraries_message(error, status):
    found = problem_of(error)
    assert found.status == status
    assert found.detail == (str(error) if status != 500 else "the service failed; its log says why")
    body = found.response().body
    assert b'"type":"urn:legalsearch:problem:' in body and b"secret" not in body


def test_a_user_holds_at_most_its_slots():
    slots = Slots(2)
    slots.take("a"), slots.take("a"), slots.take("b")
    with pytest.raises(Problem) as caught:
        slots.take("a")
    assert caught.value.status == 429
    slots.give("a")
    slots.take("a")


def _chunk(cid, start, text, version="1", **more):
    return {"chunk_id": cid, "doc_id": "d", "doc_title": "D", "version": version, "char_start": start,
            "char_end": start + len(text), "text": text, "heading_path": [], **more}


def test_the_layout_keeps_every_offset_and_picks_the_version_in_force():
    from datetime import date

    old = [_chunk("d:1:0", 0, "First clause."), _chunk("d:1:1", 15, "Second clause.")]
    new = [_chunk("d:2:0", 0, "Only clause.", version="2", valid_from="2026-01-01")]
    for c in old:
        c["valid_to"] = "2026-01-01"
    doc = view.assemble(old + new, today=date(2025, 6, 1))
    assert doc.version == "1" and doc.gaps == 2 and [v.version for v in doc.versions] == ["1", "2"]
    assert all(doc.text[p.char_start:p.char_end] == c["text"] for p, c in zip(doc.passages, old, strict=True))
    assert view.assemble(old + new, today=date(2026, 6, 1)).version == "2"
    focused = view.assemble(old + new, chunk_id="d:1:1", today=date(2026, 6, 1))
    assert focused.version == "1" and focused.focus.char_start == 15
    with pytest.raises(NotFoundError):
        view.assemble(old, version="9")
    with pytest.raises(NotFoundError):
        view.assemble(old, chunk_id="other")
