"""Statistics and replay steps over HTTP, on games played through the real move service: a finished game shows
everything (every seat's cards, every figure); a running game shows its players only their own seat's view, and
its statistics only the public dice."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

import rules
from games import selectors, services
from games.models import Game, Move
from replays.models import GameStatistics
from rules.constants import RESOURCES
from tests.factories import UserFactory
from tests.games.helpers import started_game
from tests.games.test_integrity import finish_game
from tests.greedy import GreedyBot

HIDDEN = ("resources", "development", "development_new")


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def error_code(response) -> str:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    return body["error"]["code"]


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_statistics_and_replay():
    game, (alice,) = finish_game(humans=1, bots=2)
    assert game.status == Game.Status.FINISHED
    stranger = UserFactory()

    response = api(stranger).get(f"/api/games/{game.pk}/stats/")
    assert response.status_code == 200
    stats = response.json()
    assert stats["complete"] and stats["moves"] == game.seq and stats["winner"] == game.winner_seat
    final = rules.load(game.state)
    for seat in stats["seats"]:
        gained, spent, lost = (
            {r: sum(by[r] for by in seat[part].values()) for r in RESOURCES} for part in ("gained", "spent", "lost")
        )
        assert {r: gained[r] - spent[r] - lost[r] for r in RESOURCES} == seat["hand"]
        assert seat["hand"] == dict(zip(RESOURCES, final.hands[seat["seat"]], strict=True))
        assert seat["victory_points"] == rules.victory_points(final, seat["seat"])
    assert stats["victory_points"][-1]["points"] == [rules.victory_points(final, s) for s in range(3)]
    assert stats["dice"] == {str(n): final.dice_history[n] for n in range(2, 13)}
    # Kept, keyed by the move count: the next answer comes from the row.
    kept = GameStatistics.objects.get(game=game)
    assert kept.seq == game.seq
    GameStatistics.objects.filter(game=game).update(data={**kept.data, "turns": -1})
    assert api().get(f"/api/games/{game.pk}/stats/").json()["turns"] == -1

    # The page: charts drawn on the server, in English and in French.
    page = Client().get(f"/games/{game.pk}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    for chart in ("chart-victory-points", "chart-gained", "chart-spent", "chart-lost", "chart-awards", "chart-dice"):
        assert f'data-testid="{chart}"' in html, chart
    assert "Victory points over the turns" in html
    french = Client(headers={"accept-language": "fr"}).get(f"/games/{game.pk}/stats/").content.decode()
    assert "Points de victoire au fil des tours" in french and "Victory points over the turns" not in french

    # The replay: every seat's cards at every step, the log up to the step.
    middle = game.seq // 2
    step = api(stranger).get(f"/api/games/{game.pk}/replay/", {"move": middle}).json()
    assert step["revealed"] and step["viewer"] is None and step["move"] == middle and step["moves"] == game.seq
    assert [entry["seq"] for entry in step["log"]] == list(range(1, middle + 1))
    assert all(all(key in seat for key in HIDDEN) for seat in step["view"]["seats"])
    state = rules.new_game(scenario=game.scenario, players=3, seed=game.seed, options=game.options)
    for move in Move.objects.filter(game=game, seq__lte=middle).order_by("seq"):
        rules.apply(state, move.seat, move.action)
    assert [seat["resources"] for seat in step["view"]["seats"]] == [
        dict(zip(RESOURCES, hand, strict=True)) for hand in state.hands
    ]
    # Private events are shown too once the game is over (drawn cards, stolen cards).
    private = {e["type"] for m in Move.objects.filter(game=game) for e in m.events if "audience" in e}
    shown = {e["type"] for m in api().get(f"/api/games/{game.pk}/replay/").json()["log"] for e in m["events"]}
    assert private <= shown
    # `since` gives the lines after a move only; the first step is the empty board.
    assert [e["seq"] for e in api().get(f"/api/games/{game.pk}/replay/", {"move": 5, "since": 3}).json()["log"]] == [
        4,
        5,
    ]
    start = api().get(f"/api/games/{game.pk}/replay/", {"move": 0}).json()
    assert start["log"] == [] and start["view"]["phase"] == "setup_settlement"


@pytest.mark.django_db(transaction=True)
def test_bad_steps_and_unknown_games_answer_in_the_error_envelope():
    game, (alice,) = finish_game(humans=1, bots=2)
    for params, status, code in [
        ({"move": game.seq + 1}, 404, "bad_move"),
        ({"move": "-1"}, 400, "bad_move"),
        ({"move": "x"}, 400, "bad_move"),
        ({"move": 3, "since": "-2"}, 400, "bad_since"),
    ]:
        response = api(alice).get(f"/api/games/{game.pk}/replay/", params)
        assert response.status_code == status and error_code(response) == code, params
    # From past the move shown: the position, and no log lines.
    step = api(alice).get(f"/api/games/{game.pk}/replay/", {"move": 3, "since": 4}).json()
    assert step["log"] == []
    for path in ("replay", "stats"):
        response = api(alice).get(f"/api/games/999999/{path}/")
        assert response.status_code == 404 and error_code(response) == "not_found"
    assert Client().get("/games/999999/stats/").status_code == 404
    # A private game is not even confirmed to exist to a stranger.
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE)
    response = api(UserFactory()).get(f"/api/games/{game.pk}/replay/")
    assert response.status_code == 404 and error_code(response) == "not_found"
    assert api(alice).get(f"/api/games/{game.pk}/replay/").status_code == 200


def _play_until_others_hide_something(game: Game, users: list, humans: int) -> None:
    """The people (seats below `humans`) play greedily until a bot seat drew a development card or a card was
    stolen between two other seats than the first: the log then holds what seat 0 must never see."""
    me = GreedyBot(3)
    for _ in range(1500):
        moves = Move.objects.filter(game=game)
        hidden = [
            e
            for m in moves
            for e in m.events
            if "audience" in e and 0 not in e["audience"] and e["type"] in ("drew_development", "stolen_card")
        ]
        if len(hidden) >= 2:
            return
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "the game ended before anything was hidden from seat 0"
        state = rules.load(game.state)
        for seat in rules.to_move(state):
            if seat < humans:
                action = me.choose(state, seat, rules.legal_actions(state, seat))
                services.move_submit(game_id=game.pk, user=users[seat], action=action)
                break
    raise AssertionError("nothing was hidden from seat 0")


@pytest.mark.django_db(transaction=True)
def test_a_running_game_replays_only_the_viewer_own_seat():
    game, users = started_game(humans=1, bots=3)
    alice = users[0]
    _play_until_others_hide_something(game, users, humans=1)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    # Every step: seat 0's own cards, never another seat's; no event meant for other seats.
    for move in range(0, game.seq + 1):
        step = api(alice).get(f"/api/games/{game.pk}/replay/", {"move": move, "since": max(move - 1, 0)}).json()
        assert not step["revealed"] and step["viewer"] == 0
        seats = step["view"]["seats"]
        assert all(key in seats[0] for key in ("resources", "development"))
        assert not any(key in seat for seat in seats[1:] for key in HIDDEN), move
        for entry in step["log"]:
            for event in entry["events"]:
                assert "audience" not in event
                assert not (event["type"] == "drew_development" and event["seat"] != 0), event
                assert not (event["type"] == "stolen_card" and 0 not in (event["seat"], event["victim"])), event
    # The last step is exactly the live game's own view of that seat (one redaction, the live one).
    game.refresh_from_db()
    last = api(alice).get(f"/api/games/{game.pk}/replay/").json()
    assert last["view"] == selectors.game_view(Game.objects.get(pk=game.pk), alice)["view"]

    # Spectators of a running game get no replay; its statistics are the public dice alone.
    response = api(UserFactory()).get(f"/api/games/{game.pk}/replay/")
    assert response.status_code == 403 and error_code(response) == "not_a_player"
    assert api().get(f"/api/games/{game.pk}/replay/").status_code == 403
    stats = api(alice).get(f"/api/games/{game.pk}/stats/").json()
    assert set(stats) == {"complete", "players", "dice"} and not stats["complete"]
    assert stats["dice"] == last["view"]["dice_history"]
    page = Client().get(f"/games/{game.pk}/stats/").content.decode()
    assert 'data-testid="chart-dice"' in page and 'data-testid="chart-gained"' not in page
    assert not GameStatistics.objects.filter(game=game).exists()
