"""'Since your last turn' in the email runs from the end of the reader's last turn: moves they made out of turn
meanwhile (a discard after someone's 7, a reply to a trade offer) do not restart it (issue 18, item 9)."""

from __future__ import annotations

import pytest

import rules
from games import services
from games.mail import notifications
from games.models import Game, Notification
from rules import chance
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game
from tests.games.tasks.test_play_by_email import body

DISCARD = {"type": "discard", "cards": {"lumber": 2, "brick": 2}}


def _set(game: Game, **changes) -> None:
    state = state_of(game)
    for name, value in changes.items():
        setattr(state, name, value)
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))


def _roll(game: Game, user, seven: bool) -> int:
    stream = next(s for s in range(1000) if (sum(chance.two_dice(s)[1:]) == 7) == seven)
    _set(game, stream=stream)
    services.move_submit(game_id=game.pk, user=user, action={"type": "roll"})
    return sum(chance.two_dice(stream)[1:])


def _until_main(game: Game, user, seat: int) -> None:
    """The roller's own follow-ups (the robber, a theft) until the turn is theirs to build in."""
    while state_of(game).phase != "main":
        state = state_of(game)
        services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])


def _reject(game: Game, user, seat: int) -> None:
    action = next(a for a in rules.legal_actions(state_of(game), seat) if "reject" in a["type"])
    services.move_submit(game_id=game.pk, user=user, action=action)


@pytest.mark.django_db
def test_discards_and_trade_replies_out_of_turn_do_not_restart_since_your_last_turn(smtp, clock):
    game, (alice, bob, carol) = email_game(humans=3, bots=0)
    while state_of(game).turn == 0:
        state = state_of(game)
        seat = rules.to_move(state)[0]
        user = (alice, bob, carol)[seat]
        services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])
    _roll(game, alice, seven=False)
    services.move_submit(game_id=game.pk, user=alice, action={"type": "end_turn"})  # her last turn ends here
    bob_rolled = _roll(game, bob, seven=False)
    services.move_submit(game_id=game.pk, user=bob, action={"type": "end_turn"})
    # Carol rolls a 7: Alice and Bob discard out of turn; then Carol offers a trade they both answer.
    _set(game, hands=[[2, 2, 2, 1, 1], [2, 2, 2, 1, 1], [1, 1, 1, 1, 1]])
    _roll(game, carol, seven=True)
    services.move_submit(game_id=game.pk, user=bob, action=DISCARD)
    services.move_submit(game_id=game.pk, user=alice, action=DISCARD)
    _until_main(game, carol, 2)
    offer = {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}
    _set(game, hands=[[0, 0, 2, 1, 1], [0, 0, 2, 1, 1], [1, 1, 1, 1, 1]])
    services.move_submit(game_id=game.pk, user=carol, action=offer)
    _reject(game, alice, 0)
    _reject(game, bob, 1)
    services.move_submit(game_id=game.pk, user=carol, action={"type": "end_turn"})
    assert state_of(game).current == 0
    row = Notification.objects.filter(game=game, user=alice).latest("seq")
    assert notifications.send(row.pk) == "sent"
    text = body(smtp.to(alice.email)[-1])
    assert "Since your last turn" in text
    # Everything since her turn ended, the moves before her own discard and reply included.
    assert f"{bob.label} rolled {bob_rolled}." in text
    assert f"{carol.label} rolled 7." in text
    assert f"{bob.label} discarded" in text
