"""Draw every Seafarers map: `python -m rules.tools.render_maps` writes docs/scenarios/<key>.svg and SCENARIOS.md.

Each picture is a real game's board (`new_game(scenario=key, seed=1)`), so pools, spiral tokens and harbours
are shown as one deal would lay them. If the engine cannot start a map yet, the picture is drawn straight from
the JSON instead (`board_from_map_file`): pool hexes then show as "?" land and harbour kinds in file order.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ..constants import PIPS
from ..geometry import topology_for
from ..svg import board_svg

MAP_DIR = Path(__file__).resolve().parent.parent / "maps"
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

ORDER = (
    "new_shores",
    "four_islands_3",
    "four_islands_4",
    "oceania_3",
    "oceania_4",
    "through_the_desert_3",
    "through_the_desert_4",
    "new_world_3",
    "new_world_4",
    "great_crossing",
    "greater_catan",
)
COUNTED = ("sea", "desert", "gold", "fields", "hills", "mountains", "pasture", "forest")
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)

RULES_TEXT = {
    "new_shores": (
        "The main island is a variable base board (terrain shuffled, tokens along the A→R spiral); set-up is "
        "on it. The small islands around it are fixed.",
        "+1 victory-point token for a player's first settlement on each foreign island.",
        "The pirate starts on the sea between the small islands.",
    ),
    "four_islands": (
        "Set-up settlements go anywhere, on one or two islands: those are the player's home islands.",
        "A coastal set-up settlement must take a ship, unless it touches only sea hexes of the frame.",
        "+1 token for the first foreign island settled, +2 for each further new foreign island.",
    ),
    "oceania": (
        'The "?" hexes are unknown: a ship (later a road) reaching a corner of one reveals the top hex of a '
        "shuffled stack there; land takes the top token of a second stack and gives the finder one card of "
        "its resource (sea and desert give nothing).",
        "Set-up on the big island only. No victory-point tokens.",
    ),
    "through_the_desert": (
        "A line of deserts cuts a strip off the big island's upper right. Set-up is on the big island, "
        "except that strip.",
        "+1 token for a first settlement on each foreign island; the strip counts as foreign.",
    ),
    "new_world": (
        "The map is new for every game: the table's sea and land hexes are shuffled over the whole area "
        "(the picture is one such deal), tokens are shuffled with no two red numbers (6, 8) adjacent, and "
        "harbours go on random legal coast edges, never two on one corner.",
        "+1 token for the first settlement on each new island.",
    ),
    "great_crossing": (
        "Two islands face each other across a strait. A player's two set-up settlements stand on the same "
        "island.",
        "Each trade line (ships and/or roads linking a settlement or city on one island to one on the other, "
        "directly or through an opponent's road) earns its owner 1 token; a line broken by a moved ship "
        "loses it.",
    ),
    "greater_catan": (
        "Two base sets: the main island is a variable base board with its 18 tokens and desert; set-up is "
        "on it. The second set's 18 land hexes form the secondary islands, without tokens.",
        "Reaching a hex without a token draws one from the bag (2, 3, 4, 5, 9, 10, 11); once the bag is "
        "empty a token moves from the main island instead (constraints a–c of RULES.md §10).",
        "Each player has 5 settlements, 8 cities, 15 roads and 15 ships.",
    ),
}


def load_maps() -> dict[str, dict[str, Any]]:
    specs = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(MAP_DIR.glob("*.json"))}
    ordered = [k for k in ORDER if k in specs] + sorted(k for k in specs if k not in ORDER)
    return {k: specs[k] for k in ordered}


def board_from_map_file(spec: dict[str, Any]) -> dict[str, Any]:
    """Fallback when the engine cannot start the map: a view-shaped board built from the JSON alone."""
    coords = [tuple(h["at"]) for h in spec["hexes"]]
    topo = topology_for(tuple(coords))
    hexes = []
    for i, h in enumerate(spec["hexes"]):
        terrain = "pool" if "pool" in h else h["terrain"]
        token = h.get("token") or None
        hexes.append(
            {
                "id": i,
                "q": coords[i][0],
                "r": coords[i][1],
                "terrain": terrain,
                "token": token,
                "pips": PIPS.get(token or 0, 0),
            }
        )
    harbours = []
    if isinstance(spec.get("harbour_slots"), list):
        kinds = [k for k, n in spec["harbours"].items() for _ in range(n)]
        for slot, kind in zip(spec["harbour_slots"], kinds, strict=False):
            a, b = topo.hex_index[tuple(slot["sea"])], topo.hex_index[tuple(slot["land"])]
            edge = (set(topo.hex_edges[a]) & set(topo.hex_edges[b])).pop()
            harbours.append({"edge": edge, "kind": kind, "vertices": list(topo.edge_vertices[edge])})
    deserts = [h["id"] for h in hexes if h["terrain"] == "desert"]
    pirate = topo.hex_index[tuple(spec["pirate"])] if spec.get("pirate") else None
    return {
        "hexes": hexes,
        "vertices": [{"id": v, "x": x, "y": y} for v, (x, y) in enumerate(topo.vertex_points)],
        "edges": [{"id": e, "vertices": [a, b]} for e, (a, b) in enumerate(topo.edge_vertices)],
        "harbours": harbours,
        "robber": deserts[0] if deserts else None,
        "pirate": pirate,
        "frame": [i for i, h in enumerate(spec["hexes"]) if h.get("frame")],
    }


def board_for(key: str, spec: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """(board, from_engine): a game's board (seed 1) if the engine can start the map, else the fallback."""
    try:
        import rules

        state = rules.new_game(scenario=key, players=max(spec["players"]), seed=1, options={})
        return rules.view(state, None)["board"], True
    except Exception:  # noqa: BLE001 - any engine gap falls back to the file
        return board_from_map_file(spec), False


def counts(spec: dict[str, Any]) -> list[tuple[str, Counter, Counter]]:
    """Rows of (label, terrain counts, token counts) as the seed's tables give them."""
    fixed: Counter = Counter()
    tokens: Counter = Counter()
    base_frame = 0
    for h in spec["hexes"]:
        if h.get("frame") or "pool" in h:
            continue
        if h.get("base_frame"):
            base_frame += 1
            continue
        fixed[h["terrain"]] += 1
        if h.get("token"):
            tokens[h["token"]] += 1
    rows = []
    fog = fixed.pop("fog", 0)
    label = "board" + (f" (+ {base_frame} sea of the base frame)" if base_frame else "")
    label += f" (+ {fog} unknown)" if fog else ""
    rows.append((label, fixed, tokens))
    for name, pool in spec.get("terrain_pools", {}).items():
        rows.append((f"pool `{name}`", Counter(pool), Counter(spec.get("token_pools", {}).get(name, []))))
    if "hidden" in spec:
        rows.append(("hidden stacks", Counter(spec["hidden"]["terrain"]), Counter(spec["hidden"]["tokens"])))
    return rows


def section(key: str, spec: dict[str, Any], from_engine: bool) -> str:
    title = spec["title"]
    players = "–".join(str(p) for p in (min(spec["players"]), max(spec["players"])))
    if len(spec["players"]) == 1:
        players = str(spec["players"][0])
    harbours = spec["harbours"]
    special = sum(n for k, n in harbours.items() if k != "generic")
    lines = [
        f"## {title['en']} ({title['fr']}) — {players} players",
        "",
        f"![{key}](scenarios/{key}.svg)",
        "",
        f"key: {key}",
        "",
        f"- Players: {players}; victory points to win: {spec['vp_target']}.",
    ]
    family = spec.get("family", key)
    if family != key:
        lines.append(f'- Also started as `new_game(scenario="{family}", players={players})`.')
    lines.append(
        f"- Harbours: {special} special + {harbours.get('generic', 0)} generic (3:1), shuffled each game."
    )
    for text in RULES_TEXT.get(family, ()):
        lines.append(f"- {text}")
    if not from_engine:
        lines.append(
            "- (Drawn from the map file: the engine could not start this map when the picture was made.)"
        )
    lines += [
        "",
        "| hexes | " + " | ".join(COUNTED) + " | tokens " + " ".join(map(str, NUMBERS)) + " |",
        "|---" * (len(COUNTED) + 2) + "|",
    ]
    for label, terrain, tokens in counts(spec):
        cells = [str(terrain.get(t, 0)) for t in COUNTED]
        lines.append(
            f"| {label} | "
            + " | ".join(cells)
            + " | "
            + ",".join(str(tokens.get(n, 0)) for n in NUMBERS)
            + " |"
        )
    lines.append("")
    return "\n".join(lines)


FORMAT = """## The map file format (`rules/maps/<key>.json`)

```json
{
  "key": "four_islands_4", "family": "four_islands",
  "title": {"en": "Four Islands", "fr": "Les quatre îles"},
  "players": [4], "vp_target": 12,
  "hexes": [
    {"at": [0, -3], "terrain": "sea", "frame": true},
    {"at": [0, 0], "terrain": "forest", "token": 8},
    {"at": [2, 0], "terrain": "fog"},
    {"at": [-1, 1], "pool": "main"}
  ],
  "terrain_pools": {"main": {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3,
                             "desert": 1}},
  "token_pools": {"main": [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]},
  "token_layout": "shuffle",
  "hidden": {"terrain": {"sea": 8, "fields": 1}, "tokens": [3, 5]},
  "harbour_slots": [{"sea": [1, -3], "land": [1, -2]}],
  "harbours": {"generic": 5, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1},
  "islands": {"North-west isle": [[-2, -1], [-1, -1]]},
  "setup": {"hexes": [[0, 0], [1, 0]]},
  "pirate": [3, -1],
  "rules": {"island_bonus": [1, 2], "setup_ship_required": true}
}
```

- `at` is the axial coordinate (q, r) of a pointy-top hex. Frame hexes (`"frame": true`, always sea) are the
  board's edge and are not counted in the seed's sea column; every other hex lies inside the frame.
  New Shores marks the 18 sea hexes of the base game's frame around its main island with `"base_frame": true`
  (the seed counts them as "base frame", not in its 10 sea).
- A hex has a fixed `terrain` (with a `token` when it produces; gold too), or `"pool": NAME` (terrain drawn at
  game start from `terrain_pools[NAME]`, tokens dealt from `token_pools[NAME]` with no adjacent 6/8;
  `"token_layout": "spiral"` lays a 19-hex base-shaped pool along the A→R spiral instead, the first pool hex
  listed being its centre), or `"terrain": "fog"` (Oceania's unknown hexes, filled in play from `hidden`).
- `harbour_slots` pairs a sea hex with a neighbouring land (or pool) hex; the harbour is their shared edge and
  the kinds in `harbours` are shuffled onto the slots. `"random"` (The New World) lets the engine pick legal
  coast edges.
- `islands` are display names; the rules compute islands as connected non-desert land. `setup.hexes` limits
  set-up settlements to corners whose land hexes are all listed. `pirate` is the pirate's first sea hex.
- `rules`: `island_bonus` (tokens for the 1st, then each later new island), `setup_ship_required`,
  `same_island_setup`, `trade_lines`, `reveal`, `random_map`, `token_bag`, `supply`.
"""


def render(docs: Path = DOCS) -> list[str]:
    out_dir = docs / "scenarios"
    out_dir.mkdir(parents=True, exist_ok=True)
    parts = [
        "# Seafarers scenarios",
        "",
        "The maps of RULES.md §10 (seed 004), drawn from `rules/maps/*.json` by "
        "`python -m rules.tools.render_maps`. "
        "The counts under each picture are read from the map file; `tests/rules/test_maps.py` checks them "
        "against the seed's tables. Each picture is the board of a game started with seed 1.",
        "",
    ]
    written = []
    for key, spec in load_maps().items():
        board, from_engine = board_for(key, spec)
        (out_dir / f"{key}.svg").write_text(board_svg(board, None, width=720), encoding="utf-8")
        written.append(key)
        parts.append(section(key, spec, from_engine))
    parts.append(FORMAT)
    (docs / "SCENARIOS.md").write_text("\n".join(parts), encoding="utf-8")
    return written


def main() -> None:
    written = render()
    print(f"wrote {len(written)} maps to {DOCS / 'scenarios'} and {DOCS / 'SCENARIOS.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
