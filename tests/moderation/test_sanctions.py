"""Sanctions on people: bans and suspensions, what they take away, what they give back when they end."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

import rules
from games import clocks, selectors, services
from games.models import Game, Notification, SeatOffer
from moderation import services as moderation
from moderation.models import Report
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.moderation.helpers import api, last_audit

pytestmark = pytest.mark.django_db


def test_a_banned_user_is_refused_by_the_api_and_cannot_log_in(moderator, client):
    game, (alice, bob) = started_game(clock="async", move_seconds=3600)
    moderation.user_restrict(moderator=moderator, user=alice, reason="cheating")
    alice.refresh_from_db()
    assert alice.banned and not alice.is_active and last_audit().action == "user_banned"
    assert not client.login(username=alice.username, password="correct horse battery")
    token_client = APIClient()
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=alice)
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert token_client.post(
        f"/api/games/{game.pk}/moves/", {"action": {"type": "roll"}}, format="json"
    ).status_code in (
        401,
        403,
    )
    # Alice was to move: a bot plays her seat, kept for her, with no clock running and no mail.
    seat = game.seats.get(index=0)
    assert seat.user is None and seat.bot and seat.held_for == alice
    assert Game.objects.get(pk=game.pk).deadline is None


def test_a_quick_suspension_never_downgrades_a_ban_and_the_card_shows_it(moderator, client):
    """Item 3."""
    game, (alice, bob) = started_game()
    moderation.user_restrict(moderator=moderator, user=bob, reason="cheating")
    report = services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    client.force_login(moderator)
    assert "Banned" in client.get("/moderation/").content.decode()
    client.post("/moderation/", {"report": report.pk, "action": "suspend", "reason": "rude", "days": 7})
    bob.refresh_from_db()
    assert bob.banned and bob.suspended_until is None and not bob.is_active
    assert Report.objects.get(pk=report.pk).status == "actioned"


def test_a_suspension_hands_seats_to_a_bot_and_offers_them_back_when_it_ends(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Items 1 and 2: no deadline or mail for the suspended seat; the seat is offered back and the person told;
    the page shows no past 'Suspended until'."""
    game, (alice, bob) = started_game(clock="async", move_seconds=3600)
    moderation.user_restrict(moderator=moderator, user=alice, reason="spam", days=1)
    seat = game.seats.get(index=0)
    assert seat.user is None and seat.held_for == alice and seat.deadline is None
    assert Game.objects.get(pk=game.pk).deadline is None
    assert not alice.notifications.filter(game=game, sent_at__isnull=True, dropped_at__isnull=True).exists()
    type(alice).objects.filter(pk=alice.pk).update(suspended_until=game.created_at)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert moderation.lift_expired_suspensions() == 1
    (told,) = [m for m in mailoutbox if m.to == [alice.email]]
    assert "suspension is over" in told.subject and "1 running game" in told.body and "/games/" in told.body
    client.force_login(moderator)
    assert "Suspended until" not in client.get(f"/moderation/users/{alice.pk}/").content.decode()
    offer = SeatOffer.objects.get(user=alice, seat=seat)
    services.seat_offer_accept(offer_id=offer.pk, user=alice)
    assert game.seats.get(index=0).user == alice
    alice.refresh_from_db()
    assert alice.games_abandoned == 0


def test_a_suspended_person_logging_in_is_told_where_to_read_why(moderator, client):
    """Item 4: the log-in page no longer just says "inactive"."""
    _game, (alice, _bob) = started_game()
    moderation.user_restrict(moderator=moderator, user=alice, reason="spam", days=3)
    response = client.post(
        "/accounts/login/", {"login": alice.username, "password": "correct horse battery"}, follow=True
    )
    page = response.content.decode()
    assert "suspended or banned" in page and "moderation record" in page


def test_a_sanction_email_names_the_appeal_address_set_for_the_site(
    moderator, settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.MODERATION_APPEAL_EMAIL = "appeals@catan.example"
    game, (alice, bob) = started_game()
    with django_capture_on_commit_callbacks(execute=True):
        moderation.user_warn(moderator=moderator, user=bob, reason="rude in chat")
    to_bob = next(m for m in mailoutbox if m.to == [bob.email])
    assert "appeals@catan.example" in to_bob.body


def test_a_suspension_takes_the_person_out_of_waiting_lobbies_and_no_game_mail_reaches_them(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Item 2, waiting games: the suspended person's lobby seat is freed (their own lobby is cancelled) and they
    are told; the game then starts without them, and no game email is written for them."""
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    lobby = services.game_create(
        creator=alice, seat_count=3, bot_seats=[2], clock="async", move_seconds=3600, options={"seat_order": "fixed"}
    )
    services.seat_join(game_id=lobby.pk, user=bob)
    own = services.game_create(creator=bob, seat_count=3)
    client.force_login(moderator)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/moderation/users/{bob.pk}/", {"action": "suspend", "days": 3, "reason": "spam"})
    assert not lobby.seats.filter(user=bob).exists() and Game.objects.get(pk=lobby.pk).status == "waiting"
    assert Game.objects.get(pk=own.pk).status == "cancelled"
    told = next(m for m in mailoutbox if m.to == [bob.email])
    assert "2 games waiting for players" in told.body
    services.seat_join(game_id=lobby.pk, user=carol)
    services.game_start(game_id=lobby.pk, user=alice)
    assert not Notification.objects.filter(user=bob).exists()
    assert Notification.objects.filter(user=carol, kind="started").exists()


def test_no_game_email_is_written_for_an_inactive_account(moderator):
    """Item 2, the guard: an account that cannot log in gets no 'started' and no 'Your turn' mail."""
    alice, dave = UserFactory(), UserFactory()
    game = services.game_create(
        creator=alice, seat_count=3, bot_seats=[2], clock="async", move_seconds=3600, options={"seat_order": "fixed"}
    )
    services.seat_join(game_id=game.pk, user=dave)
    type(dave).objects.filter(pk=dave.pk).update(is_active=False)  # e.g. deactivated in the admin
    services.game_start(game_id=game.pk, user=alice)
    for _ in range(2):  # alice's set-up: then dave (seat 1) must act
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert 1 in rules.to_move(state_of(game))
    assert not Notification.objects.filter(user=dave).exists()


def test_an_accepted_offer_back_removes_the_abandonment_and_the_person_is_told(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Item 5, undo: replace, offer back, accept leaves no abandonment; the person offered the seat hears of it
    by email in their language and once on the site."""
    game, (alice, bob) = started_game()
    type(bob).objects.filter(pk=bob.pk).update(language="fr")
    client.force_login(moderator)
    client.post(f"/moderation/games/{game.pk}/", {"action": "replace_seat", "player": bob.pk, "reason": "afk"})
    bob.refresh_from_db()
    assert bob.games_abandoned == 1
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/moderation/games/{game.pk}/", {"action": "offer_back", "seat": 1, "reason": "a mistake"})
    told = next(m for m in mailoutbox if m.to == [bob.email])
    assert "place" in told.subject and "place 2" in told.body and "/games/" in told.body
    client.force_login(bob)
    assert "vous propose la place 2" in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "vous propose la place 2" not in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()  # once
    offer = SeatOffer.objects.get(user=bob)
    client.post("/games/", {"offer": offer.pk})
    assert game.seats.get(index=1).user == bob
    bob.refresh_from_db()
    assert bob.games_abandoned == 0 and selectors.reliability(bob)["abandoned"] == 0
    assert last_audit().action == "seat_offer_accepted" and last_audit().details["abandonment_removed"] is True


def test_restore_from_the_person_page_is_the_only_end_of_a_ban_and_offers_the_seats_back(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Items 2 and 3: time never ends a ban; Restore on the person page does, and each kept seat is offered back."""
    game, (alice, bob) = started_game(clock="async", move_seconds=3600)
    client.force_login(moderator)
    client.post(f"/moderation/users/{bob.pk}/", {"action": "ban", "reason": "cheating"})
    seat = game.seats.get(index=1)
    assert seat.user is None and seat.held_for == bob
    assert moderation.lift_expired_suspensions() == 0
    bob.refresh_from_db()
    assert bob.banned and not bob.is_active and not SeatOffer.objects.filter(user=bob).exists()
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/moderation/users/{bob.pk}/", {"action": "restore", "reason": "appeal accepted"})
    bob.refresh_from_db()
    assert bob.is_active and not bob.banned and bob.suspended_until is None
    offer = SeatOffer.objects.get(user=bob, seat=seat)
    assert offer.accepted_at is None and offer.expires_at > clocks.now() + timedelta(days=6)
    assert last_audit().action == "user_restored" and last_audit().details == {"offers": 1}
    told = next(m for m in mailoutbox if m.to == [bob.email])
    assert "restored" in told.subject and "1 running game" in told.body
    page = client.get(f"/moderation/users/{bob.pk}/").content.decode()
    assert "In good standing." in page and "Restored" in page
    services.seat_offer_accept(offer_id=offer.pk, user=bob)
    assert game.seats.get(index=1).user == bob
    bob.refresh_from_db()
    assert bob.games_abandoned == 0


def test_a_suspension_whose_end_has_passed_shows_no_suspended_until(moderator, client):
    game, (alice, bob) = started_game()
    moderation.user_restrict(moderator=moderator, user=bob, reason="spam", days=1)
    services.report_create(reporter=alice, game_id=game.pk, reason="spam", user_id=bob.pk)
    type(bob).objects.filter(pk=bob.pk).update(suspended_until=clocks.now() - timedelta(minutes=1))
    client.force_login(moderator)
    for url in ("/moderation/", f"/moderation/users/{bob.pk}/", urlsplit(moderation.record_link(bob)).path):
        assert "uspended until" not in client.get(url).content.decode(), url
    assert api(moderator).get("/api/moderation/reports/").json()[0]["reported_user_status"] == "active"
