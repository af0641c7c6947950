# Two entry points for a fresh machine: `make demo` and `make test`.
# The venv is built once (stamp file); torch is pinned first so no CUDA build is pulled in.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/hiddendeck demo

test: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(VENV)/bin/hiddendeck bench amongus

clean:
	rm -rf $(VENV) $${XDG_CACHE_HOME:-$$HOME/.cache}/hiddendeck
