"""One email per decision after a timeout, and 'Since your last turn' that never repeats an earlier email.

A timeout and the decision that follows it are one email: it says what the timeout played, then what to decide
(issue "Play by email", item 8: at most one pending email per player and game). 'Since your last turn' runs from
the end of the reader's previous turn, whoever played it (the person, a timeout, a link in an email), and never
lists again what an earlier email to them already told (item 9)."""

from __future__ import annotations

import pytest

import rules
from games import services
from games.mail import notifications
from games.models import Game, Notification
from games.services.email_actions import decide_from_email
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game

SEED = 1
TIMED_OUT = "Your time ran out, so this was played for you:"


def _text(message) -> str:
    return message.body


def _since(text: str) -> list[str]:
    """The lines under 'Since your last turn:'."""
    lines = text.split("Since your last turn:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line[2:] for line in lines if line.startswith("- ")]


def _played_for_you(text: str) -> list[str]:
    if TIMED_OUT not in text:
        return []
    lines = text.split(TIMED_OUT + "\n", 1)[1].splitlines()
    out = []
    for line in lines:
        if not line.startswith("- "):
            break
        out.append(line[2:])
    return out


def _to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if user.email in m.to]


@pytest.mark.django_db(transaction=True)
def test_a_timed_out_turn_and_the_next_turn_are_one_email(clock, mailoutbox):
    """Alice's set-up turn times out; the bots play theirs and it is hers again, all in the same moment: one
    email, which says first what was played for her, then what to do now."""
    game, (alice,) = email_game(humans=1, bots=2)
    assert len(_to(mailoutbox, alice)) == 1  # "Your turn" at the start
    mailoutbox.clear()
    clock.advance(minutes=61)
    assert services.tick(game.pk) == "timeout:bot"
    assert rules.to_move(state_of(game)) == [0]  # the bots played: her second set-up turn
    notifications.flush()
    mails = _to(mailoutbox, alice)
    assert len(mails) == 1, [m.subject for m in mails]
    text = _text(mails[0])
    assert "Your turn" in mails[0].subject
    played = _played_for_you(text)
    assert played == [f"{alice.label} built a settlement.", f"{alice.label} built a road."]
    assert text.index(TIMED_OUT) < text.index("Place your settlement and its road.")
    assert "Please play before" in text
    timeout = Notification.objects.get(game=game, user=alice, kind="timeout")
    assert timeout.sent_at is None and timeout.dropped_at is not None
    # What happened since her (timed out) turn ended: the bots' four set-up turns, not her own moves again.
    since = _since(text)
    assert len(since) == 8 and not any(alice.label in line for line in since), since


@pytest.mark.django_db(transaction=True)
def test_a_timeout_email_already_sent_is_not_repeated_by_the_next_one(clock, mailoutbox):
    """Bob, a person, is to move after Alice's timeout: her timeout email goes at once. When her turn comes
    again, that email says nothing again: no timeout, no line it already listed."""
    game, (alice, bob) = email_game(humans=2, bots=1)
    mailoutbox.clear()
    clock.advance(minutes=61)
    assert services.tick(game.pk) == "timeout:bot"
    first = _to(mailoutbox, alice)
    assert len(first) == 1 and "Your time ran out" in first[0].subject
    assert len(_played_for_you(_text(first[0]))) == 2
    while state_of(game).current != 0:
        state = state_of(game)
        assert rules.to_move(state) == [1]
        services.move_submit(game_id=game.pk, user=bob, action=rules.legal_actions(state, 1)[0])
    notifications.flush()
    mails = _to(mailoutbox, alice)
    assert len(mails) == 2, [m.subject for m in mails]
    text = _text(mails[1])
    assert "Your turn" in mails[1].subject and TIMED_OUT not in text
    since = _since(text)
    # Bob's two set-up turns and the bot's two, nothing from before.
    assert len(since) == 8 and not any(alice.label in line or "ran out" in line for line in since), since


@pytest.mark.django_db(transaction=True)
def test_since_your_last_turn_starts_after_the_last_email_whoever_played(clock, mailoutbox, monkeypatch):
    """Three emails to Alice: after a timed-out set-up turn, after a timed-out first turn, and after she rolled
    from the second email's link. Each lists only what the one before did not. (A fixed board, dice and bots:
    the bots' first turns end with her roll to make, not with an offer or a 7 to answer.)"""
    monkeypatch.setattr("games.services.lobby.secrets.randbits", lambda bits: SEED)
    game, (alice,) = email_game(humans=1, bots=2)
    Game.objects.filter(pk=game.pk).update(bot_secret="fixed")
    mailoutbox.clear()
    clock.advance(minutes=61)
    assert services.tick(game.pk) == "timeout:bot"
    notifications.flush()
    first = _to(mailoutbox, alice)
    assert len(first) == 1
    first_since = _since(_text(first[0]))
    assert len(first_since) == 8 and all(" built a " in line for line in first_since), first_since
    mailoutbox.clear()
    clock.advance(minutes=61)
    assert services.tick(game.pk) == "timeout:bot"  # her second set-up turn and her whole first turn
    notifications.flush()
    second = _to(mailoutbox, alice)
    assert len(second) == 1, [m.subject for m in second]
    text = _text(second[0])
    assert len(_played_for_you(text)) >= 3  # settlement, road, roll (and whatever the bot built)
    second_since = _since(text)
    # The bots' first turns only: their set-up lines went in the first email, hers are 'played for you'.
    assert not any(alice.label in line or "built a settlement" in line for line in second_since), second_since
    assert any(line.startswith("Bot 2 rolled") for line in second_since), second_since
    row = Notification.objects.filter(game=game, user=alice, kind="turn", sent_at__isnull=False).latest("seq")
    mailoutbox.clear()
    decide_from_email(code=row.action_code, verb="roll")
    notifications.flush()
    third = _to(mailoutbox, alice)  # a roll leaves the rest of her turn to her: one email says so
    assert len(third) == 1, [m.subject for m in third]
    third_since = _since(_text(third[0]))
    assert third_since and third_since[0].startswith(f"{alice.label} rolled"), third_since
    assert not any(line.startswith(("Bot 2 rolled", "Bot 3 rolled")) for line in third_since), third_since


@pytest.mark.django_db
def test_a_timeout_notice_while_a_decision_email_waits_is_merged_into_it(clock, mailoutbox):
    """The other way round: the decision email (not sent yet) stays, the timeout notice is folded into it."""
    game, (alice, _bob) = email_game()
    turn = Notification.objects.get(game=game, user=alice, kind="turn")
    assert turn.sent_at is None  # no commit in this test: nothing was sent yet
    notifications.create_single(game, alice, Notification.Kind.TIMEOUT)
    timeout = Notification.objects.get(game=game, user=alice, kind="timeout")
    assert timeout.dropped_at is not None
    notifications.flush()
    mails = _to(mailoutbox, alice)
    assert len(mails) == 1 and "Your turn" in mails[0].subject
