#!/usr/bin/env bash
# Build .venv-bench (catanatron 3.2.1, benchmark only) when needed, then play our bots against catanatron's
# AlphaBeta or Value bots (bench/vs_catanatron.py) with the arguments given, at the lowest CPU priority.
#   bash bench/run_vs_catanatron.sh --opponent alphabeta --games 100 --time-limit 0.1 --jobs 2
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_venv.sh
exec nice -n 19 "$VENV/bin/python" bench/vs_catanatron.py "$@"
