# Two commands: `make run` (set up, then serve on embedded defaults) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test check install bench clean messages docs

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("pbem needs Python 3.11 or newer; set PYTHON=python3.11") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	FLASK_DEBUG=$${FLASK_DEBUG:-1} $(BIN)/flask --app pbem serve

test: $(STAMP)
	$(BIN)/python -m pytest $(ARGS)

check: $(STAMP)
	$(BIN)/ruff check pbem tests/helpers
	$(BIN)/mypy

# Every sentence marked for translation, for translators (see docs/architecture.md, Languages).
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k phrase -k phrase_n:1,2 --project=pbem --no-location --sort-output \
		-o pbem/locale/messages.pot .

# The documentation site from docs/ (mkdocs.yml) into site/; a broken link fails it.
docs: $(STAMP)
	$(BIN)/python -m mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python -m pbem.games.babel bench

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis site
