# Two commands for a newcomer: `make run` (the site, with demo bots) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run` serves the site as players see it (its own 404 and 500 pages, no debug page listing every URL);
# `make run DEBUG=true` shows Django's debug pages. The key below is for a machine's own `make run` only.
# Its `django-insecure-` prefix makes `check --deploy` warn (security.W009) if it ever reaches production.
DEBUG ?= false
SITE_ENV := DEBUG=$(DEBUG) SECRET_KEY="$${SECRET_KEY:-django-insecure-make-run-development-key-for-this-machine-only}" \
	SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false SECURE_HSTS_SECONDS=0

.PHONY: run test lint install migrate messages bench bench-bots clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(SITE_ENV) $(BIN)/python manage.py migrate --noinput
	$(SITE_ENV) $(BIN)/python manage.py ensure_demo
	$(SITE_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0

run: migrate
	@echo "Catan on http://$(HOST):$(PORT)/  (log in as demo / demo; admin / admin for moderation)"
	$(SITE_ENV) $(BIN)/python -m catan_site.serve --host $(HOST) --port $(PORT)

# `make test` runs against this machine's PostgreSQL and Redis when they answer on their usual ports (the URLs
# CI sets); DATABASE_URL and REDIS_URL, when set, win. Without the services it falls back to SQLite and local
# memory, which the suite does not support (README).
PORT_OPEN = $(BIN)/python -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)"

test: install
	@if [ -z "$$DATABASE_URL" ] && $(PORT_OPEN) 5432 2>/dev/null; then \
	  export DATABASE_URL=postgres://postgres@127.0.0.1:5432/test; fi; \
	if [ -z "$$REDIS_URL" ] && $(PORT_OPEN) 6379 2>/dev/null; then export REDIS_URL=redis://127.0.0.1:6379/0; fi; \
	echo "tests on $${DATABASE_URL:-SQLite} and $${REDIS_URL:-local memory}"; \
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .

# Refresh locale/fr from the templates and code, then compile it; needs GNU gettext (apt-get install gettext).
# The compiled .mo is committed so that `make run` needs no gettext.
messages: install
	$(BIN)/python manage.py makemessages -l fr --add-location file --no-obsolete \
		--ignore rules --ignore bench --ignore tests --ignore static --ignore staticfiles --ignore test-artifacts
	$(BIN)/python manage.py makemessages -d djangojs -l fr --add-location file --no-obsolete \
		--ignore staticfiles --ignore test-artifacts --ignore node_modules
	$(BIN)/python manage.py compilemessages -l fr --ignore '.venv*'

bench: install
	bash bench/run_engine.sh

clean:
	rm -rf $(VENV) .venv-bench staticfiles db.sqlite3
