"""Writing a benchmark's table into docs/PERFORMANCE.md, between its own markers, keeping the rest."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "PERFORMANCE.md"


def write_section(name: str, body: str) -> None:
    """Replace the `bench:<name>` section (or append it) with `body`."""
    start, end = f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"
    section = f"{start}\n{body.strip()}\n{end}"
    text = DOC.read_text() if DOC.exists() else "# Performance\n"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    DOC.write_text(text)
