"""The engine is pure Python: no Django anywhere in rules/, and its command-line tools run."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_rules_imports_nothing_from_django():
    offenders = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"django", "channels", "celery"}]
    assert offenders == []


def test_importing_rules_loads_no_django_module():
    code = "import sys, rules; rules.new_game(seed=1); print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=RULES.parent)
    assert out.stdout.strip() == "False"


def test_simulate_prints_throughput_and_wins():
    out = subprocess.run(
        [sys.executable, "-m", "rules.tools.simulate", "--games", "3", "--players", "4", "--seed", "5"],
        capture_output=True,
        text=True,
        check=True,
        cwd=RULES.parent,
    ).stdout
    for label in ("games/s", "actions/game", "turns/game", "wins by seat", "unfinished      0"):
        assert label in out
