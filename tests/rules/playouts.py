"""Random playouts for the property tests: uniform random bots that also make random domestic offers."""

from __future__ import annotations

import json
import random
from typing import Any

import rules
from rules.constants import RESOURCES

Log = list[tuple[int, dict[str, Any]]]


def random_offer(rng: random.Random, hand: list[int]) -> dict[str, Any] | None:
    held = [r for r in range(5) if hand[r]]
    if not held:
        return None
    give = rng.choice(held)
    get = rng.choice([r for r in range(5) if r != give])
    return {"type": "offer_trade", "give": {RESOURCES[give]: 1}, "get": {RESOURCES[get]: rng.randint(1, 2)}}


def random_playout(
    state: rules.State,
    rng: random.Random,
    max_actions: int = 20_000,
    offer_rate: float = 0.03,
    on_step: Any = None,
) -> Log:
    """Play to the end with random choices; returns the action log. `on_step(state)` runs after each move."""
    log: Log = []
    for _ in range(max_actions):
        seats = rules.to_move(state)
        if not seats:
            break
        seat = rng.choice(seats)
        action: dict[str, Any] | None = None
        if state.phase == "main" and state.trade is None and seat == state.current and rng.random() < offer_rate:
            action = random_offer(rng, state.hands[seat])
        if action is None:
            action = rng.choice(rules.legal_actions(state, seat))
        events = rules.apply(state, seat, action)
        # Events travel as JSON and msgpack: string keys only, so a round trip changes nothing.
        assert json.loads(json.dumps(events)) == events
        log.append((seat, action))
        if on_step is not None:
            on_step(state)
    return log


def replay(scenario: str, players: int, seed: int, options: dict[str, Any], log: Log) -> rules.State:
    state = rules.new_game(scenario=scenario, players=players, seed=seed, options=options)
    for seat, action in log:
        rules.apply(state, seat, action)
    return state
