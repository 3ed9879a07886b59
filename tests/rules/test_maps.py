"""The Seafarers maps (rules/maps/*.json) against the seed's tables (RULES.md §10), read from the files.

Counts: non-frame sea, each terrain, tokens 2..12 and harbours, per map (Oceania: the visible board and the
hidden stacks). Structure: coordinates, frame, harbour slots, islands reachable by sea, set-up areas, and the
shapes the scenarios describe. Pictures: each map draws as an SVG with one polygon per hex.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rules.geometry import AXIAL_DIRECTIONS, hex_distance, ring, topology_for
from rules.svg import board_svg
from rules.tools.render_maps import board_from_map_file, render

MAP_DIR = Path(__file__).resolve().parents[2] / "rules" / "maps"
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
LAND = {"forest", "pasture", "fields", "hills", "mountains", "desert", "gold"}
PRODUCING = LAND - {"desert"}
TERRAINS = ("sea", "desert", "gold", "fields", "hills", "mountains", "pasture", "forest")
BASE_POOL = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
BASE_TOKENS = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]


def row(sea, desert, gold, fields, hills, mountains, pasture, forest, tokens):
    terrain = dict(zip(TERRAINS, (sea, desert, gold, fields, hills, mountains, pasture, forest), strict=True))
    return {"terrain": terrain, "tokens": dict(zip(NUMBERS, tokens, strict=True))}


# The seed's tables (RULES.md §10): fixed hexes of the board; `hidden` for Oceania's second rows.
SEED = {
    "new_shores": {
        "players": [3, 4],
        "vp": 13,
        "generic": 4,
        "board": row(10, 0, 2, 1, 1, 2, 1, 1, (1, 1, 1, 1, 0, 1, 1, 1, 1, 0)),
    },
    "four_islands_3": {
        "players": [3],
        "vp": 12,
        "generic": 3,
        "board": row(17, 0, 0, 3, 3, 3, 3, 3, (1, 1, 2, 1, 2, 2, 2, 2, 1, 1)),
    },
    "four_islands_4": {
        "players": [4],
        "vp": 12,
        "generic": 5,
        "board": row(18, 0, 0, 4, 4, 4, 5, 4, (1, 2, 3, 2, 2, 2, 3, 3, 2, 1)),
    },
    "oceania_3": {
        "players": [3],
        "vp": 12,
        "generic": 3,
        "board": row(6, 0, 1, 2, 2, 2, 2, 3, (1, 1, 2, 1, 2, 1, 1, 2, 1, 0)),
        "hidden": row(8, 0, 0, 1, 1, 2, 1, 1, (0, 1, 0, 1, 0, 1, 1, 0, 1, 1)),
    },
    "oceania_4": {
        "players": [4],
        "vp": 12,
        "generic": 4,
        "board": row(7, 0, 2, 3, 3, 3, 3, 3, (1, 2, 2, 1, 2, 2, 2, 2, 2, 1)),
        "hidden": row(14, 1, 0, 2, 1, 1, 2, 1, (0, 1, 1, 2, 1, 0, 1, 1, 0, 0)),
    },
    "through_the_desert_3": {
        "players": [3],
        "vp": 12,
        "generic": 4,
        "board": row(12, 4, 1, 4, 5, 4, 5, 4, (1, 2, 3, 3, 2, 3, 3, 3, 2, 1)),
    },
    "through_the_desert_4": {
        "players": [4],
        "vp": 12,
        "generic": 4,
        "board": row(16, 4, 2, 5, 5, 4, 5, 5, (2, 2, 3, 3, 3, 3, 3, 3, 3, 1)),
    },
    "new_world_3": {
        "players": [3],
        "vp": 12,
        "generic": 4,
        "pool": row(19, 0, 0, 4, 4, 4, 4, 4, (1, 2, 2, 2, 2, 2, 3, 3, 2, 1)),
    },
    "new_world_4": {
        "players": [4],
        "vp": 12,
        "generic": 5,
        "pool": row(23, 0, 0, 5, 4, 4, 5, 5, (1, 3, 3, 3, 2, 2, 3, 3, 2, 1)),
    },
    "great_crossing": {
        "players": [4],
        "vp": 12,
        "generic": 5,
        "board": row(17, 0, 0, 5, 4, 4, 5, 4, (2, 2, 2, 3, 2, 2, 3, 2, 2, 2)),
    },
    "greater_catan": {"players": [4], "vp": 18, "generic": 4},
}
KEYS = sorted(SEED)


def load(key: str) -> dict:
    return json.loads((MAP_DIR / f"{key}.json").read_text(encoding="utf-8"))


def at(h: dict) -> tuple[int, int]:
    return tuple(h["at"])


def neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
    return [(c[0] + dq, c[1] + dr) for dq, dr in AXIAL_DIRECTIONS]


def components(cells: set) -> list[set]:
    seen: set = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        comp, stack = {start}, [start]
        seen.add(start)
        while stack:
            for n in neighbours(stack.pop()):
                if n in cells and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


def kinds(spec: dict) -> dict[tuple[int, int], str]:
    """Each hex's kind: its terrain, "pool:<name>", or "frame"."""
    out = {}
    for h in spec["hexes"]:
        out[at(h)] = "frame" if h.get("frame") else f"pool:{h['pool']}" if "pool" in h else h["terrain"]
    return out


def is_land(kind: str) -> bool:
    return kind in LAND or kind.startswith("pool:")


def fixed_counts(spec: dict) -> dict:
    """The seed's first row: fixed, non-frame hexes (New Shores' base-frame sea apart) and their tokens."""
    terrain: Counter = Counter()
    tokens: Counter = Counter()
    for h in spec["hexes"]:
        if h.get("frame") or h.get("base_frame") or "pool" in h:
            continue
        terrain[h["terrain"]] += 1
        if h.get("token"):
            tokens[h["token"]] += 1
    return {"terrain": {t: terrain[t] for t in TERRAINS}, "tokens": {n: tokens[n] for n in NUMBERS}}


def pool_counts(spec: dict, name: str) -> dict:
    pool = spec["terrain_pools"][name]
    tokens = Counter(spec["token_pools"][name])
    return {"terrain": {t: pool.get(t, 0) for t in TERRAINS}, "tokens": {n: tokens[n] for n in NUMBERS}}


# --- counts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_counts_match_the_seed(key):
    spec, seed = load(key), SEED[key]
    assert spec["key"] == key
    assert spec["players"] == seed["players"]
    assert spec["vp_target"] == seed["vp"]
    assert spec["harbours"] == {
        "generic": seed["generic"],
        "lumber": 1,
        "brick": 1,
        "wool": 1,
        "grain": 1,
        "ore": 1,
    }
    if "board" in seed:
        counted = fixed_counts(spec)
        assert counted["terrain"] == seed["board"]["terrain"]
        assert counted["tokens"] == seed["board"]["tokens"]
    if "pool" in seed:
        assert pool_counts(spec, "all") == seed["pool"]
    slots = spec["harbour_slots"]
    if slots != "random":
        assert len(slots) == sum(spec["harbours"].values()) == 5 + seed["generic"]


@pytest.mark.parametrize("key", ["oceania_3", "oceania_4"])
def test_oceania_hidden_stacks(key):
    spec, seed = load(key), SEED[key]
    fog = sum(1 for h in spec["hexes"] if h.get("terrain") == "fog")
    hidden = spec["hidden"]
    assert sum(hidden["terrain"].values()) == fog
    assert {t: hidden["terrain"].get(t, 0) for t in TERRAINS} == seed["hidden"]["terrain"]
    tokens = Counter(hidden["tokens"])
    assert {n: tokens[n] for n in NUMBERS} == seed["hidden"]["tokens"]
    producing = sum(n for t, n in hidden["terrain"].items() if t in PRODUCING)
    assert len(hidden["tokens"]) == producing
    assert spec["rules"] == {"reveal": True}


def test_new_shores_base_island_and_frame():
    spec = load("new_shores")
    k = kinds(spec)
    main = {c for c, kind in k.items() if kind == "pool:main"}
    assert spec["terrain_pools"] == {"main": BASE_POOL}
    assert spec["token_pools"] == {"main": BASE_TOKENS}
    assert spec["token_layout"] == "spiral"
    centre = next(at(h) for h in spec["hexes"] if h.get("pool") == "main")  # the spiral's centre comes first
    assert main == {c for c in k if hex_distance(c, centre) <= 2}
    base_frame = {at(h) for h in spec["hexes"] if h.get("base_frame")}
    assert base_frame == set(ring(3, centre))
    assert all(k[c] == "sea" for c in base_frame)
    assert {tuple(h) for h in spec["setup"]["hexes"]} == main
    assert spec["rules"] == {"island_bonus": [1]}


def test_greater_catan_pools():
    spec = load("greater_catan")
    k = kinds(spec)
    assert spec["terrain_pools"]["main"] == BASE_POOL
    assert spec["terrain_pools"]["second"] == {
        "forest": 4,
        "pasture": 4,
        "fields": 4,
        "hills": 3,
        "mountains": 3,
    }
    assert spec["token_pools"] == {"main": BASE_TOKENS, "second": []}
    assert spec["token_layout"] == "spiral"
    main = {c for c, kind in k.items() if kind == "pool:main"}
    second = {c for c, kind in k.items() if kind == "pool:second"}
    assert len(main) == 19 and len(second) == 18
    centre = next(at(h) for h in spec["hexes"] if h.get("pool") == "main")
    assert main == {c for c in k if hex_distance(c, centre) <= 2}
    assert {tuple(h) for h in spec["setup"]["hexes"]} == main
    assert not any(k[n] == "pool:second" for c in main for n in neighbours(c))
    assert spec["rules"] == {"token_bag": [2, 3, 4, 5, 9, 10, 11], "supply": {"cities": 8}}
    assert all(h.get("terrain") in ("sea", None) for h in spec["hexes"])


# --- structure ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_structure(key):
    spec = load(key)
    coords = [at(h) for h in spec["hexes"]]
    assert len(coords) == len(set(coords)), "duplicate coordinates"
    k = kinds(spec)
    for h in spec["hexes"]:
        assert ("pool" in h) != ("terrain" in h)
        if h.get("frame"):
            assert h["terrain"] == "sea" and "token" not in h
        elif "terrain" in h:
            assert h["terrain"] in LAND | {"sea", "fog"}
            assert bool(h.get("token")) == (h["terrain"] in PRODUCING), h
    # Every hex inside the frame has all six neighbours, so ships can sail along the edge.
    for c, kind in k.items():
        if kind != "frame":
            assert all(n in k for n in neighbours(c)), f"{c} is not surrounded"
    # Pools: as many hexes as terrain, and one token per producing hex.
    for name, pool in spec.get("terrain_pools", {}).items():
        members = sum(1 for kind in k.values() if kind == f"pool:{name}")
        assert members == sum(pool.values())
        producing = sum(n for t, n in pool.items() if t in PRODUCING)
        assert len(spec["token_pools"][name]) in (0, producing)
    # No two fixed red numbers side by side.
    tokens = {at(h): h.get("token") for h in spec["hexes"]}
    for c, token in tokens.items():
        if token in (6, 8):
            assert not any(tokens.get(n) in (6, 8) for n in neighbours(c)), c
    # The pirate starts on a sea hex inside the frame; set-up areas are land.
    if spec.get("pirate"):
        assert k[tuple(spec["pirate"])] == "sea"
    for c in spec.get("setup", {}).get("hexes", []):
        assert is_land(k[tuple(c)]) and k[tuple(c)] != "desert"


@pytest.mark.parametrize("key", KEYS)
def test_harbour_slots(key):
    spec = load(key)
    if spec["harbour_slots"] == "random":
        assert spec["rules"].get("random_map") is True
        return
    k = kinds(spec)
    topo = topology_for(tuple(at(h) for h in spec["hexes"]))
    used: set[int] = set()
    for slot in spec["harbour_slots"]:
        sea, land = tuple(slot["sea"]), tuple(slot["land"])
        assert k[sea] in ("sea", "frame"), slot
        assert is_land(k[land]) and k[land] != "desert", slot
        assert land in neighbours(sea), slot
        shared = set(topo.hex_edges[topo.hex_index[sea]]) & set(topo.hex_edges[topo.hex_index[land]])
        assert len(shared) == 1
        vertices = set(topo.edge_vertices[shared.pop()])
        assert not vertices & used, f"harbour {slot} shares a corner"
        used |= vertices


@pytest.mark.parametrize("key", KEYS)
def test_islands_reachable_by_sea(key):
    spec = load(key)
    k = kinds(spec)
    water = {c for c, kind in k.items() if kind in ("sea", "frame") or kind == "pool:all"}
    assert len(components(water)) == 1, "the sea is in one piece"
    land = {c for c, kind in k.items() if is_land(kind) and kind != "pool:all"}
    for island in components(land):
        assert any(n in water for c in island for n in neighbours(c)), (
            f"island {sorted(island)} is landlocked"
        )
    # Display names name real islands: connected non-desert land.
    named = [{tuple(c) for c in hexes} for hexes in spec.get("islands", {}).values()]
    islands = components({c for c in land if k[c] != "desert"})
    for group in named:
        assert group in islands


def islands_of(spec: dict) -> list[set]:
    k = kinds(spec)
    return components({c for c, kind in k.items() if is_land(kind) and kind != "desert"})


# --- shapes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["four_islands_3", "four_islands_4"])
def test_four_islands(key):
    spec = load(key)
    sizes = sorted(len(i) for i in islands_of(spec))
    assert len(sizes) == 4 and sizes[-1] - sizes[0] <= 1
    assert spec["rules"] == {"island_bonus": [1, 2], "setup_ship_required": True}
    assert "setup" not in spec


def test_great_crossing_two_islands():
    spec = load("great_crossing")
    islands = islands_of(spec)
    assert sorted(len(i) for i in islands) == [11, 11]
    assert spec["rules"] == {"same_island_setup": True, "trade_lines": True}


def test_new_shores_small_islands():
    spec = load("new_shores")
    islands = sorted(islands_of(spec), key=len)
    assert len(islands[-1]) == 19
    assert 3 <= len(islands) - 1 <= 4
    assert sum(len(i) for i in islands[:-1]) == 8


@pytest.mark.parametrize(("key", "strip"), [("through_the_desert_3", 3), ("through_the_desert_4", 4)])
def test_through_the_desert_strip(key, strip):
    spec = load(key)
    k = kinds(spec)
    land = {c for c, kind in k.items() if is_land(kind)}
    deserts = {c for c, kind in k.items() if kind == "desert"}
    big = next(i for i in components(land) if deserts <= i)
    assert len(deserts) == 4
    # The deserts lie on one straight line of hexes.
    assert (
        any(len({c[axis] for c in deserts}) == 1 for axis in (0, 1))
        or len({-c[0] - c[1] for c in deserts}) == 1
    )
    parts = components(big - deserts)
    assert len(parts) == 2
    cut, main = sorted(parts, key=len)
    assert len(cut) == strip
    assert all(any(n in deserts for n in neighbours(c)) or c in cut for c in cut)

    def centre(cells):
        xs = [c[0] + c[1] / 2 for c in cells]
        ys = [c[1] for c in cells]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    (cx, cy), (mx, my) = centre(cut), centre(main)
    assert cx > mx and cy < my, "the strip is in the upper right"
    assert {tuple(c) for c in spec["setup"]["hexes"]} == main
    assert len(islands_of(spec)) >= 3, "small islands besides the big island and the strip"
    assert spec["rules"] == {"island_bonus": [1]}


@pytest.mark.parametrize("key", ["oceania_3", "oceania_4"])
def test_oceania_big_island_and_unknown_sea(key):
    spec = load(key)
    k = kinds(spec)
    islands = islands_of(spec)
    assert len(islands) == 1
    assert {tuple(c) for c in spec["setup"]["hexes"]} == islands[0]
    fog = {c for c, kind in k.items() if kind == "fog"}
    assert not any(n in islands[0] for c in fog for n in neighbours(c)), (
        "visible sea parts the island from the fog"
    )


@pytest.mark.parametrize(("key", "size"), [("new_world_3", 39), ("new_world_4", 46)])
def test_new_world_random_area(key, size):
    spec = load(key)
    k = kinds(spec)
    inner = [kind for kind in k.values() if kind != "frame"]
    assert inner == ["pool:all"] * size
    assert sum(spec["terrain_pools"]["all"].values()) == size
    assert spec["rules"] == {"island_bonus": [1], "random_map": True}


# --- pictures -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_svg_draws_every_hex(key):
    spec = load(key)
    svg = board_svg(board_from_map_file(spec))
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    polygons = root.findall(".//{http://www.w3.org/2000/svg}polygon")
    assert len(polygons) == len(spec["hexes"])
    assert board_svg(board_from_map_file(spec)) == svg, "deterministic"


def test_svg_pieces_and_escaping():
    spec = load("four_islands_3")
    board = board_from_map_file(spec)
    board["harbours"][0]["kind"] = "<&>"
    pieces = {
        "settlements": [{"vertex": 0, "seat": 0}],
        "cities": [{"vertex": 5, "seat": 1}],
        "roads": [{"edge": 0, "seat": 2}],
        "ships": [{"edge": 3, "seat": 3}],
    }
    root = ET.fromstring(board_svg(board, pieces, width=300))
    assert root.get("width") == "300"
    classes = [g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")]
    for name in ("settlement", "city", "road", "ship", "harbour"):
        assert name in classes


def test_render_writes_pictures_and_keys(tmp_path):
    written = render(tmp_path)
    assert set(written) == set(KEYS)
    text = (tmp_path / "SCENARIOS.md").read_text(encoding="utf-8")
    for key in KEYS:
        assert f"\nkey: {key}\n" in text
        assert f"![{key}](scenarios/{key}.svg)" in text
        ET.parse(tmp_path / "scenarios" / f"{key}.svg")
