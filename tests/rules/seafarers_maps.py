"""Small purpose-built Seafarers maps for rule tests (constructed positions), installed in a temporary map
folder so they never mix with the scenario maps."""

from __future__ import annotations

from rules.geometry import ring

# A seven-hex main island; open sea; small islands in the third ring; the frame outside.
MAIN = {
    (0, 0): ("fields", 6),
    **dict(
        zip(
            ring(1),
            [("forest", 8), ("hills", 5), ("pasture", 9), ("mountains", 10), ("gold", 4), ("forest", 3)],
            strict=True,
        )
    ),
}
THIRD = ring(3)
SMALL_ISLANDS = {
    THIRD[0]: ("forest", 3),
    THIRD[1]: ("hills", 11),
    THIRD[6]: ("gold", 9),
    THIRD[12]: ("pasture", 2),
    THIRD[13]: ("mountains", 12),
}


def isles_spec(key: str = "isles", **rules) -> dict:
    hexes = [{"at": list(h), "terrain": t, "token": n} for h, (t, n) in MAIN.items()]
    hexes += [{"at": list(h), "terrain": "sea"} for h in ring(2)]
    for h in THIRD:
        if h in SMALL_ISLANDS:
            terrain, token = SMALL_ISLANDS[h]
            hexes.append({"at": list(h), "terrain": terrain, "token": token})
        elif rules.get("reveal") and h == THIRD[9]:
            hexes.append({"at": list(h), "terrain": "fog"})
        else:
            hexes.append({"at": list(h), "terrain": "sea"})
    hexes += [{"at": list(h), "terrain": "sea", "frame": True} for h in ring(4)]
    spec = {
        "key": key,
        "family": key,
        "title": {"en": key, "fr": key},
        "players": [3, 4],
        "vp_target": 12,
        "hexes": hexes,
        "harbour_slots": [{"sea": list(ring(2)[0]), "land": list(ring(1)[0])}],
        "harbours": {"generic": 1},
        "setup": {"hexes": [list(h) for h in MAIN]},
        "pirate": list(ring(2)[6]),
        "rules": {k: v for k, v in rules.items() if k != "hidden"},
    }
    if rules.get("reveal"):
        spec["hidden"] = rules.get("hidden", {"terrain": {"fields": 1}, "tokens": [8]})
    return spec


def crossing_spec() -> dict:
    """Two islands across a strait: west (q < 0) and east (q > 0), sea in column q = 0."""
    hexes = []
    for radius in range(4):
        for q, r in ring(radius):
            if radius == 3 or q == 0:
                hexes.append({"at": [q, r], "terrain": "sea"})
            else:
                hexes.append({"at": [q, r], "terrain": "fields" if (q + r) % 2 else "pasture", "token": 5 + abs(q)})
    hexes += [{"at": list(h), "terrain": "sea", "frame": True} for h in ring(4)]
    return {
        "key": "crossing",
        "family": "crossing",
        "title": {"en": "crossing", "fr": "crossing"},
        "players": [4],
        "vp_target": 12,
        "hexes": hexes,
        "harbour_slots": [],
        "harbours": {},
        "rules": {"trade_lines": True, "same_island_setup": True},
    }


def bag_spec() -> dict:
    spec = isles_spec("bag", token_bag=[2, 3], supply={"cities": 8})
    for h in spec["hexes"]:
        if tuple(h["at"]) in SMALL_ISLANDS:
            h["token"] = 0
    return spec
