"""Pages an audit found wanting: a stale one-click email link, the waiting room's clock, the vacation sentence."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

import rules
from games import services
from games.models import Notification
from rules.ai.autoplay import timeout_action
from tests.factories import UserFactory
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game
from tests.games.tasks.test_email_content import _play_setup


def _turn_rows(game, users) -> tuple[Notification, Notification]:
    """Set-up played, the first player's turn played out: their own (now stale) 'your turn' row and the next
    player's fresh one."""
    _play_setup(game, users)
    first = state_of(game).current
    earlier = Notification.objects.filter(game=game, user=users[first], kind="turn").latest("seq")
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "roll"})
    while state_of(game).phase != "main":  # a 7: the discards and the robber first
        state = state_of(game)
        seat = rules.to_move(state)[0]
        services.move_submit(game_id=game.pk, user=users[seat], action=timeout_action(state, seat, "bot", seed=1))
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "end_turn"})
    fresh = Notification.objects.filter(game=game, user=users[state_of(game).current], kind="turn").latest("seq")
    return earlier, fresh


def _card(response) -> str:
    """The page's own card (the site's header has buttons of its own)."""
    return re.search(r'<div class="card narrow"[^>]*>(.*?)</div>', response.content.decode(), re.S).group(1)


def _says_already_decided(response, game) -> None:
    page = _card(response)
    assert response.status_code == 409 and "already decided" in page, page
    assert 'method="post"' not in page and "<button" not in page
    assert f'href="/games/{game.pk}/"' in page


@pytest.mark.django_db(transaction=True)
def test_a_used_email_link_says_already_decided_on_opening_without_a_button():
    game, users = async_game(humans=3, bots=0)
    earlier, fresh = _turn_rows(game, users)
    link = f"/act/{fresh.action_code}/roll/"
    first = Client().get(link)  # fresh: one button, and nothing played
    assert first.status_code == 200 and 'method="post"' in _card(first) and "<button" in _card(first)
    done = Client().post(link)
    assert done.status_code == 200 and "Done." in done.content.decode()
    _says_already_decided(Client().get(link), game)  # opened again: no button any more
    _says_already_decided(Client().post(link), game)


@pytest.mark.django_db(transaction=True)
def test_an_email_link_the_game_moved_past_says_already_decided_on_opening():
    game, users = async_game(humans=3, bots=0)
    earlier, _fresh = _turn_rows(game, users)
    assert earlier.seq < game.__class__.objects.get(pk=game.pk).seq
    _says_already_decided(Client().get(f"/act/{earlier.action_code}/roll/"), game)
    _says_already_decided(Client().get(f"/act/{earlier.action_code}/end/"), game)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/act/000000000000000000000000/roll/", "/act/nonsense/roll/"])
def test_an_unknown_email_link_says_it_is_invalid_or_expired(path):
    response = Client().get(path)
    page = _card(response)
    assert response.status_code == 404
    assert "This link is invalid or has expired." in page and "Game not found" not in page
    assert "<button" not in page


@pytest.mark.django_db(transaction=True)
def test_a_known_code_with_an_unknown_verb_is_an_invalid_link():
    game, users = async_game(humans=3, bots=0)
    _earlier, fresh = _turn_rows(game, users)
    response = Client().get(f"/act/{fresh.action_code}/fly/")
    assert response.status_code == 404 and "invalid or has expired" in response.content.decode()


def _waiting_room(**kwargs) -> tuple[str, str]:
    """The waiting room of a new game as its host and as a guest sees it (the text of its terms line)."""
    host, guest = UserFactory(), UserFactory()
    game = services.game_create(creator=host, seat_count=3, bot_seats=[2], visibility="private", **kwargs)
    services.seat_join(game_id=game.pk, user=guest, invite=game.invite_token)
    pages = []
    for user in (host, guest):
        client = Client()
        client.force_login(user)
        response = client.get(f"/games/{game.pk}/")
        assert response.status_code == 200 and 'id="waiting-room"' in response.content.decode()
        terms = re.search(r'id="waiting-room".*?</h1>\s*<p[^>]*>(.*?)</p>', response.content.decode(), re.S).group(1)
        pages.append(" ".join(re.sub(r"<[^>]+>", "", terms).split()))
    return pages[0], pages[1]


@pytest.mark.django_db
def test_the_waiting_room_shows_the_live_time_per_turn_to_host_and_guests():
    for terms in _waiting_room(clock="live", turn_seconds=120):
        assert terms == "Catan (base game) · Live · 2 min per turn · Private (invite link)", terms
    for terms in _waiting_room(clock="live", turn_seconds=90):
        assert "· 90 s per turn ·" in terms, terms
    for terms in _waiting_room(clock="live", turn_seconds=None):
        assert terms == "Catan (base game) · Live · Private (invite link)", terms


@pytest.mark.django_db
def test_the_waiting_room_shows_the_time_per_move_of_an_email_game():
    for terms in _waiting_room(clock="async", move_seconds=24 * 3600):
        assert terms == "Catan (base game) · Play by email · 24 h per move · Private (invite link)", terms


AWAY = dt.datetime(2026, 11, 27, 9, 0, tzinfo=dt.UTC)  # "Nov. 27, 2026, 9 a.m." in English


@pytest.mark.django_db
def test_the_vacation_sentence_has_no_double_full_stop_after_a_m(monkeypatch):
    from accounts import vacation
    from games import clocks

    today = AWAY - dt.timedelta(days=2)
    monkeypatch.setattr(clocks, "now", lambda: today)
    monkeypatch.setattr(vacation, "now", lambda: today)
    game, (alice, _bob) = async_game()
    alice.time_zone = "UTC"
    alice.vacation_until = AWAY
    alice.save()
    client = Client()
    client.force_login(alice)
    for path in ("/accounts/profile/", f"/games/{game.pk}/settings/"):
        page = client.get(path).content.decode()
        away = re.search(r'<p id="away-until">(.*?)</p>', page, re.S).group(1)
        assert "9 a.m." in away and "a.m.." not in away and ".." not in away, away
    page = client.get(f"/games/{game.pk}/settings/").content.decode()
    assert "in all your games by email" in page and 'name="vacation_end"' in page
