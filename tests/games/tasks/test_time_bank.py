"""Clocks that fit games lasting days: a time bank per seat, one clock per turn, each person owing a decision
with their own deadline, all settled on the same tick, and a whole turn played in one go when time runs out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

import rules
from accounts import vacation
from games import clocks, services
from games.models import Game, Move, Seat
from rules import chance
from tests.games.helpers import state_of
from tests.games.tasks.conftest import HOUR
from tests.games.tasks.conftest import async_game as email_game


def _seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


@pytest.mark.django_db
def test_a_turn_runs_on_one_clock_and_quick_answers_fill_the_bank(clock):
    game, (alice, bob) = email_game()
    first = _seat(game, 0).deadline
    assert first == clock.now + dt.timedelta(hours=1)
    clock.advance(minutes=10)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert _seat(game, 0).deadline == first  # her road is the same turn: no fresh hour
    clock.advance(minutes=5)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    alice_seat = _seat(game, 0)
    assert alice_seat.deadline is None and alice_seat.bank_seconds == HOUR - 15 * 60  # 15 minutes spent
    assert _seat(game, 1).deadline == clock.now + dt.timedelta(hours=1)
    game.refresh_from_db()
    assert game.deadline == _seat(game, 1).deadline
    # Next time she is asked, an hour is added to what she saved, up to three hours in the bank.
    state = state_of(game)
    seats = {s.index: s for s in game.seats.select_related("user")}
    seats[0].bank_seconds = 3 * HOUR - 60
    clocks.deadline_for(game, state, seats)  # Bob answers (leaves), nobody else is asked yet
    state.current = 0
    state.phase = "main"
    assert clocks.deadline_for(game, state, seats) == clock.now + dt.timedelta(hours=3)  # capped at three


@pytest.mark.django_db
def test_everyone_owing_a_decision_has_a_deadline_and_all_are_settled_on_one_tick(clock):
    game, (alice, bob, carol) = email_game(humans=3, bots=0)
    state = rules.load(Game.objects.get(pk=game.pk).state)
    state.phase, state.current = "discard", 0
    state.discards_owed = [0, 4, 4]
    state.hands[1] = state.hands[2] = [2, 2, 2, 1, 1]
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))
    Seat.objects.filter(game=game).update(due_since=None, deadline=None)
    game.refresh_from_db()
    seats = {s.index: s for s in game.seats.select_related("user")}
    clocks.deadline_for(game, state, seats)  # Bob and Carol are now asked
    assert _seat(game, 1).deadline and _seat(game, 2).deadline and _seat(game, 0).deadline is None
    Game.objects.filter(pk=game.pk).update(deadline=_seat(game, 1).deadline)
    clock.advance(hours=2)
    assert services.tick(game.pk) == "timeout:bot"
    assert set(Move.objects.filter(game=game, cause="timeout").values_list("seat", flat=True)) == {1, 2}
    assert state_of(game).discards_owed == [0, 0, 0]


@pytest.mark.django_db
def test_vacation_everywhere_from_a_game_page_is_the_account_s_and_back_early_here_restarts_this_clock(
    clock, monkeypatch
):
    """The game page's "In all my games by email" box starts the account-wide vacation (the profile page's), which
    holds games joined later too; the game page shows it and offers to come back in this game alone."""
    monkeypatch.setattr(vacation, "now", clock)
    game, (alice, bob) = email_game()
    other, (carol, _dave) = email_game()
    Seat.objects.filter(game=other, user=carol).update(user=alice)
    client = Client()
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/settings/", {"vacation": "1", "days": "3", "everywhere": "1"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.vacation_until == clock.now + dt.timedelta(days=3)
    for seat in (_seat(game, 0), _seat(other, 0)):  # her clocks wait for her return, everywhere
        assert seat.deadline == clock.now + dt.timedelta(days=3, hours=1)
    assert client.get(f"/api/games/{game.pk}/", HTTP_ACCEPT="application/json").json()["seats"][0]["vacation_until"]
    page = client.get(f"/games/{game.pk}/settings/").content.decode()
    assert 'id="away-until"' in page and "in all your games by email" in page and 'name="vacation_end"' in page
    clock.advance(days=1)
    assert client.post(f"/games/{game.pk}/settings/", {"vacation_end": "1"}).status_code == 302
    assert _seat(game, 0).deadline == clock.now + dt.timedelta(hours=1)  # back here, with her hour
    assert _seat(other, 0).deadline == clock.now + dt.timedelta(days=2, hours=1)  # still away there
    assert 'id="away-until"' not in client.get(f"/games/{game.pk}/settings/").content.decode()
    game.refresh_from_db()
    assert game.deadline == _seat(game, 0).deadline


@pytest.mark.django_db
def test_a_vacation_in_this_game_and_back_early_gives_the_unused_days_back(clock):
    game, (alice, _bob) = email_game()
    client = Client()
    client.force_login(alice)
    assert client.post(f"/games/{game.pk}/settings/", {"vacation": "1", "days": "3"}).status_code == 302
    seat = _seat(game, 0)
    assert seat.vacation_until and seat.deadline == clock.now + dt.timedelta(days=3, hours=1)
    assert "until" in client.get(f"/games/{game.pk}/settings/").content.decode()
    clock.advance(days=1)
    assert client.post(f"/games/{game.pk}/settings/", {"vacation_end": "1"}).status_code == 302
    seat = _seat(game, 0)
    assert seat.vacation_until is None and seat.deadline == clock.now + dt.timedelta(hours=1)
    assert seat.vacation_used_seconds == 86400  # the two unused days are hers again


DISCARD = {"type": "discard", "cards": {"lumber": 2, "brick": 2}}


def _seven_due(policy: str = "bot"):
    """A three-player email game past its set-up, Alice (seat 0) to roll a 7 that makes Bob and Carol discard."""
    game, users = email_game(humans=3, bots=0, policy=policy)
    while state_of(game).turn == 0:
        state = state_of(game)
        seat = rules.to_move(state)[0]
        services.move_submit(game_id=game.pk, user=users[seat], action=rules.legal_actions(state, seat)[0])
    state = state_of(game)
    assert (state.phase, state.current) == ("roll", 0)
    state.hands[0], state.hands[1], state.hands[2] = [1, 0, 0, 0, 0], [2, 2, 2, 1, 1], [2, 2, 2, 1, 1]
    state.stream = next(s for s in range(1000) if sum(chance.two_dice(s)[1:]) == 7)
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))
    return game, users


def _discard(game: Game, users: list) -> None:
    for seat in (1, 2):
        services.move_submit(game_id=game.pk, user=users[seat], action=DISCARD)


@pytest.mark.django_db
def test_the_bank_is_credited_once_per_turn_not_again_after_the_discards(clock):
    game, users = _seven_due()
    bank = _seat(game, 0).bank_seconds
    clock.advance(minutes=10)
    services.move_submit(game_id=game.pk, user=users[0], action={"type": "roll"})  # a 7: Bob and Carol discard
    assert _seat(game, 0).bank_seconds == bank - 600 and _seat(game, 0).deadline is None
    clock.advance(minutes=5)
    _discard(game, users)
    assert state_of(game).phase == "robber"
    alice = _seat(game, 0)
    # Her turn goes on: no second hour for the same turn, her clock runs again with what is left.
    assert alice.bank_seconds == bank - 600
    assert alice.deadline == clock.now + dt.timedelta(seconds=bank - 600)
    # Bob's own turn is another turn: his bank gets its hour again.
    bob = _seat(game, 1).bank_seconds
    while state_of(game).current == 0:
        state = state_of(game)
        end = next((a for a in rules.legal_actions(state, 0) if a["type"] == "end_turn"), None)
        services.move_submit(game_id=game.pk, user=users[0], action=end or rules.legal_actions(state, 0)[0])
    assert _seat(game, 1).bank_seconds == min(bob + HOUR, 3 * HOUR)


@pytest.mark.django_db
@pytest.mark.parametrize("policy", ["bot", "skip"])
def test_a_timed_out_turn_is_finished_at_once_when_its_seat_is_due_again(clock, policy):
    """The timeout rolled a 7; once the others have discarded, the robber is played on the next tick, with no
    new period for the absent player."""
    game, users = _seven_due(policy)
    clock.advance(hours=4)  # past her whole bank
    assert services.tick(game.pk) == f"timeout:{policy}"
    state = state_of(game)
    assert state.phase == "discard" and rules.to_move(state) == [1, 2]
    bank = _seat(game, 0).bank_seconds
    clock.advance(minutes=20)
    _discard(game, users)
    assert state_of(game).phase == "robber"
    alice = _seat(game, 0)
    assert alice.deadline == clock.now and alice.bank_seconds == bank  # due at once: no fresh hour
    game.refresh_from_db()
    assert game.deadline == clock.now
    assert services.tick(game.pk) == f"timeout:{policy}"
    state = state_of(game)
    assert state.current == 1 and state.phase == "roll"  # the whole turn was played
    assert _seat(game, 0).deadline is None
    robber = Move.objects.filter(game=game, seat=0, cause="timeout", action__type="move_robber")
    assert robber.count() == 1


@pytest.mark.django_db
def test_a_replaced_seat_is_never_given_a_period_again(clock):
    game, users = _seven_due("replace")
    clock.advance(hours=4)
    assert services.tick(game.pk) == "timeout:replace"
    _discard(game, users)
    seat = _seat(game, 0)
    game.refresh_from_db()
    assert seat.user_id is None and seat.bot and seat.deadline is None
    assert game.bot_turn_since is not None and game.deadline is None  # the bot plays the robber, nobody waits


@pytest.mark.django_db
def test_the_rest_of_a_timed_out_turn_is_played_as_soon_as_the_discards_are_in(
    clock, django_capture_on_commit_callbacks
):
    """Not a minute later at beat's next tick: the last discard's commit queues the timeout of the seat whose
    time was already spent, and its robber and the end of its turn follow at once."""
    game, users = _seven_due("bot")
    clock.advance(hours=4)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.tick(game.pk) == "timeout:bot"
    assert state_of(game).phase == "discard"
    clock.advance(minutes=20)
    with django_capture_on_commit_callbacks(execute=True):
        _discard(game, users)
    state = state_of(game)
    assert state.current == 1 and state.phase == "roll", (state.current, state.phase)
    assert Move.objects.filter(game=game, seat=0, cause="timeout", action__type="move_robber").count() == 1
    game.refresh_from_db()
    assert game.deadline is not None and game.deadline > clock.now  # Bob's turn, on his own clock
