"""Checks the cross-language gold files against the corpus meta.json files (json only)."""
import glob, json, re, sys
from collections import Counter

BASE = "/work/main/evaluation/gold"
FILES = {"xl-r2-gold.jsonl": ("round2", "x2"), "xl-r3-gold.jsonl": ("round3", "x3")}
KEYS = ["id", "query", "type", "language", "expected", "expected_xrefs", "as_of", "groups",
        "must_not", "notes", "answerable", "split"]
ok = True
seen = set()
for fname, (rnd, prefix) in FILES.items():
    langs = {}
    for m in glob.glob(f"{BASE}/{rnd}/corpus/*.meta.json"):
        meta = json.load(open(m, encoding="utf-8"))
        langs.setdefault(meta["doc_id"], set()).add(meta["language"])
        if meta.get("public") is False:
            langs[meta["doc_id"]].add("PRIVILEGED")
    counts, per_doc = Counter(), Counter()
    for n, line in enumerate(open(fname, encoding="utf-8"), 1):
        def bad(msg):
            global ok
            ok = False
            print(f"{fname}:{n}: {msg}")
        try:
            r = json.loads(line)
        except json.JSONDecodeError as e:
            bad(f"does not parse: {e}"); continue
        if list(r) != KEYS: bad(f"keys/order {list(r)}")
        if r["id"] in seen: bad(f"duplicate id {r['id']}")
        seen.add(r["id"])
        if not re.fullmatch(rf"{prefix}-{r['language']}-\d\d", r["id"]): bad(f"id {r['id']} vs language")
        if r["split"] not in ("dev", "held-out"): bad("split")
        if not r["notes"].startswith("[class:cross-language] "): bad("notes tag")
        if len(r["expected"]) != 1: bad("expected must have one doc")
        for e in r["expected"]:
            d = e["doc_id"]
            if d not in langs: bad(f"unknown doc_id {d}"); continue
            if "PRIVILEGED" in langs[d]: bad(f"privileged doc {d}")
            dl = langs[d] - {"PRIVILEGED"}
            if len(dl) != 1 or r["language"] in dl: bad(f"question {r['language']} vs doc {d} {dl}")
            per_doc[d] += 1
        counts[(r["language"], r["split"])] += 1
    print(fname, dict(sorted(counts.items())))
    for d, c in sorted(per_doc.items()):
        print(f"  {d}: {c}")
        if c > 4: ok = False; print("   >4 questions")
    for k in [("en", "dev"), ("en", "held-out"), ("it", "dev"), ("it", "held-out")]:
        if counts[k] != 5: ok = False; print(f"  count {k} = {counts[k]} != 5")
    unused = sorted(d for d, l in langs.items() if d not in per_doc and "PRIVILEGED" not in l)
    print("  non-privileged docs without a question:", unused or "none")
print("OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
