"""Issue "Power": moderation moved into its own app with every row kept. A database at the last released schema
(games 0016, before the move), holding an audit log, a report with its evidence, a sanction and a seat a moderator's
replacement kept for its player, is migrated forward: every row is moderation's now, with the same keys and
values, in tables of moderation's own name; the kept seat knows it charged an abandonment; the Moderators group
keeps its permissions on the moved models."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

LAST_RELEASED = [("games", "0016_game_seed_salt"), ("moderation", None)]
MOVED = ("auditentry", "report", "sanction")


def _migrate(targets=None):
    """Migrate to `targets` (default: the latest); the project state there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor.migrate(targets or executor.loader.graph.leaf_nodes())


@pytest.fixture
def back_to_the_last_release():
    """The database at the last released schema, and at the latest again afterwards whatever happens."""
    try:
        yield _migrate(LAST_RELEASED).apps
    finally:
        _migrate()


def _tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


@pytest.mark.django_db(transaction=True)
def test_migrating_forward_from_the_last_released_schema_keeps_every_row(back_to_the_last_release):
    old = back_to_the_last_release
    assert {"games_auditentry", "games_report", "games_sanction"} <= _tables()

    User = old.get_model("accounts", "User")
    Game = old.get_model("games", "Game")
    Seat = old.get_model("games", "Seat")
    ChatMessage = old.get_model("games", "ChatMessage")
    AuditEntry = old.get_model("games", "AuditEntry")
    Report = old.get_model("games", "Report")
    Sanction = old.get_model("games", "Sanction")
    moderator = User.objects.create(username="mod", email="mod@example.com")
    alice = User.objects.create(username="alice", email="alice@example.com")
    bob = User.objects.create(username="bob", email="bob@example.com")
    game = Game.objects.create(name="Kept", status="active", created_by=alice)
    kept = Seat.objects.create(game=game, index=0, bot="medium", held_for=alice)  # replaced by a moderator
    suspended = Seat.objects.create(game=game, index=1, bot="medium", held_for=bob)  # kept during a suspension
    message = ChatMessage.objects.create(game=game, user=bob, text="rude words")
    replaced = AuditEntry.objects.create(
        moderator=moderator, action="seat_replaced", reason="gone", game=game, target_user=alice, details={"seat": 1}
    )
    report = Report.objects.create(
        reporter=alice,
        game=game,
        message=message,
        reported_user=bob,
        reason="insult",
        message_text="rude words",
        context=[{"id": message.pk, "text": "rude words", "reported": True}],
        seq=12,
    )
    sanction = Sanction.objects.create(user=bob, kind="suspension", reason="insult", moderator=moderator, report=report)
    # The Moderators group holds its permissions on the models where games had them (a database migrated, then
    # used, before the move; a test database flushed by an earlier test has them under moderation already).
    ContentType = old.get_model("contenttypes", "ContentType")
    Permission = old.get_model("auth", "Permission")
    Group = old.get_model("auth", "Group")
    ContentType.objects.filter(app_label="moderation", model__in=MOVED).delete()
    held = []
    for model in MOVED:
        kind, _ = ContentType.objects.get_or_create(app_label="games", model=model)
        for action in ("view", "change"):
            permission, _ = Permission.objects.get_or_create(
                content_type=kind, codename=f"{action}_{model}", defaults={"name": f"Can {action} {model}"}
            )
            held.append(permission)
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(*held)

    _migrate()

    from games.models import Seat as SeatNow  # the models as they are now, after the migration
    from moderation.models import AuditEntry as AuditNow
    from moderation.models import Report as ReportNow
    from moderation.models import Sanction as SanctionNow

    tables = _tables()
    assert {"moderation_auditentry", "moderation_report", "moderation_sanction"} <= tables
    assert not {"games_auditentry", "games_report", "games_sanction"} & tables
    entry = AuditNow.objects.get(pk=replaced.pk)
    assert (entry.action, entry.moderator_id, entry.game_id, entry.target_user_id) == (
        "seat_replaced",
        moderator.pk,
        game.pk,
        alice.pk,
    )
    assert entry.details == {"seat": 1}
    moved = ReportNow.objects.get(pk=report.pk)
    assert (moved.message_id, moved.reported_user_id, moved.seq, moved.message_text) == (
        message.pk,
        bob.pk,
        12,
        "rude words",
    )
    assert moved.context == [{"id": message.pk, "text": "rude words", "reported": True}]
    assert SanctionNow.objects.get(pk=sanction.pk).report_id == report.pk
    assert SeatNow.objects.get(pk=kept.pk).held_abandoned is True
    assert SeatNow.objects.get(pk=suspended.pk).held_abandoned is False
    # New rows follow the old ones (the key sequences came along with the tables).
    newer = AuditNow.objects.create(moderator_id=moderator.pk, action="game_watched", reason="look", game_id=game.pk)
    assert newer.pk > replaced.pk

    from django.contrib.auth.models import Group

    moderators = Group.objects.get(name="Moderators")
    held = set(moderators.permissions.values_list("content_type__app_label", "codename"))
    assert {("moderation", "view_report"), ("moderation", "change_report"), ("moderation", "view_auditentry")} <= held
