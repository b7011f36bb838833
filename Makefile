# trickbook: every target installs what it needs into the project virtualenv (.venv).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
DB     ?= data/trickbook.duckdb
PORT   ?= 8501

.PHONY: install demo test test-fast test-long bench fuzz lint browser-deps sample-db clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	$(PY) -m compileall -q -j 0 ingest model scoring sim dashboards trickbook
	$(PY) -m sim.warm
	touch $@

install: $(VENV)/.installed

# The sample leagues (data/samples/) and simulated games, ingested and scored into $(DB).
sample-db: install
	rm -f $(DB) $(DB).wal
	$(VENV)/bin/trickbook ingest data/samples --db $(DB)
	$(VENV)/bin/trickbook simulate --variant greek-prefa --games 40 --deals-per-game 25 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook simulate --variant balkan --games 20 --deals-per-game 20 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook simulate --variant swabian --games 20 --deals-per-game 20 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook simulate --variant russian --games 20 --deals-per-game 40 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook simulate --variant bridge-duplicate --games 4 --deals-per-game 16 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook balance --variant greek-prefa --rules-b data/rules/greek-four-aces-fixed.json --games 200 --deals-per-game 10 --seed 1 --db $(DB)
	$(VENV)/bin/trickbook balance --variant russian --rules-b data/rules/russian-leningrad.json --games 100 --deals-per-game 20 --seed 1 --db $(DB)

demo: sample-db
	$(VENV)/bin/trickbook dashboard --db $(DB) --port $(PORT)

test: install browser-deps
	$(PY) -m pytest -n 2 --dist loadgroup

test-fast: install
	$(PY) -m pytest -n 2 --dist loadgroup -m "not slow and not browser"

# The long mark: the review's invariant on thousands of simulated deals per variant (summed),
# the Player page's raspasy review in the browser, the double-dummy tables and par of all
# 100 deals of DDS's list100.txt, the review's values on its first deals, and that the warm-up
# of make install (sim/warm.py) compiles every kernel.
test-long: install browser-deps
	rm -rf tests/out/invariant
	$(PY) -m pytest -n 2 --dist loadgroup --long -m long tests/sim/review tests/dashboards/test_browser.py tests/scoring/bridge/test_dd.py tests/sim/test_warm.py
	$(PY) -m tests.sim.review.invariant tests/out/invariant

bench: install browser-deps
	$(PY) -m bench

# The mutation fuzzer over real files of every format (tests/ingest/fuzz.py): SEED, MUTANTS.
SEED    ?= 1
MUTANTS ?= 1000
fuzz: install
	$(PY) -m tests.ingest.fuzz --seed $(SEED) --mutants $(MUTANTS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# Debian's Chromium for the browser tests (not downloadable by the test tools here).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
