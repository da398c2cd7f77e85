# Every target sets up .venv itself, so each works as the first command on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST := $(PY) -m pytest -p no:cacheprovider

.PHONY: run test test-fast test-ui test-e2e lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,postgres,scale]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/memory-review serve --demo

test: $(STAMP) tests/e2e/node_modules/axe-core/axe.min.js
	$(PYTEST) tests/unit tests/integration -q
	$(PYTEST) tests/ui -q
	$(PYTEST) tests/api -q
	$(PYTEST) tests/e2e -q
	$(PYTEST) tests/scale -q

test-fast: $(STAMP)
	$(PYTEST) tests/unit tests/integration -q

tests/e2e/node_modules/axe-core/axe.min.js:
	cd tests/e2e && npm ci --silent --no-audit --no-fund >/dev/null

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) -m tests.perf.run_all $(ARGS) $(ONLY)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
