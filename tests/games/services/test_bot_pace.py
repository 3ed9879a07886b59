"""Bots play at a visible pace outside the person's request, also in-process (`make run`, no broker)."""

from __future__ import annotations

import time

import pytest

import rules
from games import services
from games.models import Game, Move
from tests.games.helpers import first_legal, started_game, state_of


@pytest.mark.django_db(transaction=True)
def test_in_process_bots_answer_after_the_request_one_visible_move_at_a_time(settings):
    settings.BOT_LIVE_DELAY_SECONDS = 0.6
    game, (alice,) = started_game(humans=1, bots=3, bot_level="easy")
    for _ in range(2):  # alice's set-up settlement and road: then the three bots place theirs
        started = time.monotonic()
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
        assert time.monotonic() - started < 0.5  # the request does not wait for the bots
    assert not Move.objects.filter(game=game).exclude(seat=0).exists()
    deadline = time.monotonic() + 60
    while rules.to_move(state_of(game)) != [0] and time.monotonic() < deadline:
        time.sleep(0.1)
    bot_moves = list(Move.objects.filter(game=game).exclude(seat=0).order_by("seq"))
    assert len(bot_moves) == 12  # three bots' two settlements and two roads
    gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(bot_moves, bot_moves[1:], strict=False)]
    assert min(gaps) >= 0.5


def _bot_turn_after_the_roll(game_id: int, seat: int) -> None:
    """A constructed position: `seat` has rolled (no 7) and may trade. The engine's state, written directly, so
    that no bot task is queued for it: the test makes the bot's offer itself."""
    state = rules.load(Game.objects.get(pk=game_id).state)
    state.current, state.phase = seat, "main"
    if not any(state.hands[seat]):  # a set-up settlement by the desert and the sea gives nothing (1 game in ~100)
        state.hands[seat][0] += 1
        state.bank[0] -= 1
    Game.objects.filter(pk=game_id).update(state=rules.dump(state))


@pytest.mark.django_db(transaction=True)
def test_a_person_answering_an_offer_while_a_bot_still_owes_its_reply_starts_no_second_bot_chain(settings):
    """Each committed move that leaves a bot due queues a bot turn. When a person rejects an offer while another
    bot still owes its reply, that second task must not play alongside the first: bots keep one visible pace."""
    settings.BOT_LIVE_DELAY_SECONDS = 0  # the set-up: bots answer at once, inside alice's requests
    game, (alice,) = started_game(humans=1, bots=3, bot_level="easy")
    while state_of(game).phase.startswith("setup"):  # alice's two settlements and roads
        services.move_submit(game_id=game.pk, user=alice, action=first_legal(game, 0))
    assert rules.to_move(state_of(game)) == [0]
    _bot_turn_after_the_roll(game.pk, 1)
    settings.BOT_LIVE_DELAY_SECONDS = 0.6
    hand = state_of(game).hands[1]
    names = ["lumber", "brick", "wool", "grain", "ore"]  # rules.constants.RESOURCES
    give = next(r for r in range(5) if hand[r])
    offer = {"type": "offer_trade", "give": {names[give]: 1}, "get": {names[(give + 1) % 5]: 1}}
    offered = services.move_submit_for_seat(game_id=game.pk, seat=1, action=offer, cause="bot").seq
    # Bot 2 answers after the delay; alice rejects halfway to the next bot move, while bot 3 still owes its reply.
    deadline = time.monotonic() + 30
    while 2 in rules.to_move(state_of(game)) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.25)
    assert set(rules.to_move(state_of(game))) == {0, 3}
    services.move_submit(game_id=game.pk, user=alice, action={"type": "reject_trade"})
    # The bots play on until alice must act alone (her roll, or an answer to a bot's offer).
    quiet_since = time.monotonic()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and time.monotonic() - quiet_since < 2.5:
        if rules.to_move(state_of(game)) != [0]:
            quiet_since = time.monotonic()
        time.sleep(0.1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # nothing more plays after the test
    bot_moves = list(Move.objects.filter(game=game, seq__gt=offered).exclude(seat=0).order_by("seq"))
    assert len(bot_moves) >= 3  # bot 3's reply, then bot 1 settles its offer and plays on
    gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(bot_moves, bot_moves[1:], strict=False)]
    assert min(gaps) >= 0.5, gaps
