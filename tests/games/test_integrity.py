"""Prove it holds: concurrent moves, idempotent retries, provably fair dice, no hidden information in any
payload, rate limits, and the security settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

import rules
from games import outbox, selectors, services
from games.fairness import verify
from games.models import Game, Move
from infra.errors import GameError
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.greedy import GreedyBot

ROOT = Path(__file__).resolve().parents[2]


def race(*calls):
    """Run the calls at the same moment on separate threads (separate database connections)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # collected for the assertions
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_conflicting_moves_at_once_apply_exactly_one(postgres):
    game, (alice, _) = started_game()
    legal = rules.legal_actions(state_of(game), 0)
    results = race(
        lambda: services.move_submit(game_id=game.pk, user=alice, action=legal[0], expected_seq=0),
        lambda: services.move_submit(game_id=game.pk, user=alice, action=legal[1], expected_seq=0),
    )
    applied = [r for r in results if isinstance(r, services.MoveResult)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "stale" and refused[0].status == 409
    assert Move.objects.filter(game=game).count() == 1 and Game.objects.get(pk=game.pk).seq == 1


@pytest.mark.django_db(transaction=True)
def test_a_retried_move_with_the_same_key_is_applied_once(postgres):
    game, (alice, _) = started_game()
    action = rules.legal_actions(state_of(game), 0)[0]
    results = race(
        *[
            lambda: services.move_submit(game_id=game.pk, user=alice, action=action, idempotency_key="same")
            for _ in range(3)
        ]
    )
    assert all(isinstance(r, services.MoveResult) for r in results), results
    assert {r.seq for r in results} == {1} and sum(r.duplicate for r in results) == 2
    assert Move.objects.filter(game=game).count() == 1


def finish_game(humans=1, bots=2):
    game, users = started_game(humans=humans, bots=bots)
    me = GreedyBot(3)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = rules.load(game.state)
        for seat in rules.to_move(state):
            if seat < humans:
                action = me.choose(state, seat, rules.legal_actions(state, seat))
                services.move_submit(game_id=game.pk, user=users[seat], action=action)
                break
    game.refresh_from_db()
    return game, users


@pytest.mark.django_db(transaction=True)
def test_provably_fair_dice_replay_confirms_every_roll():
    game, (alice,) = finish_game()
    assert game.status == Game.Status.FINISHED
    result = verify(game)
    assert result["ok"] and result["commitment_ok"] and result["final_state_ok"] and len(result["rolls"]) > 10
    assert selectors.game_view(game, alice)["seed"] == str(game.seed)
    page = Client().get(f"/games/{game.pk}/verify/")
    assert page.status_code == 200 and b"rolls verified" in page.content
    call_command("verify_game", str(game.pk), stdout=open(os.devnull, "w"))
    # A tampered roll is caught.
    move = next(
        m for m in Move.objects.filter(game=game).order_by("seq") if any(e["type"] == "rolled" for e in m.events)
    )
    # Other dice than those rolled (a first roll of double six is one game in 36).
    events = [
        dict(e, dice=[1, 1] if e["dice"] == [6, 6] else [6, 6]) if e["type"] == "rolled" else e for e in move.events
    ]
    Move.objects.filter(pk=move.pk).update(events=events)
    assert not verify(game)["ok"] and verify(game)["mismatches"][0]["seq"] == move.seq


@pytest.mark.django_db
def test_the_seed_stays_secret_until_the_end():
    game, (alice, _) = started_game()
    assert selectors.game_view(game, alice)["seed"] is None
    assert verify(game)["verifiable"] is False
    assert game.seed_commitment == rules.chance.seed_commitment(game.seed, game.seed_salt)


SECRET_KEYS = {"seed", "stream", "deck", "hidden_terrain", "hidden_tokens", "token_bag", "hands", "setup_order"}


def assert_no_leak(payload, viewer: int | None) -> None:
    """No other seat's cards, no deck order, seed or hidden stacks anywhere in what `viewer` receives."""
    text = json.dumps(payload)
    for key in SECRET_KEYS:
        assert f'"{key}":' not in text.replace('"seed": null', "").replace('"seed_commitment"', ""), key
    views = []
    if isinstance(payload, dict):
        views = [payload.get("view")] if "view" in payload else []
    for view in views:
        if not view:
            continue
        over = view["phase"] == "game_over"
        for facts in view["seats"]:
            own = facts["seat"] == viewer
            assert ("resources" in facts) == own and ("development" in facts) == own
            assert ("victory_point_cards" in facts) == (own or over)
        for h in view["board"].get("hexes", []):
            if h["terrain"] == "fog":
                assert h["token"] is None
    for event in payload.get("events", []) if isinstance(payload, dict) else []:
        assert "audience" not in event
        if event["type"] in ("stolen_card", "drew_development"):
            assert viewer in (event.get("seat"), event.get("victim"))


SCENARIO_SEATS = [("base", 4)] + [
    (key, max(rules.scenarios.load_map(key)["players"])) for key in rules.scenarios.map_keys()
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("scenario", "players"), SCENARIO_SEATS)
def test_no_payload_carries_hidden_information(scenario, players, monkeypatch):
    captured: list[tuple[str, dict]] = []
    original = outbox._send_all
    monkeypatch.setattr(
        outbox, "_send_all", lambda messages: (captured.extend(messages), original(messages))
    )
    game, users = started_game(humans=2, bots=players - 2, scenario=scenario)
    bot = GreedyBot(5)
    clients = {0: Client(), 1: Client(), None: Client()}
    clients[0].force_login(users[0])
    clients[1].force_login(users[1])
    for turn in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = rules.load(game.state)
        human = [s for s in rules.to_move(state) if s < 2]
        if not human:
            break
        seat = human[0]
        services.move_submit(
            game_id=game.pk, user=users[seat], action=bot.choose(state, seat, rules.legal_actions(state, seat))
        )
        if turn % 4:
            continue
        for viewer, client in clients.items():
            assert_no_leak(client.get(f"/api/games/{game.pk}/").json(), viewer)
            for move in client.get(f"/api/games/{game.pk}/moves/").json()["moves"][-5:]:
                assert_no_leak({"events": move["events"]}, viewer)
    moves = [event for _, event in captured if event["type"] == "game.frames"]
    assert moves
    for event in moves:
        assert set(event["frames"]) == {*map(str, range(players)), "public"}
        for key, text in event["frames"].items():
            assert_no_leak(json.loads(text), None if key == "public" else int(key))


@pytest.mark.django_db
def test_moves_and_chat_are_rate_limited_per_user(settings):
    settings.RATE_LIMITS = {"moves": 3, "chat": 2}
    from django.core.cache import cache

    cache.clear()
    game, (alice, bob) = started_game()
    for _ in range(3):
        with pytest.raises(GameError) as caught:
            services.move_submit(game_id=game.pk, user=alice, action={"type": "roll"})
        assert caught.value.code != "rate_limited"
    with pytest.raises(GameError) as caught:
        services.move_submit(game_id=game.pk, user=alice, action={"type": "roll"})
    assert caught.value.code == "rate_limited" and caught.value.status == 429
    services.chat_post(game_id=game.pk, user=bob, text="one")
    services.chat_post(game_id=game.pk, user=bob, text="two")
    with pytest.raises(GameError) as caught:
        services.chat_post(game_id=game.pk, user=bob, text="three")
    assert caught.value.status == 429


@pytest.mark.django_db
def test_forms_are_csrf_protected():
    user = UserFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post("/games/new/", {"scenario": "base", "seat_count": 4, "bots": 3}).status_code == 403
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_login_is_throttled_against_password_guessing(client):
    from django.core.cache import cache

    cache.clear()
    UserFactory(username="target", password="the right one")
    for i in range(5):
        client.post("/accounts/login/", {"login": "target", "password": f"wrong{i}"})
    # Past five failures the account is locked for a while, even for the right password.
    response = client.post("/accounts/login/", {"login": "target", "password": "the right one"})
    assert b"Too many failed login attempts" in response.content
    assert "_auth_user_id" not in client.session


def test_check_deploy_is_clean_under_production_settings():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 20 + "production-secret-" + "y" * 30 + "!@#$%^&*",
        "ALLOWED_HOSTS": "catan.example.com",
        "SECURE_SSL_REDIRECT": "true",
        "BEHIND_PROXY": "true",
        "SITE_URL": "https://catan.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
