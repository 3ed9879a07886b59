"""The Site (django.contrib.sites) that allauth's emails name: the domain of SITE_URL, called "Catan".

Django's own migration names it example.com. This runs once: after a change of SITE_URL, edit the Site in the
admin (Sites) as well.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import migrations


def name_the_site(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    domain = urlsplit(settings.SITE_URL).netloc
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": "Catan"})


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_moderation"), ("sites", "0002_alter_domain_unique")]

    operations = [migrations.RunPython(name_the_site, migrations.RunPython.noop)]
