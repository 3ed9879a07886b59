"""Plain-language lines for game events, from one seat's point of view (emails and logs)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import rules

from .models import Game, Move


def seat_names(game: Game) -> dict[int, str]:
    names = {}
    for seat in game.seats.all():
        if seat.user_id:
            names[seat.index] = seat.user.label
        else:
            names[seat.index] = _("Bot %(n)s") % {"n": seat.index + 1}
    return names


def resource(name: str) -> str:
    labels = {"lumber": _("lumber"), "brick": _("brick"), "wool": _("wool"), "grain": _("grain"), "ore": _("ore")}
    return labels.get(name, name)


def cards(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {resource(r)}" for r, n in counts.items() if n) or "–"


def describe(event: dict[str, Any], names: dict[int, str], me: int | None) -> str | None:
    """One line for an event, or None for events not worth a line."""
    kind = event["type"]
    who = names.get(event.get("seat"), "?")
    if kind == "rolled":
        a, b = event["dice"]
        return _("%(who)s rolled %(sum)s.") % {"who": who, "sum": a + b}
    if kind == "produced":
        mine = event["gains"].get(str(me)) if me is not None else None
        return _("You received %(cards)s.") % {"cards": cards(mine)} if mine else None
    if kind in ("built_settlement", "built_city", "built_road", "built_ship"):
        piece = {
            "built_settlement": _("a settlement"),
            "built_city": _("a city"),
            "built_road": _("a road"),
            "built_ship": _("a ship"),
        }[kind]
        return _("%(who)s built %(piece)s.") % {"who": who, "piece": piece}
    if kind == "stole":
        if event.get("victim") == me:
            return _("%(who)s stole a card from you.") % {"who": who}
        return _("%(who)s stole a card from %(victim)s.") % {"who": who, "victim": names.get(event["victim"], "?")}
    if kind == "stolen_card" and me in (event.get("seat"), event.get("victim")):
        return _("The stolen card was %(card)s.") % {"card": resource(event["resource"])}
    if kind == "discarded":
        return _("%(who)s discarded %(cards)s.") % {"who": who, "cards": cards(event["cards"])}
    if kind == "played_monopoly":
        lost = event["taken"].get(str(me)) if me is not None else None
        if lost:
            return _("%(who)s took your %(n)s %(card)s with a Monopoly.") % {
                "who": who,
                "n": lost,
                "card": resource(event["resource"]),
            }
        return _("%(who)s played a Monopoly.") % {"who": who}
    if kind == "played_knight":
        return _("%(who)s played a Knight.") % {"who": who}
    if kind == "traded":
        return _("%(who)s traded with %(partner)s.") % {"who": who, "partner": names.get(event["partner"], "?")}
    if kind == "longest_road":
        return _("%(who)s now holds the Longest Road.") % {"who": names.get(event["seat"], "—")}
    if kind == "largest_army":
        return _("%(who)s now holds the Largest Army.") % {"who": who}
    if kind == "timeout":
        return _("%(who)s ran out of time.") % {"who": who}
    if kind == "game_won":
        return _("%(who)s won the game!") % {"who": who}
    return None


def decision(view: dict[str, Any], kind: str, names: dict[int, str]) -> str:
    """What the email asks its reader to decide, in words (the view is the reader's own)."""
    me = view["viewer"]
    facts = view["seats"][me] if me is not None else {}
    trade = view.get("trade")
    if kind == "trade" and trade is not None:
        return _("%(who)s offers %(give)s for your %(get)s: accept, counter or reject.") % {
            "who": names.get(trade["from"], "?"),
            "give": cards(trade["give"]),
            "get": cards(trade["get"]),
        }
    if kind == "discard" and facts.get("discards_owed"):
        return _("A 7 was rolled: discard %(n)s of your %(held)s cards.") % {
            "n": facts["discards_owed"],
            "held": sum(facts.get("resources", {}).values()),
        }
    if kind == "gold" and facts.get("gold_owed"):
        return _("Your gold field produced: choose %(n)s resources.") % {"n": facts["gold_owed"]}
    if kind in ("turn", "reminder") and view.get("current") == me:
        if view["phase"].startswith("setup"):
            return _("Place your settlement and its road.")
        return _("It is your turn: roll the dice.") if view.get("dice") is None else _("It is your turn.")
    return ""


def timed_out(game: Game, user_id: int, since_seq: int) -> list[str]:
    """What a timeout played for this player after move `since_seq`."""
    names = seat_names(game)
    lines = []
    for move in Move.objects.filter(game=game, seq__gt=since_seq, cause="timeout").order_by("seq")[:40]:
        for event in rules.events_for(move.events, None):
            line = describe(event, names, None)
            if line and event["type"] != "timeout":
                lines.append(line)
    return lines


def since_last_turn(game: Game, seat: int) -> list[str]:
    """What happened since this seat's last turn ended (not merely its last move): rolls, gains and losses, what
    others built and traded."""
    names = seat_names(game)
    ends = Move.objects.filter(game=game, seat=seat, action__type="end_turn").order_by("-seq")
    last = ends.values_list("seq", flat=True).first() or 0
    lines = []
    for move in Move.objects.filter(game=game, seq__gt=last).order_by("seq")[:200]:
        for event in rules.events_for(move.events, seat):
            line = describe(event, names, seat)
            if line:
                lines.append(line)
    return lines[-40:]
