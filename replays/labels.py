"""The words for the statistics' sources, purposes, causes and cards, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

GAINED_LABELS = {
    "production": _("Production"),
    "starting": _("Starting resources"),
    "trade_players": _("Trades with players"),
    "trade_bank": _("Bank and harbour trades"),
    "steal": _("Steals"),
    "development": _("Development cards"),
    "gold": _("Gold fields"),
    "discovery": _("Discoveries"),
    "other": _("Other"),
}
SPENT_LABELS = {
    "road": _("Roads"),
    "ship": _("Ships"),
    "settlement": _("Settlements"),
    "city": _("Cities"),
    "development_card": _("Development cards"),
    "trade_players": _("Trades with players"),
    "trade_bank": _("Bank and harbour trades"),
}
LOST_LABELS = {
    "robber": _("Robber and pirate"),
    "discard": _("Discards"),
    "monopoly": _("Monopoly"),
    "other": _("Other"),
}
CARD_LABELS = {
    "knight": _("Knight"),
    "road_building": _("Road Building"),
    "year_of_plenty": _("Year of Plenty"),
    "monopoly": _("Monopoly"),
    "victory_point": _("Victory Point"),
}
