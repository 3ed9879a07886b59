#!/usr/bin/env bash
# Build .venv-bench (catanatron 3.2.1, benchmark only) when needed, then play our bots against catanatron's
# AlphaBeta or Value bots (bench/vs_catanatron.py) with the arguments given, at the lowest CPU priority.
#   bash bench/run_vs_catanatron.sh --opponent alphabeta --games 100 --time-limit 0.1 --jobs 2
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${BENCH_VENV:-.venv-bench}"
STAMP="$VENV/.requirements.txt"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! cmp -s bench/requirements.txt "$STAMP"; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
  cp bench/requirements.txt "$STAMP"
fi
exec nice -n 19 "$VENV/bin/python" bench/vs_catanatron.py "$@"
