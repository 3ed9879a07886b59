# Sourced by bench/run_engine.sh and bench/run_vs_catanatron.sh: build the benchmarks' own environment
# (.venv-bench, or $BENCH_VENV: catanatron and what bench/requirements.txt lists, never the site's dependencies)
# when it is missing or the requirements changed, and leave its path in $VENV. The project is imported from the
# work tree, not installed.
VENV="${BENCH_VENV:-.venv-bench}"
STAMP="$VENV/.requirements.txt"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! cmp -s bench/requirements.txt "$STAMP"; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
  cp bench/requirements.txt "$STAMP"
fi
