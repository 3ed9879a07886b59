"""Fair dice that are really fair: bots draw from their own secret, never from the dice seed; after the end the
whole log is published and checks with the engine alone (every event of every move, so every chance outcome:
dice, development cards, steals, fog); a failed replay says so instead of an error page; a malformed log gets a
clear message and exit code 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

import rules
from games.models import Game, Move
from rules.ai import autoplay
from rules.chance import seed_commitment
from rules.tools.fairlog import verify_log
from tests.games.helpers import started_game
from tests.games.test_integrity import finish_game
from tests.greedy import GreedyBot

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
    command = [sys.executable, "-m", "rules.tools.fairlog", str(path)]
    checked = subprocess.run(command, capture_output=True, text=True, env=env)
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr
    rolled = next(m for m in log["moves"] if any(e["type"] == "rolled" for e in m["events"]))
    # Other dice than those rolled (a first roll of double six is one game in 36).
    rolled["events"] = [
        dict(e, dice=[1, 1] if e["dice"] == [6, 6] else [6, 6]) if e["type"] == "rolled" else e
        for e in rolled["events"]
    ]
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


def engine_log(seed: int = 20261125, moves: int = 1500) -> dict:
    """A log as GET /api/games/{id}/log/ publishes it, played by the engine alone (three greedy bots)."""
    options = {"board": "beginner", "seat_order": "fixed"}
    state = rules.new_game(scenario="base", players=3, seed=seed, options=options)
    bot = GreedyBot(seed)
    played = []
    for seq in range(1, moves + 1):
        if state.winner is not None:
            break
        seat = rules.to_move(state)[0]
        action = bot.choose(state, seat, rules.legal_actions(state, seat))
        events = json.loads(json.dumps(rules.apply(state, seat, action)))  # as stored: JSON
        played.append({"seq": seq, "seat": seat, "action": action, "events": events})
    return {
        "game": 1,
        "scenario": "base",
        "players": 3,
        "options": options,
        "commitment": seed_commitment(seed),
        "seed": str(seed),
        "moves": played,
    }


def run_fairlog(tmp_path: Path, content: str) -> subprocess.CompletedProcess:
    path = tmp_path / "log.json"
    path.write_text(content)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # the engine alone: no Django settings
    command = [sys.executable, "-m", "rules.tools.fairlog", str(path)]
    return subprocess.run(command, capture_output=True, text=True, env=env)


def tamper(log: dict, kind: str, change) -> int:
    """Change the first `kind` event of the log in place; the seq of its move."""
    for move in log["moves"]:
        for index, event in enumerate(move["events"]):
            if event["type"] == kind:
                move["events"][index] = change(dict(event))
                return move["seq"]
    raise AssertionError(f"no {kind} event in the log")


def other(value: str, among: list[str]) -> str:
    return next(v for v in among if v != value)


def test_an_untouched_log_verifies_event_for_event(tmp_path):
    log = engine_log()
    kinds = {event["type"] for move in log["moves"] for event in move["events"]}
    assert {"rolled", "drew_development", "stolen_card"} <= kinds
    assert verify_log(log)["ok"]
    checked = run_fairlog(tmp_path, json.dumps(log))
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    "kind, change",
    [
        ("drew_development", lambda e: {**e, "card": other(e["card"], ["knight", "monopoly", "victory_point"])}),
        ("stolen_card", lambda e: {**e, "resource": other(e["resource"], ["brick", "ore", "wool"])}),
        ("stole", lambda e: {**e, "victim": (e["victim"] + 1) % 3}),
        ("produced", lambda e: {**e, "seat": (e.get("seat", 0) + 1) % 3}),
    ],
)
def test_tampering_any_chance_outcome_fails_verification(tmp_path, kind, change):
    log = engine_log()
    seq = tamper(log, kind, change)
    result = verify_log(log)
    assert not result["ok"] and result["mismatches"][0]["seq"] == seq
    checked = run_fairlog(tmp_path, json.dumps(log))
    assert checked.returncode == 1 and "VERIFICATION FAILED" in checked.stdout, checked.stdout + checked.stderr


def test_an_event_dropped_or_added_fails_verification():
    log = engine_log()
    move = next(m for m in log["moves"] if any(e["type"] == "drew_development" for e in m["events"]))
    move["events"] = [e for e in move["events"] if e["type"] != "drew_development"]
    assert not verify_log(log)["ok"]
    log = engine_log()
    log["moves"][5]["events"].append({"type": "rolled", "seat": 0, "dice": [6, 6]})
    assert not verify_log(log)["ok"]


def test_the_server_s_own_notes_before_a_move_s_events_are_not_mismatches():
    """A standing order's or a timeout's move starts with the server's note of why it was made; the rest must
    replay exactly."""
    log = engine_log()
    log["moves"][3]["events"][:0] = [
        {"type": "timeout", "seat": 1, "policy": "replace"},
        {"type": "seat_replaced", "seat": 1, "bot": "hard"},
    ]
    log["moves"][4]["events"][:0] = [{"type": "standing_order", "seat": 2}]
    assert verify_log(log)["ok"]
    log["moves"][6]["events"].append({"type": "standing_order", "seat": 2})  # after the engine's events: not a note
    assert not verify_log(log)["ok"]


@pytest.mark.parametrize(
    "content, says",
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a game log"),
        (json.dumps({"seed": "1"}), "missing"),
        ("MOVES_NOT_OBJECTS", "move 1"),
        ("MOVE_WITHOUT_ACTION", "move 1"),
        ("SEED_NOT_A_NUMBER", "seed"),
        ("EVENTS_NOT_A_LIST", "move 1"),
    ],
)
def test_a_malformed_log_gets_a_clear_message_and_exit_code_2(tmp_path, content, says):
    log = engine_log(moves=20)
    if content == "MOVES_NOT_OBJECTS":
        log["moves"][0] = "roll"
        content = json.dumps(log)
    elif content == "MOVE_WITHOUT_ACTION":
        del log["moves"][0]["action"]
        content = json.dumps(log)
    elif content == "SEED_NOT_A_NUMBER":
        log["seed"] = "abc"
        content = json.dumps(log)
    elif content == "EVENTS_NOT_A_LIST":
        log["moves"][0]["events"] = {"type": "rolled"}
        content = json.dumps(log)
    checked = run_fairlog(tmp_path, content)
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert "Traceback" not in checked.stderr and says in checked.stdout + checked.stderr


def test_a_missing_file_gets_a_clear_message_and_exit_code_2(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "rules.tools.fairlog", str(tmp_path / "nowhere.json")]
    checked = subprocess.run(command, capture_output=True, text=True, env=env)
    assert checked.returncode == 2 and "Traceback" not in checked.stderr and "nowhere.json" in checked.stdout


@pytest.mark.django_db(transaction=True)
def test_the_commitment_hides_the_seed_behind_a_secret_salt_revealed_with_it(tmp_path):
    """The seed has 62 bits (the engine's), too few to stay hidden behind a bare hash: 2^62 SHA-256 guesses
    would give every future roll. The commitment hashes the seed with a 128-bit salt, published with the seed."""
    game, (alice, _bob) = started_game()
    game.refresh_from_db()
    assert len(game.seed_salt) == 32 and int(game.seed_salt, 16) >= 0
    assert game.seed_commitment == seed_commitment(game.seed, game.seed_salt) != seed_commitment(game.seed)
    client = Client()
    client.force_login(alice)
    during = client.get(f"/api/games/{game.pk}/", HTTP_ACCEPT="application/json").json()
    assert during["seed"] is None and during["seed_salt"] is None
    assert game.seed_salt not in json.dumps(during)

    finished, _users = finish_game()
    finished.refresh_from_db()
    log = Client().get(f"/api/games/{finished.pk}/log/").json()
    assert log["salt"] == finished.seed_salt and log["commitment"] == finished.seed_commitment
    assert verify_log(log)["ok"]
    assert run_fairlog(tmp_path, json.dumps(log)).returncode == 0
    shown = Client().get(f"/games/{finished.pk}/verify/").content.decode()
    assert finished.seed_salt in shown
    log["salt"] = "0" * 32
    result = verify_log(log)
    assert not result["ok"] and not result["commitment_ok"]
