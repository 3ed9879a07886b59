"""Moderation moves to its own app: the audit log, reports and sanctions leave games' state (their tables and rows
stay, taken over by moderation.0001). A seat kept for a person now says itself whether keeping it charged them an
abandonment (games no longer reads the audit log to know): filled from the log as it was."""

from django.db import migrations, models


def fill_held_abandoned(apps, schema_editor):
    """A kept seat charged an abandonment when the last word on it and its person in the audit log is a
    moderator's replacement, not an earlier acceptance (a suspension's keeping charged nothing)."""
    Seat = apps.get_model("games", "Seat")
    AuditEntry = apps.get_model("moderation", "AuditEntry")
    for seat in Seat.objects.filter(held_for__isnull=False):
        last = (
            AuditEntry.objects.filter(
                game_id=seat.game_id,
                target_user_id=seat.held_for_id,
                action__in=("seat_replaced", "seat_offer_accepted"),
                details__seat=seat.index + 1,
            )
            .order_by("-pk")
            .first()
        )
        if last is not None and last.action == "seat_replaced":
            Seat.objects.filter(pk=seat.pk).update(held_abandoned=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_game_seed_salt"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="Sanction"),
                migrations.DeleteModel(name="Report"),
                migrations.DeleteModel(name="AuditEntry"),
            ],
        ),
        migrations.AddField(
            model_name="seat",
            name="held_abandoned",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(fill_held_abandoned, migrations.RunPython.noop),
    ]
