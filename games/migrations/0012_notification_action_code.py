import secrets

import games.models
from django.db import migrations, models


def give_codes(apps, schema_editor):
    """Each existing row its own code (a column default would give them all the same one)."""
    Notification = apps.get_model("games", "Notification")
    for pk in Notification.objects.values_list("pk", flat=True):
        Notification.objects.filter(pk=pk).update(action_code=secrets.token_hex(12))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_moderation_evidence_and_sanctions"),
    ]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="action_code",
            field=models.CharField(max_length=24, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="notification",
            name="action_code",
            field=models.CharField(default=games.models.new_action_code, max_length=24, unique=True),
        ),
    ]
