"""Plain-language lines for game events, from one seat's point of view (emails and logs)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import rules

from ..models import Game, Move


def seat_names(game: Game) -> dict[int, str]:
    names = {}
    for seat in game.seats.select_related("user"):
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


# A set-up turn ends with its road (or ship); a turn of the game with "end_turn".
SETUP_TURN_ENDS = ("build_road", "build_ship")


def turn_ended(game: Game, seat: int, upto: int) -> int:
    """The move (seq) that ended this seat's last turn up to move `upto`, whoever made it: the person, a timeout,
    a standing order, a link in an email. 0 before the seat's first turn ended."""
    moves = Move.objects.filter(game=game, seat=seat, seq__lte=upto)
    end = moves.filter(action__type="end_turn").order_by("-seq").values_list("seq", flat=True).first()
    if end is not None:
        return end
    # No turn of the game ended yet: the set-up's last road (moves before the first roll are the set-up).
    first_roll = Move.objects.filter(game=game, action__type="roll").order_by("seq").values_list("seq", flat=True)
    setup = moves.filter(action__type__in=SETUP_TURN_ENDS)
    if (roll := first_roll.first()) is not None:
        setup = setup.filter(seq__lt=roll)
    return setup.order_by("-seq").values_list("seq", flat=True).first() or 0


def timed_out(
    game: Game, seat: int | None, after: int, upto: int, names: dict[int, str]
) -> tuple[list[str], set[int]]:
    """What timeouts played for this seat in moves `after` < seq <= `upto`, and those moves' seqs. Never before the
    seat's own last move (the person was at the board, or answered an email, then). A seat handed to a bot by its
    timeout ("replace") is no longer the reader's (`seat` None): the moves that replaced a seat are listed."""
    moves = Move.objects.filter(game=game, seq__gt=after, seq__lte=upto, cause="timeout")
    if seat is not None:
        own = Move.objects.filter(game=game, seat=seat, seq__lte=upto, cause="player")
        last_own = own.order_by("-seq").values_list("seq", flat=True).first() or 0
        moves = moves.filter(seat=seat, seq__gt=last_own)
    lines, seqs = [], set()
    for move in moves.order_by("seq")[:40]:
        if seat is None and not any(e.get("type") == "seat_replaced" for e in move.events):
            continue
        seqs.add(move.seq)
        for event in rules.events_for(move.events, seat):
            line = describe(event, names, seat)
            if line and event["type"] != "timeout":
                lines.append(line)
    return lines, seqs


def since_last_turn(
    game: Game, seat: int, names: dict[int, str], after: int = 0, upto: int | None = None, skip=()
) -> list[str]:
    """What happened since this seat's previous turn ended (not merely its last move): rolls, gains and losses,
    what others built and traded. Runs over the moves after the later of
    - the end of the seat's last turn (`turn_ended`: its end_turn, or the road closing a set-up turn), whoever
      played it (the person, a timeout, a standing order, an email link); the seat's own moves out of turn
      meanwhile (a discard, a trade reply) do not restart it;
    - move `after`: what an earlier email to the reader already covered, never listed twice;
    up to move `upto` (the email's own move: the next email starts there). `skip`: moves listed elsewhere in
    the same email (what a timeout played for the reader)."""
    if upto is None:
        upto = Move.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
    start = max(turn_ended(game, seat, upto), after)
    lines = []
    for move in Move.objects.filter(game=game, seq__gt=start, seq__lte=upto).order_by("seq")[:200]:
        if move.seq in skip:
            continue
        for event in rules.events_for(move.events, seat):
            line = describe(event, names, seat)
            if line:
                lines.append(line)
    return lines[-40:]
