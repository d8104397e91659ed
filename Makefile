# Two commands do all the set-up on a fresh machine:
#   make demo   virtualenv + dependencies + OCR tools + local OpenSearch node, then the demo
#   make test   the same set-up, then the whole test suite against the real node
# OPENSEARCH_URL=http://host:9200 uses that node (or cluster) instead of the local one.

SHELL := /bin/bash
PYTHON ?= python3
# The virtualenv is cached outside the clone, keyed by the pinned dependency set, so CI and
# re-runs do not reinstall torch: a change to requirements.lock makes a new one (the project
# itself is re-linked into it on every run).
DEPS_HASH := $(shell sha256sum requirements.lock | cut -c1-12)
VENV ?= $(HOME)/.cache/legalsearch/venv-$(DEPS_HASH)
BIN := $(VENV)/bin
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
PYTEST_ARGS ?=

.PHONY: help venv system-deps node models infinity demo test test-cluster unit lint clean-venv

help:
	@echo "make demo   set up everything, start a local node, ingest samples/corpus, run example queries"
	@echo "make test   set up everything, run unit + integration tests against a real node"
	@echo "make test-cluster   only the three-node cluster tests (faults, reindex swap, same answers; ~5 min)"
	@echo "make unit   unit tests only (no node)"
	@echo "make lint   ruff + the import layering contracts (lint-imports)"

$(VENV)/.ready: requirements.lock
	@echo "==> virtualenv $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip setuptools wheel
	$(BIN)/pip install -q -r requirements.lock
	touch $@

venv: $(VENV)/.ready
	@# The project itself is (re)linked on every run: it is cheap and the clone may have moved.
	@$(BIN)/pip install -q --no-deps --no-build-isolation -e . >/dev/null

system-deps:
	@command -v tesseract >/dev/null && command -v pdftoppm >/dev/null \
	  && tesseract --list-langs 2>/dev/null | grep -q '^ita$$' \
	  || { echo "==> installing tesseract-ocr (eng, ita) and poppler-utils"; \
	       $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q \
	         tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita poppler-utils >/dev/null \
	       || { $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -q >/dev/null && \
	            $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q \
	              tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita poppler-utils >/dev/null; }; }
	@# the browser tests (tests/integration/test_web_page.py) drive Debian's Chromium through Playwright
	@command -v chromium >/dev/null \
	  || { echo "==> installing chromium (the browser tests)"; \
	       $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q chromium >/dev/null \
	       || { $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -q >/dev/null && \
	            $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q chromium >/dev/null; }; }

node: venv
	@if [ -n "$$OPENSEARCH_URL" ]; then echo "==> using OPENSEARCH_URL=$$OPENSEARCH_URL"; \
	 else $(BIN)/legalsearch node start; fi

# The ONNX Runtime builds (`minilm-onnx`, tested by the suite): exported once from the shipped weights
# (~30 s, cached under ~/.cache/legalsearch/onnx; a re-run checks and returns at once).
models: venv
	@$(BIN)/legalsearch models export

demo: venv system-deps node models
	$(BIN)/legalsearch demo

# infinity-emb, the third-party embedding server tests/integration/test_own_models.py ingests through: its
# pins clash with ours (transformers < 5, sentence-transformers < 4), so it lives in a folder of its own,
# cached under ~/.cache, loaded by that test's subprocess alone (docs/models.md)
INFINITY_SITE ?= $(HOME)/.cache/legalsearch/infinity-0.0.78
INFINITY_PINS := infinity-emb==0.0.78 prometheus-fastapi-instrumentator==8.1.0 prometheus-client==0.26.0 \
  posthog==7.91.1 httptools==0.9.0 uvloop==0.23.0 transformers==4.57.1 huggingface_hub==0.36.0 \
  sentence-transformers==3.4.1 tokenizers==0.22.1

$(INFINITY_SITE)/.ready: | venv
	@echo "==> infinity-emb (its own folder: $(INFINITY_SITE))"
	$(BIN)/pip install -q --no-deps --target $(INFINITY_SITE) $(INFINITY_PINS)
	touch $@

infinity: $(INFINITY_SITE)/.ready

# --durations=30: the slowest tests close the log, to keep `make test` under 15 minutes on a clean clone
test: venv system-deps node models infinity lint
	LEGALSEARCH_INFINITY_PYTHONPATH=$(INFINITY_SITE) $(BIN)/python -m pytest -v --durations=30 $(PYTEST_ARGS)

# The cluster tests start their own secured three-node cluster (tests/integration/cluster); `make test`
# runs them too (PYTEST_ARGS='-m "not cluster"' leaves them out).
test-cluster: venv models
	$(BIN)/python -m pytest -v -m cluster $(PYTEST_ARGS)

unit: venv
	$(BIN)/python -m pytest -v -m "not integration" $(PYTEST_ARGS)

# ruff, then the layering contracts of pyproject.toml (import-linter): a violation fails the build.
lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo

clean-venv:
	rm -rf $(VENV)
