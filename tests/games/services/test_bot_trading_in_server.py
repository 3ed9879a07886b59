"""Medium bots trade considerately inside the server (issue 27, items 4 and 5): whole games of a person against three
medium bots, played through the server's own roads (each bot move by `bot_play_once`, reading the seat's view and
the game's stored events from the database as in production; each of the person's moves by `move_submit`).

Every stored move is replayed on a shadow state and watched by the rules tests' judge: an offer to the person asks
only for cards the offering seat cannot know the person lacks, none is made twice in a turn, a refused resource
is not asked for again that turn, at most one offer waits for the person at a time, and a counter-offer is
answered by accepting or rejecting it. The replay also proves the stored moves are the game: the shadow state
ends equal to the server's."""

from __future__ import annotations

import os

import pytest

import rules
from games import services
from games.models import Game, Move
from games.services import lobby
from games.services.bots import bot_play_once
from tests.factories import UserFactory
from tests.rules import test_ai_trading_manners as manners
from tests.rules.test_ai_trading_manners import Judge, Person, eager_offers

MOST_MOVES = 4000  # a game that never ends fails the test rather than hanging it
PERSON = 0  # the game's creator; the judge and the person of the rules tests are told so (monkeypatch below)


def play_through_the_server(seed: int, monkeypatch) -> Judge:
    """One whole game, the same for the same `seed`: its board, dice and bots' choices."""
    person = UserFactory()
    bots = [seat for seat in range(4) if seat != PERSON]
    game = services.game_create(
        creator=person, seat_count=4, bot_seats=bots, bot_level="medium", options={"seat_order": "fixed"}
    )
    Game.objects.filter(pk=game.pk).update(bot_secret=f"secret-{seed}")
    with monkeypatch.context() as patch:
        patch.setattr(lobby.secrets, "randbits", lambda bits: seed)
        services.game_start(game_id=game.pk, user=person)
    game.refresh_from_db()
    shadow = rules.load(game.state)
    judge = Judge(shadow)
    answers = Person(seed)
    seen = game.seq
    for _ in range(MOST_MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = rules.load(game.state)
        movers = rules.to_move(state)
        assert movers, "an active game with no one to move"
        if movers[0] == PERSON:
            action = answers.choose(state, rules.legal_actions(state, PERSON))
            services.move_submit(game_id=game.pk, user=person, action=action, expected_seq=game.seq)
        else:
            assert bot_play_once(game.pk, game.seq), "a bot had to move and did not"
        for move in Move.objects.filter(game=game, seq__gt=seen).order_by("seq"):
            if move.seat != PERSON:
                judge.before(shadow, move.seat, move.action)
            events = rules.apply(shadow, move.seat, move.action)
            judge.after(shadow, move.events)
            assert events == move.events, f"move {move.seq} stored other events than it makes"
            seen = move.seq
    else:
        raise AssertionError(f"game {game.pk} did not end within {MOST_MOVES} moves")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert rules.dump(shadow) == rules.dump(rules.load(game.state))
    return judge


# More games by hand: TRADING_SEEDS=$(seq -s, 1 40) (40 games, ~4 minutes).
SEEDS = [int(seed) for seed in os.environ.get("TRADING_SEEDS", "1,2,3").split(",")]


@pytest.mark.django_db
def test_medium_bots_in_the_server_trade_considerately_with_a_person(settings, monkeypatch):
    monkeypatch.setattr(manners, "PERSON", PERSON)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 100_000}
    offers, answers = 0, []
    with eager_offers():
        for seed in SEEDS:
            judge = play_through_the_server(seed, monkeypatch)
            offers += judge.offers_to_person
            answers += judge.counters_answered
            print(f"seed {seed}: {judge.offers_to_person} offers to the person, answers {judge.counters_answered}")
    assert offers >= 5  # the games did put the manners to the test
    assert answers, "no counter-offer was answered"
