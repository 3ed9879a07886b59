"""Issue 42: where one game's notices go, chosen on that game's settings page (linked from the game page) as a plain
form (no script needed, CSRF-checked), by its seated player only; the profile lists every game's choice."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games import services
from games.mail import notifications, push
from games.models import Notification, Seat
from tests.factories import UserFactory


def _browser(user, language: str = "en") -> Client:
    """A browser that sends the CSRF token as a form does (the test client skips the check unless told)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def _email_game(user, **kwargs):
    return services.game_create(
        creator=user, seat_count=3, bot_seats=[1, 2], clock="async", move_seconds=3600, **kwargs
    )


def _choose(client: Client, game_id: int, choice: str):
    page = client.get(f"/games/{game_id}/settings/").content.decode()
    data = {"csrfmiddlewaretoken": _token(page), "notices": "1", "notify_by": choice}
    return client.post(f"/games/{game_id}/settings/", data)


@pytest.mark.django_db
def test_the_game_page_links_to_the_notices_of_this_game_a_labelled_group_of_choices():
    user = UserFactory()
    game = _email_game(user)
    services.game_start(game_id=game.pk, user=user)
    client = _browser(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/settings/"' in page and "Notices, orders, vacation, report" in page
    page = client.get(f"/games/{game.pk}/settings/").content.decode()
    # A fieldset whose legend names the group; each choice a radio button with its own label.
    assert re.search(r"<fieldset[^>]*>\s*<legend[^>]*>Notices for this game:?</legend>", page), page
    for value, label in [
        ("", "As my profile says (By email)"),
        ("email", "By email"),
        ("push", "By push notification"),
        ("both", "By email and push notification"),
        ("none", "No notices for this game"),
    ]:
        found = re.search(rf'<label for="(id_notify_by_\d)"><input type="radio" name="notify_by" value="{value}"', page)
        assert found and label in page, (value, label)
    assert re.search(r'<input type="radio" name="notify_by" value=""[^>]*checked', page)
    assert '<p role="status" id="notices-status"></p>' in page


@pytest.mark.django_db
def test_a_player_saves_where_this_games_notices_go_and_is_told_saved():
    user = UserFactory()
    game = _email_game(user)
    client = _browser(user)
    response = _choose(client, game.pk, "push")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/settings/?saved=notices#notices"
    assert Seat.objects.get(game=game, user=user).notify_by == "push"
    page = client.get(response["Location"]).content.decode()
    assert '<p role="status" id="notices-status">Saved.</p>' in page
    assert re.search(r'<input type="radio" name="notify_by" value="push"[^>]*checked', page)
    assert _choose(client, game.pk, "").status_code == 302  # back to the profile's choice
    assert Seat.objects.get(game=game, user=user).notify_by == ""


@pytest.mark.django_db
def test_in_french_too():
    user = UserFactory(language="fr")
    game = _email_game(user)
    client = _browser(user, "fr")
    page = client.get(f"/games/{game.pk}/settings/").content.decode()
    assert "Avis pour cette partie" in page and "Aucun avis pour cette partie" in page
    assert "Comme le dit mon profil (Par e-mail)" in page
    response = _choose(client, game.pk, "none")
    page = client.get(response["Location"]).content.decode()
    assert '<p role="status" id="notices-status">Enregistré.</p>' in page


@pytest.mark.django_db
def test_a_post_without_the_csrf_token_changes_nothing():
    user = UserFactory()
    game = _email_game(user)
    response = _browser(user).post(f"/games/{game.pk}/settings/", {"notices": "1", "notify_by": "none"})
    assert response.status_code == 403
    assert Seat.objects.get(game=game, user=user).notify_by == ""


@pytest.mark.django_db
def test_only_the_seated_player_changes_their_own_choice():
    owner, spectator = UserFactory(), UserFactory()
    game = _email_game(owner)
    client = _browser(spectator)
    page = client.get(f"/games/{game.pk}/settings/")
    assert page.status_code == 403 and "Only the players of this game can change its settings" in page.content.decode()
    token = _token(client.get("/accounts/profile/").content.decode())
    data = {"csrfmiddlewaretoken": token, "notices": "1", "notify_by": "none"}
    assert client.post(f"/games/{game.pk}/settings/", data).status_code == 403
    assert list(Seat.objects.filter(game=game).values_list("notify_by", flat=True)) == ["", "", ""]
    private = _email_game(owner, visibility="private")
    assert client.post(f"/games/{private.pk}/settings/", data).status_code == 404
    anonymous = Client().post(f"/games/{game.pk}/settings/", {"notices": "1", "notify_by": "none"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert _choose(_browser(owner), game.pk, "pigeon").status_code == 200  # not a choice: the form says so
    assert Seat.objects.get(game=game, user=owner).notify_by == ""


@pytest.mark.django_db
def test_the_profile_lists_each_games_choice_with_a_link_to_change_it():
    user = UserFactory()
    first, second = _email_game(user, name="Harbour run"), _email_game(user, name="Long road")
    _choose(_browser(user), second.pk, "both")
    page = _browser(user).get("/accounts/profile/").content.decode()
    assert f'<a href="/games/{first.pk}/settings/#notices">Harbour run</a>:\nas my profile says' in page
    assert f'<a href="/games/{second.pk}/settings/#notices">Long road</a>:\nBy email and push notification' in page


@pytest.mark.django_db(transaction=True)
def test_none_for_one_game_writes_no_notice_of_it_and_others_go_as_before(mailoutbox):
    user = UserFactory(email="reader-none@example.com")
    quiet, other = _email_game(user), _email_game(user)
    _choose(_browser(user), quiet.pk, "none")
    seat = Seat.objects.get(game=quiet, user=user)
    assert not push.wants_email(user, seat) and not push.wants_push(user, seat)
    services.game_start(game_id=quiet.pk, user=user)  # their turn first, in both
    services.game_start(game_id=other.pk, user=user)
    notifications.flush()
    assert not Notification.objects.filter(game=quiet).exists()
    assert Notification.objects.filter(game=other, user=user, sent_at__isnull=False).exists()
    assert len([m for m in mailoutbox if user.email in m.to]) == 1


@pytest.mark.django_db(transaction=True)
def test_none_chosen_while_a_notice_waits_drops_it(mailoutbox):
    user = UserFactory(email="reader-later@example.com")
    game = _email_game(user)
    user.quiet_start, user.quiet_end = dt.time(0, 0), dt.time(23, 59)  # held by quiet hours: still unsent
    user.save(update_fields=["quiet_start", "quiet_end"])
    services.game_start(game_id=game.pk, user=user)
    row = Notification.objects.get(game=game, user=user)
    assert row.sent_at is None
    _choose(_browser(user), game.pk, "none")
    Notification.objects.filter(pk=row.pk).update(send_after=row.created_at)
    notifications.send(row.pk)
    row.refresh_from_db()
    assert row.sent_at is None and row.dropped_at is not None
    assert [m for m in mailoutbox if user.email in m.to] == []
