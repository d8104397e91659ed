"""Check the round-8 cross-language gold files. Standard library `json` (and `re`/`os`) only.

Reads the *.meta.json files of corpus S (samples/corpus) and corpus R (evaluation/gold/round4/corpus) to
check doc_ids, languages and eligibility. Prints OK when every check passes, else the problems and exit 1.

    python evaluation/gold/round8-crosslang/tools/check_gold.py
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOLD_DIR = os.path.dirname(HERE)
REPO = os.path.abspath(os.path.join(GOLD_DIR, "..", "..", ".."))

FILES = {
    "xl-sample-gold.jsonl": ("x8s", os.path.join(REPO, "samples", "corpus")),
    "xl-r4-gold.jsonl": ("x8r", os.path.join(REPO, "evaluation", "gold", "round4", "corpus")),
}
KEYS = ["id", "query", "type", "language", "expected", "expected_xrefs", "as_of", "groups", "must_not",
        "notes", "answerable", "split"]
TAG = "[class:cross-language] "
MAX_PER_DOC = 5

# Names that identify a document (parties, products, places, authorities, titles). Checked case-insensitively,
# on word boundaries, in every query, on top of each document's doc_id, file stem, title and parties.
NAMES = [
    "acme", "northwind", "globex", "initech", "umbrella", "beta servizi", "beta-acme", "fornitore industriale",
    "lombardo", "milano", "milan", "bergamo", "torino", "turin", "sesto san giovanni", "london", "londra",
    "bristol", "leeds", "dublin", "dublino", "ireland", "irlanda", "irish", "irlandese", "new york", "delaware",
    "texas", "austin", "whitfield", "okafor", "scorpio", "lumbergh", "ashford", "housing act",
    "ortivivi", "verdecomune", "valdaria", "forlì", "cesena", "via del mulino", "parco fornace", "san rocco",
    "aurelia", "aurelian", "harrowgate", "fennick", "westmoor", "treloar", "quay steps", "federal aviation",
    "faa", "title 58", "upper tribunal", "lands chamber", "first-tier", "interpretation act", "istat",
    "bank of england", "garante", "information commissioner", "secretary of state", "penhallow",
    "england", "inghilterra", "visitor accommodation act", "refurbished", "ricondizionat",
]
# References to provisions, instrument numbers and years.
REFS = re.compile(
    r"\b(art\.|artt\.|article|articolo|articoli|section|sezione|clause|clausola|comma|paragraph|paragrafo|"
    r"schedule|allegato|annex|ground\s+\d|regulation\s+\d|regolamento\s+\(|s\.\s*\d|reg\.\s*\d|sch\.)"
    r"|§|\b(19|20)\d\d\b|\b\d+/\d+\b|\bn\.\s*\d",
    re.IGNORECASE)
STOP = {
    "en": {"the", "is", "are", "what", "how", "can", "my", "our", "we", "and", "does", "do", "of", "to", "for",
           "if", "i", "it", "a"},
    "it": {"il", "la", "le", "di", "che", "per", "un", "una", "e", "è", "non", "mi", "ci", "da", "con", "quali",
           "quale", "posso", "possiamo", "nostro", "nostra", "del", "della", "si"},
}


def load_corpus(folder):
    """doc_id -> {"languages", "eligible", "why", "names"} from the folder's *.meta.json files."""
    docs = {}
    families = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".meta.json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            meta = json.load(f)
        stem = name[: -len(".meta.json")]
        doc_id = meta["doc_id"]
        d = docs.setdefault(doc_id, {"languages": set(), "eligible": True, "why": [], "names": set()})
        d["languages"].add(meta.get("language"))
        d["names"].update({doc_id.lower(), stem.lower(), (meta.get("title") or "").lower()})
        d["names"].update(p.lower() for p in meta.get("parties") or [])
        tags = meta.get("tags") or []
        if meta.get("public") is False or meta.get("acl") or "privileged" in tags \
                or "privileged" in (meta.get("doc_type") or "") or "privileged" in stem:
            d["eligible"] = False
            d["why"].append(f"{stem}: privileged / not public")
        if not os.path.exists(os.path.join(folder, stem + ".txt")):
            d["eligible"] = False
            d["why"].append(f"{stem}: no plain-text file (scanned or other format)")
        for t in tags:
            if t.startswith("family:"):
                families.setdefault(t, set()).add(doc_id)
    for fam, ids in families.items():
        if len(ids) > 1:  # the same text in several languages: answered in both, so no questions
            for doc_id in ids:
                docs[doc_id]["eligible"] = False
                docs[doc_id]["why"].append(f"{doc_id}: one of the language versions of {fam}")
    return docs


def check_file(fname, prefix, folder, problems):
    path = os.path.join(GOLD_DIR, fname)
    docs = load_corpus(folder)
    wanted = {f"{prefix}-{lang}-{n:02d}" for lang in ("en", "it") for n in range(1, 11)}
    seen = set()
    per_doc = {}
    splits = {("en", "dev"): 0, ("en", "held-out"): 0, ("it", "dev"): 0, ("it", "held-out"): 0}
    queries = set()

    def bad(qid, msg):
        problems.append(f"{fname}: {qid}: {msg}")

    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    for lineno, line in enumerate(lines, start=1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            problems.append(f"{fname}:{lineno}: not JSON: {e}")
            continue
        qid = obj.get("id", f"line {lineno}")
        if list(obj.keys()) != KEYS:
            bad(qid, f"keys {list(obj.keys())} != {KEYS}")
            continue
        if qid in seen:
            bad(qid, "duplicate id")
        seen.add(qid)
        if qid not in wanted:
            bad(qid, "unexpected id")
        lang = obj["language"]
        if lang not in ("en", "it"):
            bad(qid, f"language {lang!r}")
            continue
        if not qid.startswith(f"{prefix}-{lang}-"):
            bad(qid, f"id does not match language {lang}")
        if obj["type"] != "conceptual":
            bad(qid, "type is not conceptual")
        if obj["expected_xrefs"] != [] or obj["as_of"] is not None or obj["groups"] != [] or obj["must_not"] != []:
            bad(qid, "expected_xrefs / as_of / groups / must_not must be [] / null / [] / []")
        if obj["answerable"] is not True:
            bad(qid, "answerable must be true")
        if obj["split"] not in ("dev", "held-out"):
            bad(qid, f"split {obj['split']!r}")
        exp = obj["expected"]
        if not (isinstance(exp, list) and len(exp) == 1 and isinstance(exp[0], dict) and list(exp[0]) == ["doc_id"]):
            bad(qid, f"expected must be one {{'doc_id': ...}} object, got {exp!r}")
            continue
        doc_id = exp[0]["doc_id"]
        doc = docs.get(doc_id)
        if doc is None:
            bad(qid, f"unknown doc_id {doc_id!r} in {folder}")
            continue
        if not doc["eligible"]:
            bad(qid, f"doc {doc_id} is not eligible: {'; '.join(doc['why'])}")
        if len(doc["languages"]) != 1:
            bad(qid, f"doc {doc_id} has several languages {doc['languages']}")
        doc_lang = next(iter(doc["languages"]))
        if doc_lang == lang:
            bad(qid, f"question and document are both {lang}: not cross-language")
        notes = obj["notes"] or ""
        if not notes.startswith(TAG):
            bad(qid, f"notes must start with {TAG!r}")
        if f"{doc_id} ({doc_lang}" not in notes:
            bad(qid, f"notes must name the document and its language: '{doc_id} ({doc_lang}'")
        query = obj["query"]
        if not isinstance(query, str) or len(query.strip()) < 15:
            bad(qid, "query missing or too short")
            continue
        if query in queries:
            bad(qid, "duplicate query")
        queries.add(query)
        low = query.lower()
        names = set(NAMES)
        for d in docs.values():
            names |= {n for n in d["names"] if n}
        for n in sorted(names):
            if re.search(r"(?<![\w])" + re.escape(n) + r"(?![\w])", low) or (len(n) > 20 and n in low):
                bad(qid, f"query names a document: {n!r}")
        m = REFS.search(query)
        if m:
            bad(qid, f"query cites a provision / number / year: {m.group(0)!r}")
        words = re.findall(r"[\wàèéìòù']+", low)
        hits = {w: sum(1 for x in words if x in STOP[w]) for w in STOP}
        other = "it" if lang == "en" else "en"
        if hits[lang] < 2 or hits[lang] <= hits[other]:
            bad(qid, f"query does not read as {lang} (stopwords {hits})")
        per_doc.setdefault(doc_id, []).append((qid, obj["split"]))
        splits[(lang, obj["split"])] = splits.get((lang, obj["split"]), 0) + 1

    missing = wanted - seen
    if missing:
        problems.append(f"{fname}: missing ids {sorted(missing)}")
    for key, n in sorted(splits.items()):
        if n != 5:
            problems.append(f"{fname}: {key[0]} {key[1]}: {n} items, want 5")
    for doc_id, rows in per_doc.items():
        if len(rows) > MAX_PER_DOC:
            problems.append(f"{fname}: {doc_id} has {len(rows)} questions (max {MAX_PER_DOC})")
        for (a, sa), (b, sb) in zip(rows, rows[1:], strict=False):
            if sa == sb:
                problems.append(f"{fname}: {doc_id}: {a} and {b} are both {sa} (splits must alternate)")
    return per_doc, splits


def main():
    problems = []
    for fname, (prefix, folder) in FILES.items():
        check_file(fname, prefix, folder, problems)
    if problems:
        for p in problems:
            print("FAIL", p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
