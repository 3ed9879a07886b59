"""The alert rules pass promtool, and every series the rules and the dashboard use is one the site exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from infra import metrics
from tests.conftest import REQUIRE_BROWSER

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "ops" / "monitoring" / "alerts.yml"
DASHBOARD = ROOT / "ops" / "monitoring" / "dashboard.json"
SERIES = re.compile(r"\bcatan_[a-z_]+")
HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        message = "promtool is not installed (apt-get install prometheus)"
        if REQUIRE_BROWSER:  # CI (.ci/run) installs it and demands it, as it does the browser
            pytest.fail(message)
        pytest.skip(message)
    return found


def rule_expressions() -> dict[str, str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


def dashboard_expressions() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


def series_in(expression: str) -> set[str]:
    names = set()
    for name in SERIES.findall(expression):
        for part in HISTOGRAM_PARTS:
            if name.endswith(part) and name.removesuffix(part) in metrics.EXPORTED:
                name = name.removesuffix(part)
        names.add(name)
    return names


def test_the_rules_pass_promtool():
    result = subprocess.run([promtool(), "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 7 rules found" in result.stdout


def test_the_alerts_asked_for_are_there():
    assert set(rule_expressions()) == {
        "CatanMoveP99Slow",
        "CatanHttp5xx",
        "CatanMailFailing",
        "CatanMailWaiting",
        "CatanBeatSilent",
        "CatanBotsStalled",
        "CatanQueueGrowing",
    }


def test_every_series_the_rules_and_the_dashboard_use_is_exported():
    used = set()
    for expression in [*rule_expressions().values(), *dashboard_expressions()]:
        found = series_in(expression)
        assert found, expression
        used |= found
    assert used - set(metrics.EXPORTED) == set()
    # The dashboard shows every exported series.
    assert set(metrics.EXPORTED) - set().union(*map(series_in, dashboard_expressions())) == set()
