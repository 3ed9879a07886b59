"""Both languages: the French catalogue is complete, compiled, and used."""

import re
from pathlib import Path

import pytest
from django.utils import translation

CATALOGUES = Path(__file__).resolve().parents[1] / "locale" / "fr" / "LC_MESSAGES"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_french_catalogue_has_no_missing_or_fuzzy_entries(domain):
    entries = (CATALOGUES / f"{domain}.po").read_text().split("\n\n")[1:]  # the first block is the header
    assert len(entries) > 200
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    # An empty translation (singular or plural form) is `msgstr ""` with no continuation line after it; a long
    # one starts with `msgstr ""` too and goes on over the next lines.
    empty = [e for e in entries if re.search(r'^msgstr(\[\d+\])? ""$(?!\n")', e, re.M)]
    assert fuzzy == [] and empty == []


def test_the_compiled_catalogue_is_used():
    with translation.override("fr"):
        assert translation.gettext("Fair dice") == "Dés équitables"
        assert translation.gettext("My games") != "My games"
