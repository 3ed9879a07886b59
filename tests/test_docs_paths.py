"""The docs name files that exist: every path under one of the project's folders that docs/*.md, the README and
bench/README.md mention (a file, a folder, or a pattern with `*`) is found in the tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The project's folders; not those the tests and the site write (they name files that exist only after a run).
GENERATED = {"docs", "test-artifacts", "staticfiles", "node_modules"}
FOLDERS = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name[0] != "." and p.name not in GENERATED)
DOCS = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md", ROOT / "bench" / "README.md"])
# Not paths: units written like one ("games/s", a rate).
UNITS = {"games/s"}
FOLDER = "|".join(map(re.escape, FOLDERS))
PATH = re.compile(rf"(?<![\w/.<-])((?:{FOLDER})/[\w./*-]*[\w*])")


def named_paths(text: str) -> list[str]:
    return [m.group(1) for m in PATH.finditer(text) if m.group(1) not in UNITS and "<" not in m.group(1)]


def test_the_scan_finds_the_paths_architecture_names():
    names = named_paths((ROOT / "docs" / "ARCHITECTURE.md").read_text())
    assert {"games/store/move_sql.py", "infra/realtime/layers.py", "devstack/embedded.py"} <= set(names)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc):
    missing = [
        name
        for name in named_paths(doc.read_text())
        if not (list(ROOT.glob(name)) if "*" in name else (ROOT / name).exists())
    ]
    assert missing == []
