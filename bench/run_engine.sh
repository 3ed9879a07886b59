#!/usr/bin/env bash
# Build the bench environment (catanatron from PyPI) if needed, then run the engine benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-bench/bin/python ]; then
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install --quiet -r bench/requirements.txt
fi
exec .venv-bench/bin/python bench/engine.py "$@"
