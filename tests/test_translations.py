"""Both languages: the French catalogue is complete, compiled, and used."""

import re
from pathlib import Path

from django.utils import translation

PO = Path(__file__).resolve().parents[1] / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def test_the_french_catalogue_has_no_missing_or_fuzzy_entries():
    entries = PO.read_text().split("\n\n")[1:]  # the first block is the header
    assert len(entries) > 250
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    empty = [e for e in entries if re.search(r'^msgstr ""\s*\Z', e, re.M) and 'msgid ""' not in e]
    assert fuzzy == [] and empty == []


def test_the_compiled_catalogue_is_used():
    with translation.override("fr"):
        assert translation.gettext("Fair dice") == "Dés équitables"
        assert translation.gettext("My games") != "My games"
