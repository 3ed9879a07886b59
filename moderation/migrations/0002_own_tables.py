"""The tables taken over from games get moderation's own names (PostgreSQL renames them in place: rows, keys and
foreign keys stay), and their content types move too, so the permissions moderators hold on them stay theirs."""

from django.db import migrations

MODELS = ("auditentry", "report", "sanction")


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label="moderation", model=model).exists():
            ContentType.objects.filter(app_label="games", model=model).update(app_label="moderation")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label="games", model=model).exists():
            ContentType.objects.filter(app_label="moderation", model=model).update(app_label="games")


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name="auditentry", table=None),
        migrations.AlterModelTable(name="report", table=None),
        migrations.AlterModelTable(name="sanction", table=None),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
