#!/usr/bin/env bash
# The A/B load benchmark: bench/load.py on REF and on the working tree, alternately, in one run.
#   bash bench/ab.sh REF [--rounds N] [--write] [-- load.py options]
# Without load.py options: 100 games on 2 server processes, 20 s paced and 15 s flat out per round.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ " $* " != *" -- "* ]]; then
  set -- "$@" -- --games 100 --servers 2 --paced-seconds 20 --flat-seconds 15 --runs 1
fi
exec .venv/bin/python bench/ab.py "$@"
