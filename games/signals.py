"""What games tells the apps above it without knowing them: signals, each sent inside the transaction of the change
it announces. games never imports an app that listens (the walls in tests/test_architecture.py).

- `game_finished` (ratings listens): a move ended a game.
- `report_filed` (moderation listens): a player reports a message or another player. The receiver stores the
  report and returns it; with no receiver, reports are not taken (`games.services.chat.report_create` says so).
- `private_game_watched` (moderation): someone who does not play in a private game opens its board; the receiver
  may record it (a moderator's look is audited once per visit) and returns True when it changed the session.
- `seat_offer_accepted` (moderation): a person took a seat offered to them.
"""

from django.dispatch import Signal

# Sent after the rows of the move that ends a game are written: `game` (the locked game row, status finished) and
# `state` (its final rules.State). A receiver runs in a savepoint of its own: its failure never costs the move.
game_finished = Signal()
# Sent with: reporter, game, message (or None), reported_user, reason, evidence (dict of the report's fields).
report_filed = Signal()
# Sent with: viewer, game_id, session.
private_game_watched = Signal()
# Sent with: offer, seat, user, abandonment_removed.
seat_offer_accepted = Signal()
