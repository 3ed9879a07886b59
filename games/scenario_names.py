"""The scenarios' names as players read them, in their language (the rules know them by key)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

SCENARIO_NAMES = {
    "base": _("Catan (base game)"),
    "new_shores": _("Seafarers 1: New Shores"),
    "four_islands": _("Seafarers 2: Four Islands"),
    "oceania": _("Seafarers 3: Oceania"),
    "through_the_desert": _("Seafarers 4: Through the Desert"),
    "new_world": _("Seafarers 5: The New World"),
    "great_crossing": _("Seafarers 6: The Great Crossing"),
    "greater_catan": _("Seafarers 7: Greater Catan"),
}


def scenario_name(key: str) -> str:
    """The scenario's name in the active language; its key if it has none."""
    return str(SCENARIO_NAMES.get(key, key))
