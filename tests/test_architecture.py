"""The walls of the house, read from the source: which package may import which, no import circle inside games/,
and no function-level import without a comment saying why. (rules/ never importing Django is
tests/rules/test_engine_purity.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The entry points of games/: what the web server, the worker and the admin load. Nothing else inside games/
# imports them: after-commit work goes through the outbox by task name.
ENTRY_POINTS = {
    "games.tasks",
    "games.consumers",
    "games.views",
    "games.api.views",
    "games.api.urls",
    "games.urls",
    "games.routing",
    "games.admin",
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources(package: str) -> dict[str, Path]:
    return {
        _module_name(path): path
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and "management" not in path.parts
    }


def _imports(module: str, path: Path) -> list[tuple[str, ast.AST, bool]]:
    """(imported module, node, at function level) for every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((alias.name, child, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package.split(".")
                    parent = parent[: len(parent) - child.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                found.append((base, child, in_function))
                found.extend((f"{base}.{alias.name}", child, in_function) for alias in child.names)
            visit(child, nested)

    visit(tree, False)
    return found


def test_accounts_never_imports_games():
    offenders = [
        (module, name)
        for module, path in _sources("accounts").items()
        for name, _node, _in_function in _imports(module, path)
        if name == "games" or name.startswith("games.")
    ]
    # accounts/management too: the demo command that builds games lives in games/.
    for path in (ROOT / "accounts").rglob("*.py"):
        if "games" in {n for n, _, _ in _imports(_module_name(path), path) if n.split(".")[0] == "games"}:
            offenders.append((_module_name(path), "games"))
    assert offenders == []


def _imports_of(package: str, other: str) -> list[tuple[str, str]]:
    """Every (module, imported name) of `package` (all its files: management commands and migrations too) that
    names `other`."""
    return [
        (_module_name(path), name)
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, _node, _in_function in _imports(_module_name(path), path)
        if name == other or name.startswith(other + ".")
    ]


def test_games_never_imports_moderation():
    """Moderation acts on games through games.services; games tells it what happens through signals
    (games.signals) and never knows it is there."""
    assert _imports_of("games", "moderation") == []
    assert _imports_of("accounts", "moderation") == []


def test_games_holds_no_moderation_code():
    """The audit log, reports, sanctions, recusal and the moderation pages, API, templates' views and tasks live in
    moderation/; games/ has no module of that name nor those models."""
    import games.models  # here, not at the top: the other tests read sources and need no Django set-up

    named = [str(p.relative_to(ROOT)) for p in (ROOT / "games").rglob("*moderation*.py") if "migrations" not in p.parts]
    assert named == []
    assert not {"AuditEntry", "Report", "Sanction"} & set(vars(games.models))


def test_nothing_inside_games_imports_its_entry_points():
    offenders = [
        (module, name)
        for module, path in _sources("games").items()
        if module not in ENTRY_POINTS
        for name, _node, _in_function in _imports(module, path)
        if name in ENTRY_POINTS
    ]
    assert offenders == []


@pytest.mark.parametrize("package", ["games", "moderation"])
def test_no_import_circle_inside(package):
    sources = _sources(package)
    graph = {
        module: {name for name, _node, _f in _imports(module, path) if name in sources and name != module}
        for module, path in sources.items()
    }
    # A package's __init__ re-exporting its modules is not a circle with them.
    for module in graph:
        graph[module] = {name for name in graph[module] if not module.startswith(name + ".")}
    visiting, done, cycles = set(), set(), []

    def walk(module: str, trail: list[str]) -> None:
        if module in visiting:
            cycles.append([*trail[trail.index(module) :], module])
            return
        if module in done:
            return
        visiting.add(module)
        for name in sorted(graph[module]):
            walk(name, [*trail, name])
        visiting.discard(module)
        done.add(module)

    for module in sorted(graph):
        walk(module, [module])
    assert cycles == []


def test_every_function_level_import_says_why():
    silent = []
    for package in ("games", "accounts", "moderation"):
        for module, path in _sources(package).items():
            lines = path.read_text().splitlines()
            for _name, node, in_function in _imports(module, path):
                if not in_function:
                    continue
                here = lines[node.lineno - 1]
                above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                if "#" not in here and not above.startswith("#"):
                    silent.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert sorted(set(silent)) == []


def _root_and_attribute(target: ast.expr) -> tuple[str | None, bool]:
    """The name an assignment target hangs from (`state` in `state.hands[0][1]`), and whether an attribute is
    on the way (writing `state.x` or into it, not into a plain local dict)."""
    attribute = False
    while isinstance(target, ast.Attribute | ast.Subscript):
        attribute = attribute or isinstance(target, ast.Attribute)
        target = target.value
    return (target.id if isinstance(target, ast.Name) else None), attribute


def test_the_rule_tests_build_positions_through_the_engine_api_never_by_writing_into_a_state():
    """Issue "Engine": rules.position / describe / fix_dice and real moves make every position of the rule
    tests; no test assigns to a State's fields (nor to the lists inside them), which would skip the engine's own
    checks and derived facts."""
    writes = []
    for path in sorted((ROOT / "tests" / "rules").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                    name, attribute = _root_and_attribute(part)
                    if attribute and name is not None and "state" in name.lower():
                        writes.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
                writes.append(f"{path.name}:{node.lineno} setattr")
    assert writes == []


# The house's floors, from the bottom: a package may import its own floor's neighbours only where listed, and
# the floors below it, never one above. infra/ and rules/ stand on nothing of ours; catan_site/ (the project
# shell: settings, urls, asgi, celery, serve, health) is the roof; devstack/ (make run, make test) stands apart.
FLOORS = {
    "rules": 0,
    "infra": 0,
    "localmail": 1,
    "accounts": 1,
    "games": 2,
    "replays": 3,
    "ratings": 4,
    "moderation": 5,
    "ops": 6,
    "catan_site": 7,
}
APPS = [*FLOORS, "devstack"]


def _top_level_imports(package: str) -> list[tuple[str, str]]:
    """(module, imported top-level package of ours) for every import of every file of `package`, those inside a
    function included."""
    return [
        (_module_name(path), name.split(".")[0])
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, _node, _in_function in _imports(_module_name(path), path)
        if name.split(".")[0] in APPS and name.split(".")[0] != package
    ]


def test_infra_imports_no_app():
    """infra/ is the floor every app stands on: it imports none of them (nor rules/, nor the harness)."""
    assert _top_level_imports("infra") == []


@pytest.mark.parametrize("package", [p for p in APPS if p != "devstack"])
def test_no_app_imports_devstack(package):
    """The development harness is for the Makefile, the Procfile, tests and benchmarks: the site runs without it."""
    assert [(module, name) for module, name in _top_level_imports(package) if name == "devstack"] == []


@pytest.mark.parametrize("package", [p for p in APPS if p != "catan_site"])
def test_catan_site_is_imported_by_no_app(package):
    """The project shell sits on top: settings are read through django.conf, the Celery app through shared_task."""
    assert [(module, name) for module, name in _top_level_imports(package) if name == "catan_site"] == []


@pytest.mark.parametrize("package", list(FLOORS))
def test_no_import_runs_back_up(package):
    """Every import between top-level folders goes down a floor (or to infra/ and rules/ at the bottom)."""
    upward = [
        (module, name)
        for module, name in _top_level_imports(package)
        if name in FLOORS and FLOORS[name] >= FLOORS[package]
    ]
    assert upward == []


def test_devstack_imports_no_app():
    """The harness starts the site's processes by command line, never by importing the apps."""
    assert _top_level_imports("devstack") == []


@pytest.mark.parametrize("package", ["games", "accounts", "moderation", "infra", "ops", "ratings", "replays"])
def test_no_module_of_the_site_passes_the_house_limit_of_500_lines(package):
    """A module past ~500 lines holds several things: split it into modules named for what they hold
    (games/mail/notifications.py became rows, sending, rendering, digests, kinds and quiet_hours)."""
    lengths = {str(path.relative_to(ROOT)): len(path.read_text().splitlines()) for path in _sources(package).values()}
    assert {name: count for name, count in lengths.items() if count > 500} == {}
