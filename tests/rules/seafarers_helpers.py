"""Helpers of the Seafarers rule tests: new games on the test maps, ships, routes, refusals."""

from __future__ import annotations

import pytest

import rules

from .rule_positions import edit, force_roll


def new(sea_maps, spec, players=4, **options):
    key = sea_maps(spec)
    return rules.new_game(scenario=key, players=players, seed=3, options={"seat_order": "fixed", **options})


def topo(state):
    return state.derived.topo


def hx(state, coordinate):
    return topo(state).hex_index[tuple(coordinate)]


def coastal_vertex(state, land_hex, sea_hex):
    """A vertex shared by a land hex and a sea hex."""
    shared = set(topo(state).hex_vertices[land_hex]) & set(topo(state).hex_vertices[sea_hex])
    return min(shared)


def ship(state, seat, *edges):
    """The position with the seat's ships on these edges added."""
    description = rules.describe(state)
    description["seats"][seat]["ships"] += list(edges)
    return rules.position(description)


def ship_route(state, start, goals, avoid=frozenset()):
    """Vertices of a shortest path of ship edges from `start` to one of `goals` (never through `avoid`)."""
    t = topo(state)
    came = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            if v in goals:
                path = [v]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
            for e in t.vertex_edges[v]:
                n = next(x for x in t.edge_vertices[e] if x != v)
                if state.derived.ship_edge[e] and n not in came and n not in avoid:
                    came[n] = v
                    following.append(n)
        frontier = following
    raise AssertionError("no ship route")


def without_pirate(state):
    """The same position in a game played without the pirate."""
    description = rules.describe(state)
    description["options"]["pirate"] = False
    description.pop("pirate", None)
    return rules.position(description)


def roll(state, total):
    """From the position, with `state.current` to roll: the dice make `total`."""
    state = edit(state, phase="roll", dice=None)
    force_roll(state, total)
    return state, rules.apply(state, state.current, {"type": "roll"})


def hand(state, seat):
    return {name: n for name, n in rules.view(state, seat)["seats"][seat]["resources"].items() if n}


def sea_path(state, start, length, avoid=frozenset()):
    """Vertices of a path of `length` ship edges from `start`, heading away from the main island."""
    t = topo(state)

    def walk(path):
        if len(path) == length + 1:
            return path
        options = []
        for n in t.vertex_neighbors[path[-1]]:
            e = next(e for e in t.vertex_edges[path[-1]] if n in t.edge_vertices[e])
            if n not in path and n not in avoid and state.derived.ship_edge[e] and state.edge_owner[e] == -1:
                options.append((-sum(abs(c) for c in t.vertex_points[n]), n))
        for _, n in sorted(options):
            found = walk([*path, n])
            if found:
                return found
        return None

    return walk([start])


def edges(state, vertices):
    t = topo(state)
    return [
        next(e for e in t.vertex_edges[a] if b in t.edge_vertices[e])
        for a, b in zip(vertices, vertices[1:], strict=False)
    ]


def refuse(state, seat, action):
    before = rules.dump(state)
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, seat, action)
    assert rules.dump(state) == before
