# repro_assets: `make demo`, `make test`, `make ui` on a fresh machine with Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.installed
export HF_HUB_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: setup demo test test-slow test-reliability ui api lint bench clean-data code-server check-defs

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required (python3.11 not found); set PYTHON=..."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# torch (CPU) first, so no other dependency pulls a multi-GB CUDA build.
$(STAMP): $(PY) pyproject.toml
	$(PIP) install --quiet "torch==2.13.0"
	$(PIP) install --quiet -e ".[dev]"
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

# .env (DAGSTER_HOME, REPRO_HOME): plain `dagster dev`, `dagster-daemon run`, `dg ...` run from
# this folder use the project's instance, like `repro-assets`.
setup: $(STAMP)
	@$(VENV)/bin/repro-assets init

demo: setup
	$(VENV)/bin/repro-assets demo

# The suite without the few slow end-to-end cases (subprocess dagster/dg commands, the CLI
# workflows against a local LLM server, notebooks on real data): they run in `make test-slow`,
# which .ci/run calls too, so `make test` stays well under 15 minutes on 2 cores.
test: setup
	$(PY) -m pytest -q -p no:cacheprovider -m "not slow and not reliability"

test-slow: setup
	$(PY) -m pytest -q -p no:cacheprovider -m "slow and not reliability"

# Fault tests (issue #17): kill -9 mid-run, Postgres restarted mid-ingest, an inbox flood, a real
# S3 API (moto server). Marked `reliability`, left out of `make test`; .ci/run calls this too.
test-reliability: setup
	$(PY) -m pytest -q -p no:cacheprovider -m reliability tests/reliability

ui: setup
	$(VENV)/bin/repro-assets ui

api: setup
	$(VENV)/bin/repro-assets api

# gRPC code server for another team's workspace (their workspace.yaml: grpc_server, port 4000).
CODE_SERVER_HOST ?= 0.0.0.0
CODE_SERVER_PORT ?= 4000
code-server: setup
	$(VENV)/bin/dagster code-server start -m repro_assets.definitions -h $(CODE_SERVER_HOST) -p $(CODE_SERVER_PORT)

# Dagster's own check of the code location (CI runs it on a throwaway Postgres).
check-defs: setup
	$(VENV)/bin/dg check defs

lint: setup
	$(VENV)/bin/ruff check repro_assets tests benchmarks
	$(VENV)/bin/mypy repro_assets

bench: setup
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/forms.py
	$(PY) benchmarks/notebook.py

clean-data:
	rm -rf data/.pg data/blobs data/runs data/.dagster
	@if [ -x $(VENV)/bin/repro-assets ]; then $(VENV)/bin/repro-assets init; fi
