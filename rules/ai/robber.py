"""Where a bot sends the robber (or the pirate), and whether the robber holds one of its hexes."""

from __future__ import annotations

from ..constants import GOLD, LAND, PIPS
from .heuristics import Action
from .obs import Obs


def robber_score(o: Obs, action: Action) -> float:
    """Block the leader's best hex and steal from them; never hurt myself."""
    topo = o.derived.topo
    h = action["hex"]
    target = max(o.vp_target, 1)
    score = 0.0
    if action["type"] == "move_pirate":
        for e in topo.hex_edges[h]:
            owner = o.edge_owner[e]
            if owner < 0 or not o.edge_ship[e]:
                continue
            score += -1.5 if owner == o.me else 0.3
        victims = {action["victim"]} if "victim" in action else set()
        if "victim" not in action and o.options.get("pirate_steal") != "one":
            victims = {
                o.edge_owner[e]
                for e in topo.hex_edges[h]
                if o.edge_owner[e] >= 0 and o.edge_ship[e] and o.edge_owner[e] != o.me and o.counts[o.edge_owner[e]]
            }
        for s in victims:
            score += 2.0 * (1 + o.vp[s] / target)
        return score
    token = o.tokens[h]
    pips = PIPS.get(token, 0) if o.terrain[h] in LAND or o.terrain[h] == GOLD else 0
    for v in topo.hex_vertices[h]:
        owner = o.vertex_owner[v]
        if owner < 0:
            continue
        mult = 2 if o.vertex_city[v] else 1
        if owner == o.me:
            score -= 3.0 * pips * mult + 3.0
        else:
            score += pips * mult * (1.0 + 2.0 * o.vp[owner] / target)
    victim = action.get("victim")
    if victim is not None and o.counts[victim]:
        score += 2.0 * (1.0 + 2.0 * o.vp[victim] / target) + 0.1 * o.counts[victim]
    return score


def robbed_me(o: Obs) -> bool:
    """The robber sits on a producing hex next to one of my buildings."""
    if o.robber < 0 or not o.tokens[o.robber]:
        return False
    return any(o.vertex_owner[v] == o.me for v in o.derived.topo.hex_vertices[o.robber])
