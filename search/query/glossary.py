"""A bilingual glossary for BM25 across languages: the Italian words of an English question's legal
terms, and the English words of an Italian one ("penalty" -> "penale", "recesso" -> "withdrawal").

A BM25 over Italian text cannot match an English question's words, only its names and numbers,
so the search of another language alone (`routing_cross_language`) ranks that language's passages
by the multilingual k-NN and by those names. `translated` gives the other language's forms of the
question's terms, which that search adds to its BM25 text (`routing_cross_language_glossary`).
So does the search of the one document a question names when that document is in the other
language ("the percentage Tecnoluce owes if it pulls out early", about an Italian contract), with
the first `NAMED_FORMS` forms of each term. Elsewhere the search and routing read the question
as written.

The table (`lexicons/en-it.tsv`: English forms | ... TAB Italian forms | ...) is general legal
vocabulary (contracts, leases, employment, data protection, consumer law, companies, statutes,
procedure, the plain words of legal questions), written from general knowledge by a helper who
read no evaluation question, corpus or result. `Settings.glossary` (LEGALSEARCH_GLOSSARY) names
a file of one's own terms in the same shape, read before it. Pure data: no I/O after the first
load, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from legalsearch.errors import ConfigError

LANGUAGES = ("en", "it")
"""The glossary's two languages, in the order of its columns."""

MAX_TERMS = 40
"""The most words `translated` adds: a long question does not grow past a bounded BM25 clause list."""

NAMED_FORMS = 2
"""For the one document a question names in the other language, the first forms of each term that
BM25 reads ("court" -> "tribunale", "tribunali"): on the dev halves every form moved one question
down a place (a look-alike clause's words), two moved none; the search of another language alone
reads them all."""

_WORD = re.compile(r"[^\W\d_]+")
_LONGEST = 3


def words(text: str) -> list[str]:
    """The lowercase words of `text` (letters only: "dell'inquilino" is "dell", "inquilino")."""
    return _WORD.findall(text.lower())


def parse(lines) -> dict[tuple[str, str], dict[tuple[str, ...], tuple[str, ...]]]:
    """(source, target) -> {a source form as a word tuple: the target forms}, from the table's lines
    (`#` comments and blank lines skipped; a line without two columns is refused)."""
    table: dict[tuple[str, str], dict[tuple[str, ...], tuple[str, ...]]] = {("en", "it"): {}, ("it", "en"): {}}
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 2:
            raise ValueError(f"glossary line {number}: two tab-separated columns expected, got {len(columns)}")
        en, it = ([form.strip() for form in column.split("|") if form.strip()] for column in columns)
        for (source, target), forms, others in ((("en", "it"), en, it), (("it", "en"), it, en)):
            for form in forms:
                key = tuple(words(form))
                if key and len(key) <= _LONGEST:
                    known = table[(source, target)].get(key, ())
                    table[(source, target)][key] = tuple(dict.fromkeys([*known, *others]))
    return table


def shipped_lines() -> list[str]:
    """The lines of the shipped table (lexicons/en-it.tsv)."""
    return resources.files("legalsearch.query").joinpath("lexicons/en-it.tsv").read_text(encoding="utf-8").splitlines()


@lru_cache(maxsize=8)
def _table(extra: str | None = None) -> dict[tuple[str, str], dict[tuple[str, ...], tuple[str, ...]]]:
    """The shipped table, after the lines of the file `extra` (`Settings.glossary`) when given: a
    term in both gets that file's forms first. An unreadable or malformed file is a ConfigError
    that names it (and the line)."""
    if not extra:
        return parse(shipped_lines())
    return parse([*own_lines(extra), *shipped_lines()])


def own_lines(path: str | Path) -> list[str]:
    """The lines of a glossary file of one's own, checked: an unreadable file or a line without two
    columns is a ConfigError that names the file (and the line)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"glossary {path}: cannot be read ({e})") from e
    try:
        parse(lines)
    except ValueError as e:
        raise ConfigError(f"glossary {path}: {e}") from e
    return lines


def load(extra: str | Path | None = None) -> None:
    """Read and check the table with the file `extra` now (a bad file fails at start, not at a search)."""
    _table(str(extra) if extra else None)


def stem(word: str, language: str) -> str:
    """A crude suffix stem, the same for a word's common inflections and for the glossary's forms:
    English "pulls", "pulled", "pulling" -> "pull", "terminated" and "terminate" -> "terminat";
    Italian "contratto", "contratti" -> "contratt". Only a fallback where no form matches as written."""
    if language == "en":
        for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
                word = word[: len(word) - len(suffix)] + keep
                break
        return word[:-1] if word.endswith("e") and len(word) > 3 else word
    if language == "it":
        return word[:-1] if len(word) > 3 and word[-1] in "aeio" else word
    return word


def stemmed(entries: dict[tuple[str, ...], tuple[str, ...]], source: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """`entries` keyed by the stems of their words (`stem`), the forms of keys that share one merged."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for key, forms in entries.items():
        stems = tuple(stem(word, source) for word in key)
        out[stems] = tuple(dict.fromkeys([*out.get(stems, ()), *forms]))
    return out


@lru_cache(maxsize=16)
def _stemmed(source: str, target: str, extra: str | None = None) -> dict[tuple[str, ...], tuple[str, ...]]:
    return stemmed(_table(extra).get((source, target), {}), source)


def translated(question: str, source: str, target: str, table=None, limit: int = MAX_TERMS,
               forms: int | None = None, extra: str | Path | None = None) -> list[str]:
    """The `target`-language words of the glossary terms in `question` (in `source`), longest
    phrase first ("data controller" before "data"), each once, at most `limit`, of each term its
    first `forms` translations (None: all); [] for a pair of languages the glossary does not hold.
    A phrase no form matches as written is matched by its words' stems ("pulls out" -> "pull out").
    `table`: a parsed table instead of the shipped one; `extra`: a file read before the shipped one."""
    extra = str(extra) if extra else None
    entries = (table or _table(extra)).get((source, target))
    if not entries:
        return []
    by_stem = stemmed(entries, source) if table else _stemmed(source, target, extra)
    tokens = words(question)
    stems = [stem(token, source) for token in tokens]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for n in range(min(_LONGEST, len(tokens) - i), 0, -1):
            found = entries.get(tuple(tokens[i:i + n])) or by_stem.get(tuple(stems[i:i + n]))
            if found:
                out.extend(w for form in found[:forms] for w in words(form))
                i += n
                break
        else:
            i += 1
    return list(dict.fromkeys(out))[:limit]
