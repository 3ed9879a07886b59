"""Through the server: a person's counter-offer to a bot's offer is answered by the bot (played by the real bot
driver, games.services.bots) with an accept or a reject on its merits, never by withdrawing the offer
(issue 27, item 5). The bots' other trading manners are tested in tests/rules/test_ai_trading_manners.py."""

from __future__ import annotations

import pytest

import rules
from games import services
from games.models import Game, Move
from tests.games.helpers import first_legal, started_game, state_of


def _bot_turn_with_hands(game_id: int, seat: int, hands: dict[int, list[int]]) -> None:
    """A constructed position: `seat` has rolled (no 7) and may trade, with these hands (the bank holds the
    rest). Written directly, so that no bot task is queued for it: the test makes the bot's offer itself."""
    state = rules.load(Game.objects.get(pk=game_id).state)
    state.current, state.phase = seat, "main"
    for holder, hand in hands.items():
        state.hands[holder] = list(hand)
    state.bank = [19 - sum(hand[r] for hand in state.hands) for r in range(5)]
    Game.objects.filter(pk=game_id).update(state=rules.dump(state))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("counter", "answer"),
    [
        ({"give": {"ore": 1}, "get": {"grain": 1, "lumber": 1}}, "confirm_trade"),  # two cards for one
        ({"give": {"ore": 2, "wool": 1}, "get": {"grain": 1}}, "reject_counter"),  # three cards for one
    ],
)
def test_a_bot_answers_a_persons_counter_offer_with_accept_or_reject(counter, answer):
    game, (alice,) = started_game(humans=1, bots=3, bot_level="medium")
    while state_of(game).phase.startswith("setup"):  # alice's set-up; the bots place theirs in between
        services.move_submit(game_id=game.pk, user=alice, action=first_legal(game, 0))
    _bot_turn_with_hands(game.pk, 1, {1: [1, 1, 1, 0, 2], 0: [2, 0, 0, 2, 0]})
    offer = {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}, "to": [0]}
    offered = services.move_submit_for_seat(game_id=game.pk, seat=1, action=offer, cause="bot").seq
    # Alice counters through the service; the bot's answer is played at once by the bot driver.
    services.move_submit(game_id=game.pk, user=alice, action={"type": "counter_trade", **counter})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # nothing more plays after the test
    after = list(Move.objects.filter(game=game, seq__gt=offered + 1).order_by("seq")[:1])
    assert after and after[0].seat == 1 and after[0].cause == "bot"
    assert after[0].action == {"type": answer, "seat": 0}
    kinds = [e["type"] for e in after[0].events]
    if answer == "confirm_trade":
        assert after[0].events == [{"type": "traded", "seat": 1, "partner": 0, **counter}]
    else:
        # The only one asked said no, so the offer closes with the bot's reply: no withdrawal follows.
        assert kinds == ["trade_reply", "trade_closed"] and after[0].events[0]["reply"] == "reject"
        assert not Move.objects.filter(game=game, action__type="cancel_trade").exists()
