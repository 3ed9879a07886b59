"""Fixtures for the rules tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules.scenarios as scenarios


@pytest.fixture
def sea_maps(tmp_path: Path, monkeypatch):
    """Install the test maps; returns a function that writes one more."""

    def install(spec: dict) -> str:
        (tmp_path / f"{spec['key']}.json").write_text(json.dumps(spec))
        scenarios.map_keys.cache_clear()
        scenarios.load_map.cache_clear()
        return spec["key"]

    monkeypatch.setattr(scenarios, "MAP_DIR", tmp_path)
    yield install
    scenarios.map_keys.cache_clear()
    scenarios.load_map.cache_clear()
