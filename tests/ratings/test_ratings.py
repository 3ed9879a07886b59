"""Ratings: each finished game updates OpenSkill ratings once, in the move's own transaction, exactly as the library
computes them (the expected figures come from openskill itself here); leavers count as last; bot levels are on
the ladder; live and email play are rated apart; a voided game's effect is taken off and later games rated again."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import transaction
from django.test import override_settings
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

import rules
from games import services
from games.models import Game, Seat
from games.signals import game_finished
from ratings.models import Rating, RatingChange
from ratings.services import void_game
from tests.factories import UserFactory
from tests.games.helpers import started_game
from tests.greedy import GreedyBot

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_end(game: Game, users: list, humans: int, stop=None) -> Game:
    """Seats below `humans` play greedily through the move service (bots play on their own) until the game ends,
    or until `stop(game)` says so."""
    me = GreedyBot(3)
    # A whole game as fast as the server takes it: far past a person's moves a minute (the rate limit).
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "moves": 0}):
        return _play(game, users, humans, stop, me)


def _play(game: Game, users: list, humans: int, stop, me: GreedyBot) -> Game:
    for _ in range(4000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (stop is not None and stop(game)):
            break
        state = rules.load(game.state)
        for seat in rules.to_move(state):
            if seat < humans and users[seat] is not None:
                action = me.choose(state, seat, rules.legal_actions(state, seat))
                services.move_submit(game_id=game.pk, user=users[seat], action=action)
                break
    game.refresh_from_db()
    return game


def expected_places(state: rules.State, seats: list[int], left: list[int] = ()) -> list[int]:
    """Written apart from the service: the winner first, then by victory points; leavers last."""
    staying = [s for s in seats if s not in left]
    key = {s: (s == state.winner, rules.victory_points(state, s)) for s in staying}
    return [len(staying) + 1 if s in left else 1 + sum(key[o] > key[s] for o in staying) for s in seats]


def openskill_figures(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    teams = model.rate([[model.rating(mu=m, sigma=s)] for m, s in before], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in teams]


def test_a_finished_game_rates_people_and_the_bot_level_as_openskill_does():
    game, users = started_game(humans=3, bots=1, bot_level=Seat.Bot.MEDIUM)
    game = play_to_end(game, users, humans=3)
    assert game.status == Game.Status.FINISHED
    state = rules.load(game.state)
    model = PlackettLuce()
    expected = openskill_figures([(model.mu, model.sigma)] * 4, expected_places(state, [0, 1, 2, 3]))
    for seat, (mu, sigma) in enumerate(expected):
        rating = Rating.objects.get(user=users[seat], mode="live") if seat < 3 else Rating.objects.get(bot="medium")
        assert rating.mu == pytest.approx(mu) and rating.sigma == pytest.approx(sigma)
        assert rating.games == 1 and rating.wins == (seat == state.winner)
    assert RatingChange.objects.filter(game=game).count() == 4
    assert not Rating.objects.filter(mode="async").exists()

    # Through the API: the player's rating with its history, and the leaderboard (bots listed apart).
    body = APIClient().get(f"/api/players/{users[0].username}/ratings/").json()
    live = body["ratings"][0]
    assert live["mode"] == "live" and live["games"] == 1 and len(live["history"]) == 1
    assert live["mu"] == pytest.approx(expected[0][0], abs=1e-3)
    assert live["history"][0]["game"] == game.pk
    board = APIClient().get("/api/ratings/", {"mode": "live"}).json()
    assert board["players"] == [] and board["min_games"] == 5  # one game each: not enough to be listed
    assert [b["bot"] for b in board["bots"]] == ["medium"]
    response = APIClient().get("/api/ratings/", {"mode": "chess"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_mode"
    response = APIClient().get("/api/players/nobody-at-all/ratings/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"

    # The pages: the player's chart, and the profile's summary with a link to it.
    leaderboard = APIClient().get("/ratings/").content.decode()
    assert 'data-bot="medium"' in leaderboard and users[0].username not in leaderboard
    french = APIClient(headers={"accept-language": "fr"}).get("/ratings/?mode=async").content.decode()
    assert "Classement général" in french and 'data-bot="medium"' not in french
    page = APIClient().get(f"/players/{users[0].username}/").content.decode()
    assert 'data-testid="chart-rating"' in page and f"/games/{game.pk}/stats/" in page
    client = APIClient()
    client.force_login(users[0])
    profile = client.get("/accounts/profile/").content.decode()
    assert 'id="ratings-summary"' in profile and f"/players/{users[0].username}/" in profile


def test_a_person_who_left_counts_as_last_and_email_play_is_rated_apart():
    game, users = started_game(humans=2, bots=2, clock=Game.Clock.ASYNC, move_seconds=86400)
    # Bob plays the set-up and a few turns, then his seat goes to a bot (a timeout's "replace": an abandonment).
    game = play_to_end(game, users, humans=2, stop=lambda g: g.seq > 60)
    with transaction.atomic():
        services.seat_hand_to_bot(seat=Seat.objects.select_for_update().get(game=game, index=1))
    game = play_to_end(game, [users[0], None], humans=1)
    assert game.status == Game.Status.FINISHED
    state = rules.load(game.state)
    rows = {row.seat: row for row in RatingChange.objects.filter(game=game).select_related("rating")}
    # Seat 1's bot took over from a person: it is not rated; Bob is, in last place.
    assert rows[1].rating.user == users[1] and rows[1].left and not rows[1].won
    assert RatingChange.objects.filter(game=game).count() == 4
    places = expected_places(state, [0, 1, 2, 3], left=[1])
    assert rows[1].place == 4 == places[1]
    model = PlackettLuce()
    expected = openskill_figures([(model.mu, model.sigma)] * 4, places)
    assert Rating.objects.get(user=users[1]).mu == pytest.approx(expected[1][0])
    assert Rating.objects.get(user=users[0]).mu == pytest.approx(expected[0][0])
    # Play by email: rated apart from live play.
    assert set(Rating.objects.values_list("mode", flat=True)) == {"async"}


def test_voiding_a_game_takes_its_effect_off_and_rates_later_games_again():
    alice, bob = UserFactory(), UserFactory()
    finished = []
    for _ in range(2):
        game = services.game_create(
            creator=alice, seat_count=3, bot_seats=[2], options={"seat_order": "fixed"}, bot_level=Seat.Bot.EASY
        )
        services.seat_join(game_id=game.pk, user=bob, invite=game.invite_token)
        services.game_start(game_id=game.pk, user=alice)
        finished.append(play_to_end(game, [alice, bob], humans=2))
    first, second = finished
    assert first.status == second.status == Game.Status.FINISHED
    # Rated only once, whatever sends the signal again.
    game_finished.send(sender=Game, game=first, state=rules.load(first.state))
    assert RatingChange.objects.filter(game=first).count() == 3
    moderator = UserFactory()

    assert void_game(first, moderator) == 3
    assert all(row.voided_by == moderator for row in RatingChange.objects.filter(game=first))
    # Now every rating is what the second game alone gives from the start.
    state = rules.load(second.state)
    model = PlackettLuce()
    expected = openskill_figures([(model.mu, model.sigma)] * 3, expected_places(state, [0, 1, 2]))
    for seat, rating in enumerate(
        [Rating.objects.get(user=alice), Rating.objects.get(user=bob), Rating.objects.get(bot="easy")]
    ):
        assert rating.mu == pytest.approx(expected[seat][0]) and rating.sigma == pytest.approx(expected[seat][1])
        assert rating.games == 1 and rating.wins == (seat == state.winner)
    row = RatingChange.objects.get(game=second, seat=0)
    assert (row.mu_before, row.sigma_before) == (pytest.approx(model.mu), pytest.approx(model.sigma))
    history = APIClient().get(f"/api/players/{alice.username}/ratings/").json()["ratings"][0]["history"]
    assert [entry["game"] for entry in history] == [second.pk]
    # A game voided twice, or never rated, says so.
    with pytest.raises(Exception, match="not_rated"):
        void_game(first, moderator)
