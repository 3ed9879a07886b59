"""Each seat's update frame, built with the views' public facts shared (`rules.views`), is byte for byte the frame
that seat's own view gives (`update_message`): its own cards and legal moves, nobody else's."""

from __future__ import annotations

import random

import orjson

import rules
from games.fields import json_dumps
from games.live.frames import frame_key, update_frames, update_message


def test_every_seats_frame_is_its_own_view_and_nothing_more():
    for scenario in ("base", "four_islands_4", "new_world_3"):
        state = rules.new_game(scenario=scenario, players=3 if scenario.endswith("_3") else 4, seed=11)
        chance = random.Random(11)
        for seq in range(1, 160):
            seat = rules.to_move(state)[0]
            events = rules.apply(state, seat, chance.choice(rules.legal_actions(state, seat)))
            extra = {"deadline": None, "turn_seconds": 60}
            frames = update_frames(state, seq, events, extra)
            assert set(frames) == {frame_key(s) for s in [*range(state.players), None]}
            for viewer in [*range(state.players), None]:
                assert frames[frame_key(viewer)] == json_dumps(update_message(state, viewer, seq, events, extra))
                mine = orjson.loads(frames[frame_key(viewer)])["view"]["seats"]
                private = [s["seat"] for s in mine if "resources" in s]
                assert private == ([] if viewer is None else [viewer])
            if state.winner is not None:
                break
