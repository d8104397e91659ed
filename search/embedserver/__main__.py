"""python -m legalsearch.embedserver --port 8720 --models minilm,e5 (what `legalsearch node start` runs);
--model NAME=SPEC serves your own model too."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from legalsearch.embedserver.app import ServerConfig, run


def main(argv: Sequence[str] | None = None) -> None:
    defaults = ServerConfig()
    p = argparse.ArgumentParser(prog="python -m legalsearch.embedserver",
                                description="legalsearch embedding server: OpenAI-compatible POST /v1/embeddings "
                                            "for OpenSearch ml-commons connectors (docs/engine.md).")
    p.add_argument("--host", default="127.0.0.1", help="bind address (keep it on loopback)")
    p.add_argument("--port", type=int, default=8720)
    p.add_argument("--models", default="minilm", help="comma-separated embedders: minilm,e5")
    p.add_argument("--model", dest="custom", action="append", default=[], metavar="NAME=SPEC",
                   help="serve your own model under NAME (repeatable): a specification such as st:/models/mine, "
                        "onnx:/models/mine or openai:URL?model=M (docs/models.md)")
    p.add_argument("--max-body-bytes", type=int, default=defaults.max_body_bytes)
    p.add_argument("--max-inputs", type=int, default=defaults.max_inputs)
    p.add_argument("--max-input-chars", type=int, default=defaults.max_input_chars)
    p.add_argument("--query-overflow", choices=["error", "truncate"], default=defaults.query_overflow,
                   help="a question over the model's token window")
    p.add_argument("--passage-overflow", choices=["error", "truncate"], default=defaults.passage_overflow,
                   help="a passage over the model's token window")
    p.add_argument("--max-batch", type=int, default=defaults.max_batch)
    p.add_argument("--max-wait-ms", type=float, default=defaults.max_wait_ms)
    p.add_argument("--torch-threads", type=int, default=defaults.torch_threads)
    p.add_argument("--log-level", default="info")
    a = p.parse_args(argv)
    custom = {}
    for item in a.custom:
        name, sep, spec = item.partition("=")
        if not sep or not name.strip() or not spec.strip():
            p.error(f"--model {item!r}: NAME=SPEC expected (e.g. mine=st:/models/mine)")
        custom[name.strip()] = spec.strip()
    names = tuple(m.strip() for m in a.models.split(",") if m.strip())
    config = ServerConfig(
        embedders=names + tuple(n for n in custom if n not in names), custom=custom, max_body_bytes=a.max_body_bytes,
        max_inputs=a.max_inputs, max_input_chars=a.max_input_chars, query_overflow=a.query_overflow,
        passage_overflow=a.passage_overflow, max_batch=a.max_batch, max_wait_ms=a.max_wait_ms,
        torch_threads=a.torch_threads or None)
    run(a.host, a.port, config, a.log_level)


if __name__ == "__main__":
    main()
