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

.PHONY: run fleet test lint install messages bench clean

# uv (from PyPI) installs the same packages as pip, in a third of the time (23 s against 57 s on a fresh clone,
# bytecode compiled as pip does); pip does it where uv cannot be installed or cannot reach the index.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	($(BIN)/pip install --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[dev]') \
		|| ($(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[dev]')
	touch $(STAMP)

install: $(STAMP)

# The site as deployed, small: web server, Celery worker and beat, inbound mail handler and a local mail catcher
# under honcho (Procfile), on PostgreSQL and Redis of its own (data kept in .venv/local) unless DATABASE_URL /
# REDIS_URL name yours. Ctrl-C stops everything it started.
run: install
	$(SITE_ENV) $(BIN)/python -m devstack.local run --host $(HOST) --port $(PORT)

# The deployed topology on one machine (devstack/fleet.py): HAProxy over WEB web nodes, PgBouncer in transaction
# mode, Redis by role (the channel layer on two), WORKERS Celery workers and one beat. Needs Debian's haproxy and
# pgbouncer (apt-get install -y haproxy pgbouncer). Ctrl-C stops everything; `.venv/bin/python -m devstack.fleet
# restart` drains and restarts the web nodes one at a time.
WEB ?= 3
WORKERS ?= 2
fleet: install
	$(SITE_ENV) $(BIN)/python -m devstack.fleet run --web $(WEB) --workers $(WORKERS) --port $(PORT)

# The whole suite on throwaway PostgreSQL and Redis (a temporary folder, removed after), unless DATABASE_URL /
# REDIS_URL name yours, in TEST_WORKERS processes (pytest-xdist; each its own database and Redis database; a
# worker that runs out of tests takes some from the other). PYTEST_ARGS passes options on, e.g.
# make test TEST_WORKERS=0 PYTEST_ARGS="-x tests/rules".
TEST_WORKERS ?= 2
PYTEST_ARGS ?=
test: install
	$(BIN)/python -m devstack.local test -- $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=15 $(PYTEST_ARGS)

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
	rm -rf $(VENV) .venv-bench staticfiles db.sqlite3 test-artifacts
