"""Fair dice that are really fair: bots draw from their own secret, never from the dice seed; after the end the
whole log is published and checks with the engine alone; a failed replay says so instead of an error page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

import rules
from games import autoplay
from games.models import Game, Move
from tests.games.helpers import started_game
from tests.games.test_integrity import finish_game

ROOT = Path(__file__).resolve().parents[2]


def test_bot_choices_carry_no_information_about_the_dice_seed():
    options = {"board": "beginner", "seat_order": "fixed"}
    secret = "0123456789abcdef0123456789abcdef"

    def choices(dice_seed: int, bot_secret: str) -> list:
        state = rules.new_game(scenario="base", players=4, seed=dice_seed, options=options)
        played = []
        for seq in range(16):  # the whole set-up, four easy bots
            seat = rules.to_move(state)[0]
            action = autoplay.bot_action(
                state, seat, "easy", seed=autoplay.bot_seed(bot_secret, seq, seat), time_limit=None
            )
            rules.apply(state, seat, action)
            played.append(action)
        return played

    # The same bot secret with any dice seed: the same choices. The dice seed does not reach the bots at all.
    assert choices(1, secret) == choices(2**61 + 12345, secret) == choices(7, secret)
    # Another bot secret: other choices. What the bots do depends on their own secret alone.
    assert choices(1, secret) != choices(1, "f" * 32)


@pytest.mark.django_db(transaction=True)
def test_the_finished_game_s_log_checks_with_the_engine_alone(tmp_path):
    game, (alice,) = finish_game()
    client = Client()
    response = client.get(f"/api/games/{game.pk}/log/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    log = response.json()
    assert log["seed"] == str(game.seed) and len(log["moves"]) == game.seq
    assert all("action" in move for move in log["moves"])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    # A fresh interpreter with only the engine: no Django settings, no database.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "rules.fairlog", str(path)]
    checked = subprocess.run(command, capture_output=True, text=True, env=env)
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr
    rolled = next(m for m in log["moves"] if any(e["type"] == "rolled" for e in m["events"]))
    rolled["events"] = [dict(e, dice=[6, 6]) if e["type"] == "rolled" else e for e in rolled["events"]]
    path.write_text(json.dumps(log))
    tampered = subprocess.run(command, capture_output=True, text=True, env=env)
    assert tampered.returncode == 1 and "FAILED" in tampered.stdout


@pytest.mark.django_db(transaction=True)
def test_a_replay_that_breaks_says_verification_failed_not_an_error_page():
    game, _users = finish_game()
    first = Move.objects.filter(game=game).order_by("seq").first()
    Move.objects.filter(pk=first.pk).update(action={"type": "build_city", "vertex": 0})  # cannot replay
    page = Client().get(f"/games/{game.pk}/verify/")
    assert page.status_code == 200 and "Verification failed" in page.content.decode()


@pytest.mark.django_db
def test_the_log_is_not_published_before_the_end():
    game, _users = started_game()
    assert Client().get(f"/api/games/{game.pk}/log/").status_code == 409
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
