# Two commands for a newcomer: `make run` (the site, with demo bots) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install migrate messages bench bench-bots clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo

run: migrate
	@echo "Catan on http://$(HOST):$(PORT)/  (log in as demo / demo; admin / admin for moderation)"
	$(BIN)/python -m catan_site.serve --host $(HOST) --port $(PORT)

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .

# Refresh locale/fr from the templates and code, then compile it; needs GNU gettext (apt-get install gettext).
# The compiled .mo is committed so that `make run` needs no gettext.
messages: install
	$(BIN)/python manage.py makemessages -l fr --add-location file --no-obsolete \
		--ignore rules --ignore bench --ignore tests --ignore static --ignore staticfiles --ignore test-artifacts
	$(BIN)/python manage.py compilemessages -l fr --ignore '.venv*'

bench: install
	bash bench/run_engine.sh

clean:
	rm -rf $(VENV) .venv-bench staticfiles db.sqlite3
