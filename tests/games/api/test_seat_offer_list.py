"""Issue 26, finding 9a: a person sees only the seat offers they can still take, over the API and on "My games":
not taken, not expired, not replaced by a later offer of the same seat, for a seat no person holds, in a game
still running. Taking one that is not live is refused with a clear code and changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, Seat, SeatOffer
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _offer(game: Game, index: int, user, hours: float = 2) -> SeatOffer:
    return SeatOffer.objects.create(
        seat=game.seats.get(index=index), user=user, expires_at=timezone.now() + timedelta(hours=hours)
    )


def _listed(user) -> list[int]:
    response = _api(user).get("/api/seat-offers/")
    assert response.status_code == 200
    return sorted(offer["id"] for offer in response.json())


def _on_my_games(user) -> list[int]:
    client = Client()
    client.force_login(user)
    page = client.get("/games/").content.decode()
    return sorted(int(i) for i in re.findall(r'name="offer" value="(\d+)"', page))


def test_only_live_offers_are_listed_and_the_others_cannot_be_taken():
    game, _players = started_game(humans=2, bots=2)  # seats 2 and 3 are bots'
    dave, carol = UserFactory(), UserFactory()
    live = _offer(game, 2, dave)
    expired = _offer(game, 3, dave, hours=-1)
    replaced = _offer(game, 3, dave)
    newer = _offer(game, 3, carol)  # the same seat offered to Carol since
    over_game, _others = started_game(humans=1, bots=2)
    ended = _offer(over_game, 1, dave)
    Game.objects.filter(pk=over_game.pk).update(status=Game.Status.FINISHED)
    assert _listed(dave) == [live.pk] and _on_my_games(dave) == [live.pk]
    assert _listed(carol) == [newer.pk] and _on_my_games(carol) == [newer.pk]
    for offer, code, status in (
        (expired, "offer_expired", 410),
        (replaced, "offer_superseded", 410),
        (ended, "seat_taken", 409),
    ):
        response = _api(dave).post("/api/seat-offers/", {"offer": offer.pk}, format="json")
        assert response.status_code == status and response.json()["error"]["code"] == code, response.json()
    assert Seat.objects.get(game=game, index=3).user is None and Seat.objects.get(game=over_game, index=1).bot
    # Taken: gone from the list. A seat a person took since is gone from the others' lists too.
    erin = UserFactory()
    also_seat_two = _offer(game, 2, erin)
    assert _listed(dave) == [] and _listed(erin) == [also_seat_two.pk]
    response = _api(erin).post("/api/seat-offers/", {"offer": also_seat_two.pk}, format="json")
    assert response.status_code == 200 and Seat.objects.get(game=game, index=2).user == erin
    assert _listed(erin) == [] and _on_my_games(erin) == []
    response = _api(dave).post("/api/seat-offers/", {"offer": live.pk}, format="json")
    assert response.status_code == 410 and response.json()["error"]["code"] == "offer_superseded"
