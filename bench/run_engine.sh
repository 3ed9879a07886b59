#!/usr/bin/env bash
# Build the engine benchmark's environment (.venv-bench: catanatron 3.2.1 from PyPI, never the product's
# dependencies) when it is missing or bench/requirements.txt changed, then run bench/engine.py with the
# arguments given. `rules` is imported from the work tree: nothing of the project is installed.
#   bash bench/run_engine.sh --games 200
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_venv.sh
export BENCH_LAUNCHER="bash bench/run_engine.sh"
exec "$VENV/bin/python" bench/engine.py "$@"
