# Two commands: `make run` (set up, then serve on embedded defaults) and `make test`.
# `make run` installs what serving needs; `make test` and `make check` add the development
# tools (pytest, playwright, mypy, ruff: the `dev` extra) to the same .venv.
PYTHON ?= python3
PORT   ?= 5000
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test check install bench clean messages docs

$(RUN_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("pbem needs Python 3.11 or newer; set PYTHON=python3.11") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(DEV_STAMP)

install: $(DEV_STAMP)

# `make run PORT=5100` serves there, and the links in mails name that port (BASE_URL follows
# PORT unless it is set).
run: $(RUN_STAMP)
	FLASK_DEBUG=$${FLASK_DEBUG:-1} BASE_URL=$${BASE_URL:-http://127.0.0.1:$(PORT)} $(BIN)/flask --app pbem serve --port $(PORT)

# The suite runs on JOBS processes (pytest-xdist; most tests wait on servers, browsers and
# subprocesses, so 4 beat 2 on a 2-core machine), then the tests marked `serial` (real worker
# processes timed against each other: tests/production) alone. ARGS go to both passes; a pass
# that selects nothing (exit code 5) is not a failure.
JOBS ?= 4
test: $(DEV_STAMP)
	$(BIN)/python -m pytest -n $(JOBS) -m "not serial" $(ARGS) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -p no:xdist -m serial $(ARGS) || [ $$? -eq 5 ]

check: $(DEV_STAMP)
	$(BIN)/ruff check pbem tests
	$(BIN)/mypy

# Every sentence marked for translation, for translators (see docs/architecture.md, Languages).
messages: $(RUN_STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k phrase -k phrase_n:1,2 --project=pbem --no-location --sort-output \
		-o pbem/locale/messages.pot .

# The documentation site from docs/ (mkdocs.yml) into site/; a broken link fails it.
docs: $(DEV_STAMP)
	$(BIN)/python -m mkdocs build --strict --site-dir site

bench: $(RUN_STAMP)
	$(BIN)/python -m pbem.games.babel bench

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis site
