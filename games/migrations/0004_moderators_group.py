from django.db import migrations


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    codenames = ["moderate", "view_game", "change_game", "view_move", "view_chatmessage", "change_chatmessage",
                 "view_report", "change_report", "view_auditentry", "view_user"]
    group.permissions.set(Permission.objects.filter(codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [("games", "0003_moderation"), ("accounts", "0002_moderation"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_group, migrations.RunPython.noop)]
