# Two entry points for a fresh machine: `make demo` and `make test`.
# The venv is built once (stamp file); torch is pinned first so no CUDA build is pulled in.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The outside-library examples (RLlib, TorchRL, Tianshou) get a venv of their own: RLlib pins an
# older gymnasium than the main install. `make test` runs them there too (about 50 s more of
# install on a warm pip cache; each example trains until it beats a random crew: 80-280 s of
# wall each on the 2-core machine at load average 15-19, 2026-12-07).
IVENV := .venv-integrations
IPY := $(IVENV)/bin/python
ISTAMP := $(IVENV)/.installed

.PHONY: setup demo test test-integrations bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[dev,web-tests]"
	touch $(STAMP)

$(ISTAMP): pyproject.toml
	$(PYTHON) -m venv $(IVENV)
	$(IPY) -m pip install -q --upgrade pip
	$(IPY) -m pip install -q torch==2.13.0
	$(IPY) -m pip install -q -e ".[dev,integrations]"
	touch $(ISTAMP)

demo: $(STAMP)
	$(VENV)/bin/hiddendeck demo

# --durations: the slowest tests close every run, so the suite's time can be kept in check
# (issue 45: at most 12 minutes on an idle 2-core machine). -n auto: one pytest-xdist worker a
# core (at most 4: each compiles the games it meets once, into the shared numba cache);
# --dist loadfile keeps a file's tests, and so its module fixtures, on one worker.
# PYTEST_ARGS="-n 0" runs in one process. tests.warm first compiles each game into numba's cache,
# one process a game side by side, so the workers do not each compile the same engines at once.
test: $(STAMP) test-integrations
	$(PY) -m tests.warm
	$(PY) -m pytest -q -n auto --maxprocesses 4 --dist loadfile --durations=25 $(PYTEST_ARGS)

test-integrations: $(ISTAMP)
	$(IPY) -m pytest -q tests/test_examples.py tests/test_pettingzoo_conventions.py

bench: $(STAMP)
	$(VENV)/bin/hiddendeck bench amongus

clean:
	rm -rf $(VENV) $(IVENV) $${XDG_CACHE_HOME:-$$HOME/.cache}/hiddendeck
