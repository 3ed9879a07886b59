"""A fuzzer for the game socket, over a real server: random and malformed frames of every message type (bad JSON,
wrong shapes and types, deep nesting, NUL and lone surrogates, huge numbers, oversized frames). Each gets an
answer (an error frame, or the normal answer), the socket stays open, and the game does not change."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from games.models import ChatMessage, Game, Move
from tests.games.helpers import started_game
from tests.games.servers import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

ODD_VALUES = [
    None, True, False, 0, -1, 2**64, 1e308, -0.0, "", "x" * 600, "\u0000", "\ud800", "é", [], {}, [[[[[]]]]],
    {"type": None}, {"vertex": "1"}, {"vertex": 1.0}, {"vertex": True}, {"cards": {"wool": -1}}, {"give": []},
]
TYPES = ["move", "sync", "chat", "ping", "report", "teleport", "", None, 7, ["move"]]
ACTION_TYPES = ["build_road", "build_city", "roll", "end_turn", "offer_trade", "discard", "move_robber", "nonsense"]


def random_frame(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.1:  # not JSON at all
        return rng.choice(["{", "}", "[1,", "null", "\"type\"", "\x00", "{\"type\": \"move\",}", "NaN"])
    if choice < 0.15:  # nested far deeper than any message
        depth = rng.choice([50, 500, 5000])
        return "[" * depth + "]" * depth
    if choice < 0.2:  # near and over the size limit
        return json.dumps({"type": "chat", "text": "y" * rng.choice([7000, 9000, 15000])})
    frame: dict = {"type": rng.choice(TYPES)}
    if frame["type"] == "move" or rng.random() < 0.3:
        action = {"type": rng.choice(ACTION_TYPES)}
        for key in rng.sample(["vertex", "edge", "hex", "victim", "cards", "give", "get", "to"], k=rng.randint(0, 3)):
            action[key] = rng.choice(ODD_VALUES)
        frame["action"] = rng.choice([action, *ODD_VALUES[:6]])
        frame["seq"] = rng.choice([0, -5, "0", None, 1.5, 2**70])
        frame["key"] = rng.choice(["k", "", "x" * 100, None, 5, "\ud800"])
    if frame["type"] == "chat" or rng.random() < 0.2:
        frame["text"] = rng.choice(ODD_VALUES)
    return json.dumps(frame)


def test_random_and_malformed_frames_never_drop_the_socket_nor_change_the_game(server):
    game, (alice, _bob) = started_game()
    before = Game.objects.values("seq", "state").get(pk=game.pk)
    rng = random.Random(20261123)
    frames = [random_frame(rng) for _ in range(400)]

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, alice)
        answers = []
        for text in frames:
            await ws.send(text)
            await ws.send(json.dumps({"type": "ping"}))
            while True:  # every frame is answered before the ping's pong
                answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if answer["type"] == "pong":
                    break
                answers.append(answer)
        await ws.close()
        return answers

    answers = asyncio.run(scenario())
    assert answers and all(a["type"] in ("error", "state", "chat", "ack") for a in answers)
    assert all(a.get("code") and a.get("message") for a in answers if a["type"] == "error")
    assert Game.objects.values("seq", "state").get(pk=game.pk) == before
    assert not Move.objects.filter(game=game).exists()
    assert all("\x00" not in m.text for m in ChatMessage.objects.filter(game=game))
