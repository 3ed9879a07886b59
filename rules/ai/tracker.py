"""What one seat can tell of everyone's cards from what it has seen: a card tracker fed by events.

At the table an attentive player follows the cards: production from the dice, what each build, development
card and bank trade costs, trades between players, discards, Monopoly, Year of Plenty, gold, and the card in a
steal they took part in. A steal between two others moves one card they cannot see. The tracker keeps, per
seat and resource, a lower and an upper bound on how many that seat holds, and checks its count of each hand
against the count the view shows (a count it cannot explain makes it forget that hand: bounds stay safe).

It also notes each seat's answers within the turn: a seat that refused to give a resource does not want to
give it for the rest of the turn.

Feed it the events as they come (`observe`, which keeps only those the seat may see); each update costs a few
list operations: a game's history replays in about a millisecond per 300 moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..constants import (
    CITY_COST,
    DEVELOPMENT_COST,
    RESOURCE_INDEX,
    RESOURCES,
    ROAD_COST,
    SETTLEMENT_COST,
    SHIP_COST,
)

Event = dict[str, Any]
EACH = 19  # cards of each resource in the game


def _counts(cards: dict[str, int] | None) -> list[int]:
    if not cards:
        return [0] * 5
    return [cards.get(name, 0) for name in RESOURCES]


class CardTracker:
    """Bounds on every seat's hand as `me` can know them (its own hand is read from the view, not tracked)."""

    __slots__ = ("me", "players", "low", "high", "count", "held", "setup", "free_edges", "offer", "refused")

    def __init__(self, me: int, players: int) -> None:
        self.me = me
        self.players = players
        self.low = [[0] * 5 for _ in range(players)]
        self.high = [[0] * 5 for _ in range(players)]
        self.count = [0] * players
        # Cards of each resource in all hands together: every card that leaves or joins the bank is seen by all.
        self.held = [0] * 5
        self.setup = True  # set-up pieces are free; the first roll ends the set-up
        self.free_edges = [0] * players  # roads or ships still free from a Road Building card this turn
        self.offer: tuple[int, list[int], list[int]] | None = None  # the open offer: (from, give, get)
        self.refused: list[set[int]] = [set() for _ in range(players)]  # resources each seat refused this turn

    @classmethod
    def from_history(cls, me: int, players: int, history: Iterable[list[Event]]) -> CardTracker:
        """A tracker that has seen every move's events in order (raw or already filtered for `me`)."""
        tracker = cls(me, players)
        for events in history:
            tracker.observe(events)
        return tracker

    # --- what a seat may hold ------------------------------------------------------------------------

    def may_hold(self, seat: int, r: int, n: int = 1) -> bool:
        """Whether `seat` may hold at least `n` cards of resource `r`."""
        return self.high[seat][r] >= n

    def holds(self, seat: int, r: int) -> int:
        """Cards of `r` that `seat` surely holds."""
        return self.low[seat][r]

    def refuses(self, seat: int, r: int) -> bool:
        """`seat` refused an offer asking for `r` this turn."""
        return r in self.refused[seat]

    def sync(self, counts: list[int], bank: list[int], hand: list[int]) -> None:
        """Check the tracked hands against the view's card counts (forgetting a hand it cannot explain), and
        bound each resource by the cards that are neither in the bank, in my hand nor surely elsewhere."""
        for s in range(self.players):
            if s == self.me:
                continue
            if self.count[s] != counts[s]:
                self.count[s] = counts[s]
                self.low[s] = [0] * 5
                self.high[s] = [counts[s]] * 5
        for r in range(5):
            free = EACH - bank[r] - hand[r]
            sure = sum(self.low[s][r] for s in range(self.players) if s != self.me)
            for s in range(self.players):
                if s != self.me:
                    cap = free - (sure - self.low[s][r])
                    if self.high[s][r] > cap:
                        self.high[s][r] = max(self.low[s][r], cap)
        for s in range(self.players):
            if s != self.me:
                self._tighten(s)

    # --- events --------------------------------------------------------------------------------------

    def observe(self, events: list[Event]) -> None:
        """Take in one move's events (those whose audience leaves `me` out are skipped)."""
        me = self.me
        for i, e in enumerate(events):
            audience = e.get("audience")
            if audience is not None and me not in audience:
                continue
            handler = _HANDLERS.get(e["type"])
            if handler is not None:
                handler(self, e, events, i)
        self._balance()

    def _balance(self) -> None:
        """Bound each resource in the others' hands by what is in no one's hand but theirs: the cards out of the
        bank, less mine, less what the other seats surely hold. Done after every move, this keeps what a look at
        the bank would have shown then (a later steal between two others cannot blur it)."""
        me, players = self.me, self.players
        for r in range(5):
            free = self.held[r] - self.low[me][r]
            sure = sum(self.low[s][r] for s in range(players) if s != me)
            for s in range(players):
                if s != me:
                    cap = free - (sure - self.low[s][r])
                    if self.high[s][r] > cap:
                        self.high[s][r] = max(self.low[s][r], cap)
        for s in range(players):
            if s != me:
                self._tighten(s)

    def _bank(self, r: int, n: int) -> None:
        """`n` cards of `r` came out of the bank (into a hand), or went back to it when `n` is negative."""
        self.held[r] += n

    def _gain(self, seat: int, r: int, n: int = 1) -> None:
        self.low[seat][r] += n
        self.high[seat][r] += n
        self.count[seat] += n

    def _lose(self, seat: int, r: int, n: int = 1) -> None:
        """`seat` gave up `n` cards of `r`, seen by everyone: it held at least that many."""
        low, high = self.low[seat], self.high[seat]
        low[r] = max(low[r], n) - n
        high[r] = max(high[r] - n, low[r])
        self.count[seat] = max(0, self.count[seat] - n)
        self._tighten(seat)

    def _pay(self, seat: int, cost: tuple[int, ...] | list[int]) -> None:
        """`seat` paid `cost` to the bank (a build, a development card)."""
        for r in range(5):
            if cost[r]:
                self._lose(seat, r, cost[r])
                self._bank(r, -cost[r])

    def _lose_unseen(self, seat: int) -> list[bool]:
        """`seat` lost one card I did not see; returns which resources it could have been."""
        low, high = self.low[seat], self.high[seat]
        possible = [h > 0 for h in high]
        for r in range(5):
            if low[r]:
                low[r] -= 1
        self.count[seat] = max(0, self.count[seat] - 1)
        self._tighten(seat)
        return possible

    def _gain_unseen(self, seat: int, possible: list[bool]) -> None:
        high = self.high[seat]
        for r in range(5):
            if possible[r]:
                high[r] += 1
        self.count[seat] += 1
        self._tighten(seat)

    def _knows(self, seat: int, cards: list[int]) -> None:
        """`seat` was shown to hold at least `cards` (it offered or accepted them)."""
        low, high = self.low[seat], self.high[seat]
        for r in range(5):
            if cards[r] > low[r]:
                low[r] = cards[r]
                high[r] = max(high[r], cards[r])
        self._tighten(seat)

    def _tighten(self, seat: int) -> None:
        """Each resource's bounds against the hand's size and the other resources' bounds."""
        low, high, n = self.low[seat], self.high[seat], self.count[seat]
        sure, most = sum(low), sum(high)
        for r in range(5):
            cap = n - (sure - low[r])
            if high[r] > cap:
                high[r] = max(low[r], cap)
            floor = n - (most - high[r])
            if floor > low[r]:
                low[r] = min(high[r], floor)


def _starting(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    for r, n in enumerate(_counts(e["resources"])):
        if n:
            t._gain(e["seat"], r, n)
            t._bank(r, n)


def _produced(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    for key, cards in e["gains"].items():
        seat = int(key)
        for name, n in cards.items():
            t._gain(seat, RESOURCE_INDEX[name], n)
            t._bank(RESOURCE_INDEX[name], n)


def _cards_gained(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    for r, n in enumerate(_counts(e["cards"])):
        if n:
            t._gain(e["seat"], r, n)
            t._bank(r, n)


def _revealed(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    if "resource" in e:
        t._gain(e["seat"], RESOURCE_INDEX[e["resource"]])
        t._bank(RESOURCE_INDEX[e["resource"]], 1)


def _rolled(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t.setup = False


def _built_settlement(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    if not t.setup:
        t._pay(e["seat"], SETTLEMENT_COST)


def _built_edge(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    seat = e["seat"]
    if t.setup:
        return
    if t.free_edges[seat]:
        t.free_edges[seat] -= 1
        return
    t._pay(seat, SHIP_COST if e["type"] == "built_ship" else ROAD_COST)


def _built_city(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t._pay(e["seat"], CITY_COST)


def _bought_development(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t._pay(e["seat"], DEVELOPMENT_COST)


def _road_building(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t.free_edges[e["seat"]] = 2


def _year_of_plenty(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    for name in e["resources"]:
        t._gain(e["seat"], RESOURCE_INDEX[name])
        t._bank(RESOURCE_INDEX[name], 1)


def _monopoly(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    r = RESOURCE_INDEX[e["resource"]]
    seat = e["seat"]
    taken = {int(s): n for s, n in e["taken"].items()}
    for other in range(t.players):
        if other == seat:
            continue
        n = taken.get(other, 0)
        if n:
            t._lose(other, r, n)
            t._gain(seat, r, n)
        t.low[other][r] = t.high[other][r] = 0  # every card of it went, or there was none
        t._tighten(other)


def _traded_bank(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t._lose(e["seat"], RESOURCE_INDEX[e["give"]], e["count"])
    t._gain(e["seat"], RESOURCE_INDEX[e["get"]])
    t._bank(RESOURCE_INDEX[e["give"]], -e["count"])
    t._bank(RESOURCE_INDEX[e["get"]], 1)


def _traded(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    give, get = _counts(e["give"]), _counts(e["get"])
    seat, partner = e["seat"], e["partner"]
    for r in range(5):
        if give[r]:
            t._lose(seat, r, give[r])
        if get[r]:
            t._lose(partner, r, get[r])
    for r in range(5):
        if give[r]:
            t._gain(partner, r, give[r])
        if get[r]:
            t._gain(seat, r, get[r])
    t.offer = None


def _stole(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    thief, victim = e["seat"], e["victim"]
    if t.me in (thief, victim):
        return  # the card itself follows, as stolen_card
    t._gain_unseen(thief, t._lose_unseen(victim))


def _stolen_card(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    r = RESOURCE_INDEX[e["resource"]]
    t._lose(e["victim"], r)
    t._gain(e["seat"], r)


def _discarded(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    for r, n in enumerate(_counts(e["cards"])):
        if n:
            t._lose(e["seat"], r, n)
            t._bank(r, -n)


def _offered(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    give, get = _counts(e["give"]), _counts(e["get"])
    t.offer = (e["seat"], give, get)
    t._knows(e["seat"], give)


def _reply(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    offer = t.offer
    if offer is None:
        return
    seat, reply = e["seat"], e["reply"]
    if seat == offer[0]:
        return  # the offerer turning down a counter-offer
    if reply == "accept":
        t._knows(seat, offer[2])
    elif reply == "counter":
        t._knows(seat, _counts(e["get"]))  # a counter's `get` is what the countering seat would give
    elif reply == "reject":
        t.refused[seat].update(r for r in range(5) if offer[2][r])


def _offer_closed(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t.offer = None


def _turn_ended(t: CardTracker, e: Event, events: list[Event], i: int) -> None:
    t.offer = None
    t.free_edges = [0] * t.players
    for refused in t.refused:
        refused.clear()


_HANDLERS = {
    "starting_resources": _starting,
    "produced": _produced,
    "chose_gold": _cards_gained,
    "revealed": _revealed,
    "rolled": _rolled,
    "built_settlement": _built_settlement,
    "built_road": _built_edge,
    "built_ship": _built_edge,
    "built_city": _built_city,
    "bought_development": _bought_development,
    "played_road_building": _road_building,
    "played_year_of_plenty": _year_of_plenty,
    "played_monopoly": _monopoly,
    "traded_bank": _traded_bank,
    "traded": _traded,
    "stole": _stole,
    "stolen_card": _stolen_card,
    "discarded": _discarded,
    "trade_offered": _offered,
    "trade_reply": _reply,
    "trade_cancelled": _offer_closed,
    "trade_closed": _offer_closed,
    "turn_ended": _turn_ended,
}
