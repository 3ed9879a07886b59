"""games/ knows nothing of the apps that come after the game: ratings/ listens to games' signal, replays/ reads
games' rows, and neither is imported by games/ (nor by accounts/ or rules/)."""

from __future__ import annotations

import pytest

from tests.test_architecture import _imports, _sources


@pytest.mark.parametrize("package", ["games", "accounts", "rules"])
def test_nothing_before_the_game_imports_replays_or_ratings(package):
    offenders = [
        (module, name)
        for module, path in _sources(package).items()
        for name, _node, _in_function in _imports(module, path)
        if name.split(".")[0] in ("replays", "ratings")
    ]
    assert offenders == []
