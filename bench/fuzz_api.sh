#!/usr/bin/env bash
# schemathesis against the site as production runs it, by hand (issue 30's acceptance runs):
#   bash bench/fuzz_api.sh SEED [SEED ...]
# Starts embedded PostgreSQL and Redis (devstack.local), migrates, makes a player seated in a running game, a
# moderator and a superuser with API tokens, serves the site with `python -m catan_site.serve` (DEBUG off, the
# per-user limits raised), and runs `st run --checks all -n 40` per seed as each of them and anonymously. Prints
# each run's summary line; the whole reports go to /tmp/catan-fuzz-<seed>-<role>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bash bench/fuzz_api.sh SEED [SEED ...]" >&2; exit 2; }
exec .venv/bin/python -m devstack.local test -- bash bench/fuzz_api_inner.sh "$@"
