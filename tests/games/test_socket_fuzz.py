"""A fuzzer for the game socket, over a real server: random and malformed frames of every message type (bad JSON,
wrong shapes and types, deep nesting, NUL and lone surrogates, huge numbers, oversized frames; reports with odd
reasons and message ids). Each gets an
answer (an error frame, or the normal answer), the socket stays open, and the game does not change."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from games import services
from games.models import ChatMessage, Game, Move
from moderation.models import Report
from tests.games.helpers import started_game
from tests.games.servers import free_port, open_socket, server_env, start_server, stop

pytestmark = pytest.mark.django_db(transaction=True)

ODD_VALUES = [
    None, True, False, 0, -1, 2**64, 1e308, -0.0, "", "x" * 600, "\u0000", "\ud800", "é", [], {}, [[[[[]]]]],
    {"type": None}, {"vertex": "1"}, {"vertex": 1.0}, {"vertex": True}, {"cards": {"wool": -1}}, {"give": []},
]
TYPES = ["move", "sync", "chat", "ping", "report", "report", "teleport", "", None, 7, ["move"]]
ACTION_TYPES = ["build_road", "build_city", "roll", "end_turn", "offer_trade", "discard", "move_robber", "nonsense"]


ANSWER_WAIT = 30  # seconds a frame's answer may take before the test calls it lost
REASONS = ["rude", "", "   ", "bad\u0000x", "\ud800", "bad\udfffx", "r" * 501, "r" * 3000, "é" * 500, "\u0000" * 50]


def random_frame(rng: random.Random, message_ids: list[int]) -> str:
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
    if frame["type"] == "report" or rng.random() < 0.2:
        # A real message (of the other player or one's own), a message of another game, no such message, or no id.
        frame["message_id"] = rng.choice([*message_ids, *message_ids, *ODD_VALUES[:8], 10**12, -1, str(message_ids[0])])
        frame["reason"] = rng.choice([*REASONS, *REASONS, *ODD_VALUES])
        if rng.random() < 0.1:
            del frame["message_id"]
    return json.dumps(frame)


@pytest.fixture
def roomy_server(postgres, redis_channel_layer, redis_url):
    """A real server whose report and chat limits do not stop the fuzzer early: every malformed report reaches the
    checks behind the rate limit (with the default ten reports an hour, most frames would only meet the limit)."""
    port = free_port()
    process = start_server(
        port, {**server_env(redis_url), "RATE_LIMIT_REPORTS_PER_HOUR": "10000", "RATE_LIMIT_CHAT": "10000"}
    )
    yield port
    stop(process)


def test_random_and_malformed_frames_never_drop_the_socket_nor_change_the_game(roomy_server):
    game, (alice, bob) = started_game()
    other_game, (carol, _dave) = started_game()
    theirs = services.chat_post(game_id=game.pk, user=bob, text="hello")
    own = services.chat_post(game_id=game.pk, user=alice, text="hi")
    elsewhere = services.chat_post(game_id=other_game.pk, user=carol, text="hey")
    before = Game.objects.values("seq", "state").get(pk=game.pk)
    rng = random.Random(20261123)
    frames = [random_frame(rng, [theirs.pk, own.pk, elsewhere.pk]) for _ in range(400)]
    assert sum('"type": "report"' in frame for frame in frames) >= 30

    async def scenario() -> list[dict]:
        ws = await open_socket(roomy_server, game.pk, alice)
        answers = []
        for text in frames:
            await ws.send(text)
            await ws.send(json.dumps({"type": "ping"}))
            while True:  # every frame is answered before the ping's pong
                # A frame never answered fails here; the bound is no latency claim (an answer takes 25 ms at most
                # alone), only room for a machine whose two cores the fleet's tests load at the same time.
                answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=ANSWER_WAIT))
                if answer["type"] == "pong":
                    break
                answers.append(answer)
        await ws.close()
        return answers

    answers = asyncio.run(scenario())
    assert answers and all(a["type"] in ("error", "state", "chat", "ack", "reported") for a in answers)
    assert all(a.get("code") and a.get("message") for a in answers if a["type"] == "error")
    assert Game.objects.values("seq", "state").get(pk=game.pk) == before
    assert not Move.objects.filter(game=game).exists()
    assert all("\x00" not in m.text for m in ChatMessage.objects.filter(game=game))
    # A report is stored only for Bob's message, with a reason PostgreSQL could store and at most 500 characters.
    for report in Report.objects.all():
        assert report.message_id == theirs.pk and report.reporter_id == alice.pk and report.game_id == game.pk
        assert 0 < len(report.reason) <= 500 and report.reason.isprintable()
