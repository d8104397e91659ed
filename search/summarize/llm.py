"""Summaries from an OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp server, Ollama).

POST {base_url}/chat/completions with temperature 0. Two prompts: "generic" (the SAC
paper's kind of summary) and "expert" (tells the model which facts distinguish look-alike
NDAs and privacy policies). An answer longer than target + tolerance is sent back once
with a smaller limit, then once more, then trimmed at a word boundary. Standard library
only (urllib); the API key is sent in the Authorization header and never logged, shown in
repr() or put in an error message.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request

from legalsearch.documents.models import ParsedDocument
from legalsearch.errors import ConfigError, LegalSearchError
from legalsearch.summarize.base import DEFAULT_TARGET, DEFAULT_TOLERANCE, fit_summary, normalize_space
from legalsearch.summarize.facts import find_governing_law
from legalsearch.summarize.fingerprint import document_name

log = logging.getLogger(__name__)

PROMPT_VERSION = "v1"  # bump when a prompt or the document message changes: cached summaries then expire
VARIANTS = ("generic", "expert")
GENERIC_PROMPT = (
    "You summarize legal documents for a search index. Write one sentence of at most {target} characters "
    "that identifies this document: its type, the parties (full names), the date and its main subject. "
    "State only what the document says. Write in the language of the document. Answer with the sentence "
    "only: no preamble, no quotes, no markdown."
)
EXPERT_PROMPT = (
    "You summarize legal documents for a search index that holds many near-identical documents "
    "(non-disclosure agreements, privacy policies, standard commercial contracts). Write one sentence of "
    "at most {target} characters that tells THIS document apart from its look-alikes, using only facts "
    "written in it.\n"
    "- Non-disclosure / confidentiality agreements: the parties' full names, mutual or unilateral (and who "
    "discloses), the effective date, the governing law, the duration of the obligations.\n"
    "- Privacy policies: the company and the app or service name, the categories of personal data collected "
    "(e.g. location, contacts, health, payment), the jurisdiction or law named (e.g. GDPR, California).\n"
    "- Other contracts: the contract type, the parties' full names, the date, the governing law.\n"
    "Write in the language of the document. Answer with the sentence only: no preamble, no quotes, no markdown."
)
SHORTEN_PROMPT = "That is {length} characters; the limit is {target}. Rewrite it in at most {target} characters."


class SummarizerError(LegalSearchError):
    """The summary endpoint failed; the message says what to check."""


class EndpointUnreachableError(SummarizerError):
    """No answer from the endpoint (connection refused, DNS, timeout)."""


class EndpointHTTPError(SummarizerError):
    """The endpoint answered with an HTTP error status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class MalformedResponseError(SummarizerError):
    """The endpoint answered, but not in the chat/completions format."""


class OpenAICompatibleSummarizer:
    """Summaries by an LLM behind an OpenAI-compatible /chat/completions endpoint.

    Args:
        base_url: e.g. "https://api.openai.com/v1" or "http://localhost:8000/v1".
        model: the model name the endpoint serves.
        api_key: sent as "Authorization: Bearer ..." when given (local servers need none).
        variant: "generic" or "expert" (see the module docstring).
        timeout: seconds per request.
        target / tolerance: the length target; answers are kept within target + tolerance.
        max_input_chars: how much of the document (from its start) the model reads.

    Raises:
        ConfigError: missing base_url or model, unknown variant, bad numbers.
    """

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, variant: str = "generic",
                 timeout: float = 60, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE,
                 max_input_chars: int = 8000):
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"summarizer 'openai' needs base_url=http(s)://host[:port]/v1 (got {base_url!r})")
        if not model:
            raise ConfigError("summarizer 'openai' needs model=<name the endpoint serves>")
        if variant not in VARIANTS:
            raise ConfigError(f"unknown prompt variant {variant!r}; use one of {', '.join(VARIANTS)}")
        if timeout <= 0 or target <= 0 or tolerance < 0 or max_input_chars <= 0:
            raise ConfigError("timeout, target and max_input_chars must be positive, tolerance >= 0")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.variant = variant
        self.timeout = timeout
        self.target = target
        self.tolerance = tolerance
        self.max_input_chars = max_input_chars
        self._api_key = api_key or None

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"OpenAICompatibleSummarizer(base_url={self.base_url!r}, model={self.model!r}, " \
               f"variant={self.variant!r}, api_key={key})"

    def settings_key(self) -> str:
        return (f"openai:{PROMPT_VERSION}:{self.variant}:{self.model}@{self.base_url}:"
                f"{self.target}:{self.tolerance}:{self.max_input_chars}")

    def summarize(self, doc: ParsedDocument) -> str:
        """Ask the model; shorten up to twice; trim as a last resort.

        Raises:
            EndpointUnreachableError, EndpointHTTPError, MalformedResponseError.
        """
        prompt = EXPERT_PROMPT if self.variant == "expert" else GENERIC_PROMPT
        messages = [
            {"role": "system", "content": prompt.format(target=self.target)},
            {"role": "user", "content": self._document_message(doc)},
        ]
        answer = self.complete(messages)
        limit = self.target + self.tolerance
        for smaller in self.retry_targets():
            if len(answer) <= limit:
                break
            log.info("summary of %s is %d characters; asking for %d", doc.meta.doc_id, len(answer), smaller)
            messages = [*messages, {"role": "assistant", "content": answer},
                        {"role": "user", "content": SHORTEN_PROMPT.format(length=len(answer), target=smaller)}]
            answer = self.complete(messages)
        return fit_summary(answer, self.target, self.tolerance)

    def retry_targets(self) -> list[int]:
        """The smaller limits asked for after a too-long answer (150 -> 120, 100)."""
        return [max(20, self.target - 30), max(20, self.target - 50)]

    def complete(self, messages: list[dict]) -> str:
        """One chat/completions request; the answer's text, whitespace-collapsed and unquoted."""
        body = json.dumps({"model": self.model, "messages": messages, "temperature": 0,
                           "max_tokens": max(64, self.target)}).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        url = f"{self.base_url}/chat/completions"
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as e:
            detail = self._redact(e.read()[:300].decode("utf-8", "replace"))
            hint = "check api_key" if e.code in (401, 403) else "check model and base_url" if e.code in (400, 404) \
                else "the server failed; retry later or check its log"
            raise EndpointHTTPError(f"{url} answered HTTP {e.code} {e.reason}: {detail.strip()} ({hint})",
                                    e.code) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            reason = getattr(e, "reason", e)
            raise EndpointUnreachableError(
                f"cannot reach {url} ({reason}); check base_url and that the server is running"
            ) from None
        return self._parse(raw, url)

    def _parse(self, raw: bytes, url: str) -> str:
        try:
            data = json.loads(raw)
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            excerpt = self._redact(raw[:200].decode("utf-8", "replace"))
            raise MalformedResponseError(
                f"{url} did not answer in the chat/completions format (choices[0].message.content): {excerpt!r}"
            ) from None
        if not isinstance(content, str) or not content.strip():
            raise MalformedResponseError(f"{url} answered with an empty message; check the model name")
        text = normalize_space(content)
        for prefix in ("Summary:", "Sommario:", "Riassunto:"):
            text = text.removeprefix(prefix).strip()
        return text.strip("\"'\u201c\u201d`")

    def _document_message(self, doc: ParsedDocument) -> str:
        excerpt = doc.text[: self.max_input_chars]
        message = f"Document name: {document_name(doc)}\n\nDocument text (start):\n{excerpt}"
        if len(doc.text) > self.max_input_chars:
            # The governing-law clause usually sits near the end, past the excerpt.
            law = find_governing_law(doc.text[self.max_input_chars:], doc.meta.language)
            if law:
                message += f"\n\n[Later in the document: {law}]"
        return message

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text
