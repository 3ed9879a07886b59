"""Development cards: buying one, and playing each kind (the robber a knight sends, the roads Road Building
gives, Year of Plenty's two cards, Monopoly's sweep). Largest Army changes hands here."""

from __future__ import annotations

from typing import Any

from .constants import (
    DEVELOPMENT_CARDS,
    DEVELOPMENT_COST,
    KNIGHT,
    LARGEST_ARMY_MINIMUM,
    MONOPOLY,
    RESOURCE_INDEX,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .hands import pay, take
from .state import ROAD_BUILDING as ROAD_BUILDING_PHASE
from .state import ROBBER, State

Event = dict[str, Any]


def buy_development(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    pay(state, seat, DEVELOPMENT_COST)
    card = state.deck.pop()
    state.development_new[seat][card] += 1
    return [
        {"type": "bought_development", "seat": seat},
        {"type": "drew_development", "seat": seat, "card": DEVELOPMENT_CARDS[card], "audience": [seat]},
    ]


def _played(state: State, seat: int, card: int) -> None:
    state.development[seat][card] -= 1
    state.development_used[seat][card] += 1
    state.development_played = True


def play_knight(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    _played(state, seat, KNIGHT)
    events: list[Event] = [{"type": "played_knight", "seat": seat}]
    holder = state.largest_army
    count = state.development_used[seat][KNIGHT]
    if (
        holder != seat
        and count >= LARGEST_ARMY_MINIMUM
        and (holder < 0 or count > state.development_used[holder][KNIGHT])
    ):
        state.largest_army = seat
        events.append({"type": "largest_army", "seat": seat, "knights": count})
    state.return_phase = state.phase
    state.phase = ROBBER
    return events


def play_road_building(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    _played(state, seat, ROAD_BUILDING)
    state.free_roads = min(2, state.supply[seat]["roads"] + (state.supply[seat]["ships"] if state.seafarers else 0))
    state.return_phase = state.phase
    state.phase = ROAD_BUILDING_PHASE
    return [{"type": "played_road_building", "seat": seat}]


def play_year_of_plenty(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    _played(state, seat, YEAR_OF_PLENTY)
    for name in action["resources"]:
        take(state, seat, RESOURCE_INDEX[name], 1)
    return [{"type": "played_year_of_plenty", "seat": seat, "resources": list(action["resources"])}]


def play_monopoly(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    _played(state, seat, MONOPOLY)
    r = RESOURCE_INDEX[action["resource"]]
    taken = {}
    for other in range(state.players):
        if other != seat and state.hands[other][r]:
            taken[str(other)] = state.hands[other][r]
            state.hands[seat][r] += state.hands[other][r]
            state.hands[other][r] = 0
    return [{"type": "played_monopoly", "seat": seat, "resource": action["resource"], "taken": taken}]
