"""Names and numbers of the game: resources, terrains, costs, piece supplies, development cards."""

from __future__ import annotations

# Resources are small integers on every hot path; their names only appear at the edges (actions, views).
LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
RESOURCES: tuple[str, ...] = ("lumber", "brick", "wool", "grain", "ore")
RESOURCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(RESOURCES)}

# Terrains. The first five produce the resource with the same index.
FOREST, HILLS, PASTURE, FIELDS, MOUNTAINS, DESERT, SEA, GOLD, FOG = range(9)
TERRAINS: tuple[str, ...] = (
    "forest",
    "hills",
    "pasture",
    "fields",
    "mountains",
    "desert",
    "sea",
    "gold",
    "fog",
)
TERRAIN_INDEX: dict[str, int] = {name: i for i, name in enumerate(TERRAINS)}
PRODUCING = frozenset({FOREST, HILLS, PASTURE, FIELDS, MOUNTAINS, GOLD})
LAND = frozenset({FOREST, HILLS, PASTURE, FIELDS, MOUNTAINS, DESERT, GOLD})

# Harbour kinds: 0..4 are the 2:1 harbour of that resource, GENERIC_HARBOUR is 3:1.
GENERIC_HARBOUR = 5
HARBOUR_NAMES: tuple[str, ...] = (*RESOURCES, "generic")

# Costs as (lumber, brick, wool, grain, ore).
ROAD_COST = (1, 1, 0, 0, 0)
SHIP_COST = (1, 0, 1, 0, 0)
SETTLEMENT_COST = (1, 1, 1, 1, 0)
CITY_COST = (0, 0, 0, 2, 3)
DEVELOPMENT_COST = (0, 0, 1, 1, 1)

# Development cards.
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = range(5)
DEVELOPMENT_CARDS: tuple[str, ...] = ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
DEVELOPMENT_DECK = (14, 2, 2, 2, 5)

BANK_PER_RESOURCE = 19
SUPPLY = {"roads": 15, "settlements": 5, "cities": 4, "ships": 15}

LONGEST_ROAD_MINIMUM = 5
LARGEST_ARMY_MINIMUM = 3
DISCARD_LIMIT = 7

# The A→R token order of the seed (000), laid along the spiral skipping the desert.
SPIRAL_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)

# Pips: the number of ways two dice make each sum, drawn as dots under the number.
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
