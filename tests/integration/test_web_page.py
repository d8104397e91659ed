"""The web page in a real browser: headless Chromium from Debian's packages (`apt-get install
chromium`) driven by Playwright (its own browser download is not used), against the service in
front of the real node. Screenshots of the main views go to docs/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import REPO
from tests.integration.webserver import running

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = REPO / "docs" / "screenshots"
PRIVILEGED = "Privileged note"  # the title of the sample corpus's privileged-note-litigation


@pytest.fixture(scope="module")
def page_server(settings, opensearch_url, embedders):
    from legalsearch import LegalSearch
    from legalsearch.web.app import create_app

    client = LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)
    client.embedders = embedders
    with running(create_app(client)) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def _login(page, url: str, user: str, password: str) -> None:
    page.goto(url + "/")
    page.fill("#user", user)
    page.fill("#password", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#search-view", state="visible")


def _search(page, index: str, query: str, **filters: str) -> None:
    page.select_option("#index", index)
    for field in ("as_of", "jurisdiction", "doc_type", "doc_id"):
        page.fill(f"#{field}", filters.get(field, ""))
    if "k" in filters:
        page.fill("#k", filters["k"])
    page.fill("#query", query)
    page.press("#query", "Enter")  # keyboard: the form submits on Enter
    expect(page.locator("#status")).to_have_text(re.compile(r"^(?!searching)\S"), timeout=120_000)


def test_log_in_search_filter_open_and_no_privileged_text(browser, page_server, sample_index, people):
    SHOTS.mkdir(parents=True, exist_ok=True)
    index = sample_index[0]
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # a wrong password is refused with the node's message
    page.goto(page_server + "/")
    page.fill("#user", people["alice"][0])
    page.fill("#password", "wrong")
    page.click("#login-form button[type=submit]")
    page.locator("#login-error").wait_for(state="visible")
    assert "did not accept the password" in page.text_content("#login-error")
    page.screenshot(path=str(SHOTS / "login.png"))

    _login(page, page_server, *people["alice"])
    _search(page, index, "What is the liability cap in clause 14.3?")
    first = page.locator("#results > li").first
    assert "14.3" in first.locator(".citation").first.text_content()
    assert "version 1" in first.locator(".meta").first.text_content()
    # the matched words are marked inside the passage's own text
    marks = [m.lower() for m in first.locator(":scope > .passage mark.hl").all_text_contents()]
    assert "liability" in marks and "14.3" in marks and "the" not in marks
    page.screenshot(path=str(SHOTS / "search.png"))

    # "why this hit", opened from the keyboard: the engine's scores per list
    why = first.locator(":scope > .actions .why-button")
    why.focus()
    page.keyboard.press("Enter")
    table = first.locator(":scope > .why table")
    table.wait_for(state="visible", timeout=120_000)
    rows = table.locator("tr").all_text_contents()
    assert any(r.startswith("identifier") for r in rows) and any(r.startswith("bm25") for r in rows), rows
    assert "Fused score" in first.locator(":scope > .why").text_content()
    assert why.get_attribute("aria-expanded") == "true"
    first.screenshot(path=str(SHOTS / "why-this-hit.png"))

    # one hit: the amendment that changes 14.3 and the clauses 14.3 cites (14.1, 14.2) are shown under
    # it, not after the list, each said for what it is
    _search(page, index, "What is the liability cap in clause 14.3?", k="1")
    assert page.locator("#results > li").count() == 1
    only = page.locator("#results > li").first
    cited = only.locator(":scope > ul.cited > li .citation").all_text_contents()
    assert any("14.1" in c for c in cited) and any("14.2" in c for c in cited), cited
    assert any("Amendment No. 1" in c for c in cited), cited
    assert only.locator(":scope > .cited-title").text_content() == \
        "Amendments that change this clause, and the clauses it cites:"
    assert "1 amendment that changes them" in page.locator("#status").text_content()
    page.screenshot(path=str(SHOTS / "cited-under-hit.png"))
    page.fill("#k", "5")

    # the as-of filter: the version in force on that day
    _search(page, index, "Can a landlord end a tenancy without giving a reason?", as_of="2025-06-01")
    metas = page.locator("#results li .meta").all_text_contents()
    assert metas and all("version 2026" not in m for m in metas) and any("version 2019" in m for m in metas)
    page.screenshot(path=str(SHOTS / "search-as-of.png"))

    # the document view opens at the passage, with the other version one click away
    passage = page.locator("#results > li .passage").first.text_content()
    page.locator("#results > li .actions button").first.click()
    page.wait_for_selector("#focus")
    assert page.text_content("#focus") == passage
    assert page.locator("#doc-versions button").count() == 2
    page.screenshot(path=str(SHOTS / "document.png"))
    page.click("#back")

    # not_found shown as such
    _search(page, index, "liability cap", doc_id="no-such-document")
    assert page.is_visible("#not-found") and "Not found" in page.text_content("#not-found")

    # alice (litigation-team) sees the privileged note; bob, without the group, sees no trace of it
    _search(page, index, "settlement strategy on the liability cap")
    assert PRIVILEGED in page.text_content("#results")
    privileged = [t for t in page.locator("#results li").all_text_contents() if PRIVILEGED in t]
    page.screenshot(path=str(SHOTS / "privileged-as-member.png"))
    page.click("#logout")
    page.wait_for_selector("#login-view", state="visible")
    assert page.text_content("#results") == ""

    _login(page, page_server, *people["bob"])
    _search(page, index, "settlement strategy on the liability cap")
    shown = page.text_content("body")
    assert page.locator("#results li").count() > 0 or page.is_visible("#not-found")
    assert PRIVILEGED not in shown and "PRIVILEGED AND CONFIDENTIAL" not in shown
    for text in privileged:
        assert text not in shown
    page.screenshot(path=str(SHOTS / "privileged-as-outsider.png"))
    assert errors == []
    page.close()


def test_why_this_hit_says_when_routing_was_unsure_among_look_alikes(browser, page_server, people, acts_index):
    # three Acts on neighbouring subjects: routing's lists tie on this question (test_routing_doubt.py)
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _login(page, page_server, *people["bob"])
    _search(page, acts_index, "I'm putting a leaflet through letterboxes to advertise my flat for weekend stays. "
                              "Is there anything it has to say?")
    first = page.locator("#results > li").first
    assert "Holiday Lets" in first.locator(".citation").first.text_content()
    first.locator(":scope > .actions .why-button").click()
    first.locator(":scope > .why table").wait_for(state="visible", timeout=120_000)
    why = first.locator(":scope > .why").text_content()
    assert "Routing was unsure among these look-alike documents" in why and "routing prior 0.02" in why, why
    assert errors == []
    page.close()
