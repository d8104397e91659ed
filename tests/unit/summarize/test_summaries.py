"""Summarizers for Summary-Augmented Chunking: length control, candidates, cache, registry, LLM client.

The LLM client is tested against a real HTTP server (http.server in a thread) that speaks
the chat/completions format; nothing is mocked.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from legalsearch.documents.models import DocumentMeta, ParsedDocument, StructureNode
from legalsearch.errors import ConfigError, LegalSearchError
from legalsearch.summarize import (
    SUMMARIZERS,
    EndpointHTTPError,
    EndpointUnreachableError,
    MalformedResponseError,
    OpenAICompatibleSummarizer,
    OpeningSummarizer,
    Summarizer,
    SummaryCache,
    clean_file_name,
    fit_summary,
    get_summarizer,
    summarize_cached,
)

NDA_EN = """Exhibit 10.4

MUTUAL NON-DISCLOSURE AGREEMENT

This Mutual Non-Disclosure Agreement (the "Agreement") is entered into as of 12 July 2017 by and between \
Bosch Automotive Service Solutions Inc., a Delaware corporation ("Bosch"), and Northwind Diagnostics LLC, \
a Michigan limited liability company ("Northwind").

WHEREAS, each party wishes to disclose to the other party certain confidential information relating to the \
Vehicle Telematics Platform for the purpose of evaluating a possible business relationship between them.

1. Confidential Information. "Confidential Information" means all non-public information disclosed by either \
party that relates to the Vehicle Telematics Platform, including source code, diagnostics data and pricing.
2. Obligations. The receiving party shall protect the Confidential Information with at least reasonable care \
and shall use it only to evaluate the Vehicle Telematics Platform cooperation.
3. Term. The obligations of confidentiality survive for three (3) years after the last disclosure.
4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State \
of Michigan, without regard to its conflict of laws rules.
"""

CONTRACT_IT = """CONTRATTO DI FORNITURA

tra

ACME S.p.A., con sede legale in Milano, Via Torino 12, partita IVA 01234567890 (di seguito, il "Committente")

e

Fornitore Lombardo S.r.l., con sede legale in Bergamo, Via dei Mille 45 (di seguito, il "Fornitore")

stipulato in data 15 aprile 2024

PREMESSO CHE il Committente intende acquistare dal Fornitore i componenti della Linea Sensori Industriali;

Art. 1 - Oggetto. Il Fornitore si obbliga a fornire al Committente i componenti della Linea Sensori \
Industriali nelle quantità indicate in ciascun Ordine.
Art. 2 - Prezzo. Il prezzo dei componenti della Linea Sensori Industriali è indicato nell'Allegato B.
Art. 12 - Foro competente. Per ogni controversia è competente in via esclusiva il Foro di Milano.
"""

PRIVACY_EN = """Privacy Policy

Last updated: 1 March 2023

This Privacy Policy explains how Pinwheel collects, uses and shares personal information when you use \
the Pinwheel app. Pinwheel is committed to protecting your privacy.

Information we collect. When you register with Pinwheel we collect your name and email address. With your \
permission Pinwheel collects your precise location and your contacts, and we store the photos you upload.
Payments are handled by our processor; Pinwheel never stores your credit card number.
Cookies and advertising. We use cookies to remember your settings and to show advertising.
Your rights. If you live in the European Union, the General Data Protection Regulation (GDPR) gives you \
rights over your data; California residents have rights under the CCPA.
Law. This Privacy Policy is governed by the laws of the State of California.
"""

TEXTS = {"nda_en": (NDA_EN, "en"), "contract_it": (CONTRACT_IT, "it"), "privacy_en": (PRIVACY_EN, "en")}
OFFLINE = ["opening", "fingerprint", "title-fingerprint", "centroid"]


def make_doc(text: str, *, source_path: str = "", **meta) -> ParsedDocument:
    """A parsed document without structure parsing (summarizers never read the tree)."""
    fields = {"doc_id": "doc", "title": "Untitled", "inferred": ["title", "doc_type"], **meta}
    return ParsedDocument(
        meta=DocumentMeta(**fields), text=text, origin="digital", source_path=source_path,
        doc_sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), pages=[],
        tree=StructureNode("document", None, None, None, 0, len(text)),
    )


# -- length control -------------------------------------------------------------------------

def test_fit_summary_keeps_short_text_and_collapses_whitespace():
    assert fit_summary("  Mutual NDA\n between   A and B.  ") == "Mutual NDA between A and B."


def test_fit_summary_cuts_at_a_word_boundary_within_the_limit():
    text = " ".join(f"word{i}" for i in range(60))  # 409 characters, no punctuation
    out = fit_summary(text, target=150, tolerance=20)
    assert 130 <= len(out) <= 170
    assert text.startswith(out) and text[len(out)] == " "  # ends on a whole word


def test_fit_summary_prefers_a_clause_boundary_and_leaves_no_junk():
    text = ("Supply Agreement between Alpha Industries, Inc. and Beta Components LLC, 1 Mar 2020; governed by "
            "Delaware law; key terms: Forecast, Purchase Order, Minimum Quantity, Exclusivity and Rebates (the")
    out = fit_summary(text, target=150, tolerance=20)
    assert out.endswith("Minimum Quantity")  # the last ", " that keeps at least 130 characters
    assert len(out) <= 170


@pytest.mark.parametrize("text", ["Alpha and Beta, and", "Alpha Beta (the", "Alpha Beta; ", 'Alpha "Beta'])
def test_fit_summary_strips_dangling_words_and_punctuation(text):
    out = fit_summary(text, target=10, tolerance=0)
    assert out[-1].isalnum() or out[-1] in ')"'
    assert not out.endswith((" and", " the", ";", ","))


def test_fit_summary_rejects_bad_targets():
    with pytest.raises(ValueError):
        fit_summary("x", target=0)


# -- offline candidates -----------------------------------------------------------------------

@pytest.mark.parametrize("name", OFFLINE)
@pytest.mark.parametrize("sample", sorted(TEXTS))
def test_offline_candidates_fit_the_length_target(name, sample):
    text, language = TEXTS[sample]
    summary = get_summarizer(name).summarize(make_doc(text, language=language, source_path=f"/data/{sample}.txt"))
    assert 150 - 20 <= len(summary) <= 150 + 20, summary


@pytest.mark.parametrize("name", OFFLINE)
def test_offline_candidates_are_deterministic(name):
    doc = make_doc(NDA_EN)
    assert get_summarizer(name).summarize(doc) == get_summarizer(name).summarize(doc)


def test_opening_skips_page_furniture():
    summary = get_summarizer("opening").summarize(make_doc(NDA_EN))
    assert summary.startswith("MUTUAL NON-DISCLOSURE AGREEMENT This Mutual")


def test_fingerprint_names_the_parties_of_a_between_preamble():
    summary = get_summarizer("fingerprint").summarize(make_doc(NDA_EN))
    assert "Bosch Automotive Service Solutions Inc." in summary
    assert "Northwind Diagnostics LLC" in summary
    assert summary.startswith("Mutual Non-Disclosure Agreement between")
    assert "12 Jul 2017" in summary and "Michigan law" in summary and "mutual" in summary


def test_fingerprint_reads_cover_page_parties_in_capitals():
    text = ("AGREEMENT AND PLAN OF MERGER\n\nby and among\n\nDSP GROUP, INC.,\n\nSYNAPTICS INCORPORATED,\n\nand\n\n"
            "OSPREY MERGER SUB, INC.\n\nAugust 30, 2021\n\nTABLE OF CONTENTS\n")
    summary = get_summarizer("fingerprint").summarize(make_doc(text))
    assert summary.startswith("Agreement and Plan of Merger among DSP Group, Inc., Synaptics Incorporated")
    assert "30 Aug 2021" in summary


def test_fingerprint_writes_italian_for_italian_documents():
    summary = get_summarizer("fingerprint").summarize(make_doc(CONTRACT_IT, language="it"))
    assert summary.startswith("Contratto di fornitura tra ACME S.p.A.")
    assert "Fornitore Lombardo S.r.l." in summary
    assert "15 aprile 2024" in summary and "foro di Milano" in summary


def test_fingerprint_names_the_company_of_a_privacy_policy():
    summary = get_summarizer("fingerprint").summarize(make_doc(PRIVACY_EN))
    assert summary.startswith("Privacy Policy of Pinwheel")
    assert "GDPR" in summary and "location" in summary


def test_fingerprint_prefers_metadata_that_was_not_inferred():
    doc = make_doc(NDA_EN, title="Telematics NDA", doc_type="nda", parties=["Alpha GmbH", "Beta S.p.A."],
                   signed_at=date(2018, 3, 1), inferred=[])
    summary = get_summarizer("fingerprint").summarize(doc)
    assert "between Alpha GmbH and Beta S.p.A., 1 Mar 2018" in summary
    assert "Bosch" not in summary and "12 Jul 2017" not in summary
    assert summary.startswith("Mutual Non-Disclosure Agreement")  # detected type, same family as "nda"


def test_fingerprint_overrides_an_inferred_doc_type_with_the_text():
    inferred = make_doc(NDA_EN, doc_type="contract", inferred=["title", "doc_type"])
    given = make_doc(NDA_EN, doc_type="privacy_policy", inferred=["title"])
    assert get_summarizer("fingerprint").summarize(inferred).startswith("Mutual Non-Disclosure Agreement")
    assert get_summarizer("fingerprint").summarize(given).startswith("Privacy Policy")


def test_title_fingerprint_leads_with_the_file_name_when_the_title_was_guessed():
    doc = make_doc(NDA_EN, source_path="/corpus/Bosch-Northwind-Telematics-NDA-2017.txt")
    summary = get_summarizer("title-fingerprint").summarize(doc)
    assert summary.startswith("Bosch Northwind Telematics NDA 2017")
    given = make_doc(NDA_EN, title="Telematics cooperation NDA", inferred=["doc_type"])
    assert get_summarizer("title-fingerprint").summarize(given).startswith("Telematics cooperation NDA")


@pytest.mark.parametrize(("path", "expected"), [
    ("VELCO%20NDA%20rev0%20Dec%2014%202015.txt", "VELCO NDA rev0 Dec 2015"),
    ("ACME,INC_04_21_2009-EX-10.1-SUPPLY AGREEMENT.txt", "Acme, Inc. 2009 Supply Agreement"),
    ("01_Bosch-Automotive-Service-Solutions-Mutual-Non-Disclosure-Agreement-7-12-17.txt",
     "Bosch Automotive Service Solutions Mutual Non Disclosure Agreement"),
])
def test_clean_file_name(path, expected):
    assert clean_file_name(path) == expected


def test_centroid_picks_a_sentence_of_the_document():
    summary = get_summarizer("centroid").summarize(make_doc(NDA_EN))
    assert "Vehicle Telematics Platform" in summary  # the term every central sentence shares


# -- cache ------------------------------------------------------------------------------------

class CountingOpening(OpeningSummarizer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def summarize(self, doc):
        self.calls += 1
        return super().summarize(doc)


def test_cache_hit_avoids_recomputation(tmp_path):
    summarizer = CountingOpening()
    doc = make_doc(NDA_EN)
    with SummaryCache(tmp_path / "cache") as cache:
        first = summarize_cached(summarizer, doc, cache)
        second = summarize_cached(summarizer, doc, cache)
        assert first == second and summarizer.calls == 1
        summarize_cached(summarizer, make_doc(CONTRACT_IT, language="it"), cache)  # another document
        assert summarizer.calls == 2
        other = CountingOpening(target=100)  # other settings: other key
        summarize_cached(other, doc, cache)
        assert other.calls == 1 and len(cache) == 3
    with SummaryCache(tmp_path / "cache") as reopened:  # persisted on disk
        assert summarize_cached(summarizer, doc, reopened) == first and summarizer.calls == 2


def test_summarize_cached_without_cache_computes():
    summarizer = CountingOpening()
    summarize_cached(summarizer, make_doc(NDA_EN), None)
    assert summarizer.calls == 1


def test_cache_in_an_unwritable_place_is_a_config_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError):
        SummaryCache(blocker / "cache")


# -- registry ---------------------------------------------------------------------------------

def test_get_summarizer_unknown_name_lists_the_choices():
    with pytest.raises(ConfigError) as error:
        get_summarizer("gpt-magic")
    for name in SUMMARIZERS:
        assert name in str(error.value)


def test_every_registered_summarizer_follows_the_protocol():
    for name in SUMMARIZERS:
        options = {"base_url": "http://localhost:1/v1", "model": "m"} if name == "openai" else {}
        summarizer = get_summarizer(name, **options)
        assert isinstance(summarizer, Summarizer) and summarizer.name == name
        assert summarizer.settings_key()


def test_none_summarizer_returns_empty_string():
    assert get_summarizer("none").summarize(make_doc(NDA_EN)) == ""


def test_settings_key_changes_with_the_target():
    assert get_summarizer("fingerprint").settings_key() != get_summarizer("fingerprint", target=100).settings_key()


def test_openai_needs_base_url_and_model():
    with pytest.raises(ConfigError, match="base_url"):
        get_summarizer("openai", model="m")
    with pytest.raises(ConfigError, match="variant"):
        get_summarizer("openai", base_url="http://localhost:1/v1", model="m", variant="poetic")


# -- OpenAI-compatible endpoint ------------------------------------------------------------------

class ChatServer:
    """A real HTTP server answering POST /v1/chat/completions from a script of (status, body)."""

    def __init__(self, script: list[tuple[int, object]]):
        self.script = list(script)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "authorization": self.headers.get("Authorization")})
                status, payload = server.script.pop(0) if len(server.script) > 1 else server.script[0]
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def answer(text: str) -> dict:
    return {"id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}


SHORT = "Mutual NDA between Bosch Automotive Service Solutions Inc. and Northwind Diagnostics LLC, 12 Jul 2017."
LONG = ("Mutual non-disclosure agreement dated 12 July 2017 between Bosch Automotive Service Solutions Inc., a "
        "Delaware corporation, and Northwind Diagnostics LLC, a Michigan limited liability company, about the "
        "Vehicle Telematics Platform, three-year confidentiality, governed by Michigan law.")


def test_openai_summarizer_posts_a_chat_completion():
    with ChatServer([(200, answer(f'"{SHORT}"'))]) as server:
        summarizer = get_summarizer("openai", base_url=server.base_url, model="tiny", api_key="sk-secret",
                                    variant="expert", timeout=5)
        assert summarizer.summarize(make_doc(NDA_EN)) == SHORT
    (request,) = server.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["authorization"] == "Bearer sk-secret"
    body = request["body"]
    assert body["model"] == "tiny" and body["temperature"] == 0
    assert "look-alike" in body["messages"][0]["content"] and "governing law" in body["messages"][0]["content"]
    assert "Northwind Diagnostics LLC" in body["messages"][1]["content"]


def test_openai_summarizer_asks_again_when_the_answer_is_too_long():
    with ChatServer([(200, answer(LONG)), (200, answer(LONG[:200])), (200, answer(SHORT))]) as server:
        summarizer = OpenAICompatibleSummarizer(server.base_url, "tiny", timeout=5)
        assert summarizer.summarize(make_doc(NDA_EN)) == SHORT
    assert len(server.requests) == 3
    assert "at most 120 characters" in server.requests[1]["body"]["messages"][-1]["content"]
    assert "at most 100 characters" in server.requests[2]["body"]["messages"][-1]["content"]
    assert server.requests[1]["body"]["messages"][-2] == {"role": "assistant", "content": LONG}
    assert server.requests[0]["authorization"] is None  # no key, no header


def test_openai_summarizer_trims_as_a_last_resort():
    with ChatServer([(200, answer(LONG))]) as server:
        summary = OpenAICompatibleSummarizer(server.base_url, "tiny", timeout=5).summarize(make_doc(NDA_EN))
    assert len(server.requests) == 3
    assert 130 <= len(summary) <= 170 and LONG.startswith(summary)


def test_openai_http_error_is_reported_without_the_key():
    with ChatServer([(500, {"error": {"message": "model crashed"}})]) as server:
        summarizer = OpenAICompatibleSummarizer(server.base_url, "tiny", api_key="sk-secret", timeout=5)
        with pytest.raises(EndpointHTTPError) as error:
            summarizer.summarize(make_doc(NDA_EN))
    assert error.value.status == 500 and "500" in str(error.value) and "model crashed" in str(error.value)
    assert "sk-secret" not in str(error.value) and "sk-secret" not in repr(summarizer)
    assert isinstance(error.value, LegalSearchError)


def test_openai_malformed_response_is_reported():
    with ChatServer([(200, {"unexpected": True})]) as server:
        with pytest.raises(MalformedResponseError, match="chat/completions"):
            OpenAICompatibleSummarizer(server.base_url, "tiny", timeout=5).summarize(make_doc(NDA_EN))


def test_openai_unreachable_endpoint_is_reported():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    summarizer = OpenAICompatibleSummarizer(f"http://127.0.0.1:{port}/v1", "tiny", timeout=5)
    with pytest.raises(EndpointUnreachableError, match="cannot reach"):
        summarizer.summarize(make_doc(NDA_EN))


def test_openai_settings_key_names_model_and_variant_but_not_the_key():
    key = OpenAICompatibleSummarizer("http://h/v1", "tiny", api_key="sk-secret", variant="expert").settings_key()
    assert "tiny" in key and "expert" in key and "sk-secret" not in key


def test_title_fingerprint_leads_with_an_eu_acts_own_title_not_its_file_name():
    text = ("REGULATION (EU) 2027/45 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL\n\nof 20 January 2027\n\n"
            "on short-term accommodation rental services\n\nTHE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN "
            "UNION,\n\nWhereas:\n\n(1) Short-term rentals ...\n\nArticle 1\nSubject matter\n\n1.   This Regulation ...\n")
    doc = make_doc(text, title="Regulation (EU) 2027/45 on short-term accommodation rental services",
                   doc_type="statute", inferred=["title", "doc_type"], source_path="/corpus/reg-eu-2027-45-en.txt")
    summary = get_summarizer("title-fingerprint").summarize(doc)
    assert summary.startswith("Regulation (EU) 2027/45 on short-term accommodation rental services")
    assert "Agreement" not in get_summarizer("fingerprint").summarize(doc)
    assert get_summarizer("fingerprint").summarize(doc).startswith("Regulation")
