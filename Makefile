# Every target sets up .venv itself, so each works as the first command on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST := $(PY) -m pytest -p no:cacheprovider

.PHONY: run test test-fast test-ui test-e2e lint bench eval clean desktop desktop-build

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,postgres,scale]'
	touch $(STAMP)

DESKTOP_STAMP := $(VENV)/.installed-desktop
$(DESKTOP_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[desktop,desktop-build]'
	touch $(DESKTOP_STAMP)

desktop: $(DESKTOP_STAMP)
	$(VENV)/bin/memory-review desktop $(ARGS)

# The packaged app for Linux: dist/memory-review-desktop/memory-review-desktop (about a minute).
desktop-build: $(DESKTOP_STAMP)
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/desktop packaging/desktop.spec

run: $(STAMP)
	$(VENV)/bin/memory-review serve --demo

test: $(STAMP) $(DESKTOP_STAMP) tests/e2e/node_modules/axe-core/axe.min.js
	$(PYTEST) tests/unit tests/integration -q -n 2 --dist worksteal
	$(PYTEST) tests/ui -q -n 2
	$(PYTEST) tests/api -q -n 2
	$(PYTEST) tests/e2e -q -n 2 --dist worksteal
	$(PYTEST) tests/scale tests/desktop -q -n 2 --dist loadgroup

test-fast: $(STAMP)
	$(PYTEST) tests/unit tests/integration -q -n 2

tests/e2e/node_modules/axe-core/axe.min.js:
	cd tests/e2e && npm ci --silent --no-audit --no-fund >/dev/null

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) -m tests.perf.run_all $(ARGS) $(ONLY)

# Extraction quality per memory type on the development and blind sets, throughput, the dev set's worst misses.
eval: $(STAMP)
	$(PY) -m tests.extraction_eval $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
