"""The typed shapes of the moderation API's answers and query parameters, for the OpenAPI schema (/api/schema/).
The views build their answers as plain data; these say what that data is."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from games.models import Game
from infra.api.fields import NO_NUL

from ..models import Report, Sanction


class GameActionResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Game.Status.choices, help_text="The game's status after the action.")


class LogMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = serializers.JSONField(help_text="The move; only its `type` unless the position is revealed.")
    events = serializers.ListField(child=serializers.JSONField(), help_text="Empty unless revealed.")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    at = serializers.DateTimeField()
    cause = serializers.CharField()


class PositionSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The move after which this is the position.")
    revealed = serializers.BooleanField(help_text="Whether hands and development cards are shown (`reveal=1`).")
    hands = serializers.JSONField(allow_null=True, help_text="Each seat's resource cards; null unless revealed.")
    development = serializers.JSONField(allow_null=True, help_text="Each seat's development cards, or null.")
    development_new = serializers.JSONField(allow_null=True, help_text="Bought this turn, or null.")
    deck = serializers.JSONField(allow_null=True, help_text="The deck's order: only once the game really ended.")
    seed = serializers.CharField(allow_null=True, help_text="The dice seed, a string: only once the game ended.")
    view = serializers.JSONField(help_text="The public view of the position (rules.view), as spectators see it.")
    log = LogMoveSerializer(many=True)


class ActionResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    result = serializers.ChoiceField(
        choices=["warn", "restore", "suspended", "banned", "unchanged"],
        help_text="What was done; `unchanged` when a sanction at least as strong was already in place.",
    )


class SanctionItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Sanction.Kind.choices)
    reason = serializers.CharField()
    note = serializers.CharField(help_text="For moderators only.")
    ends_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    moderator__username = serializers.CharField()


class ReportBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.ChoiceField(choices=Report.Status.choices)


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    active = serializers.BooleanField()
    banned = serializers.BooleanField()
    suspended_until = serializers.DateTimeField(allow_null=True)
    reliability = serializers.JSONField(help_text="Finished and abandoned games, and the finished-game rate.")
    games = serializers.ListField(child=serializers.IntegerField())
    reports = ReportBriefSerializer(many=True)
    sanctions = SanctionItemSerializer(many=True)


class QueuedReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    reporter = serializers.CharField()
    created_at = serializers.DateTimeField()
    reported_user = serializers.CharField()
    reported_user_status = serializers.ChoiceField(choices=["active", "suspended", "banned"])
    message = serializers.CharField(allow_null=True)
    context = serializers.JSONField(help_text="The chat lines around the reported message, saved with the report.")
    seq = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()


class ReportResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Report.Status.choices)


class BulkResultSerializer(serializers.Serializer):
    handled = serializers.IntegerField()


class AuditItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    moderator__username = serializers.CharField()
    action = serializers.CharField()
    game_id = serializers.IntegerField(allow_null=True)
    target_user__username = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    details = serializers.JSONField()
    created_at = serializers.DateTimeField()


class AuditPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = AuditItemSerializer(many=True)


def _query(
    name: str, description: str, kind=OpenApiTypes.STR, minimum: int | None = None, maximum: int = 10**6
) -> OpenApiParameter:
    if minimum is not None:  # a whole number in range: anything else is a 400 (moderation.api.views.query_number)
        kind = {"type": "integer", "minimum": minimum, "maximum": maximum}
    elif kind == OpenApiTypes.STR:  # text: PostgreSQL stores no NUL, refused with 400 `bad_text`
        kind = {"type": "string", "pattern": NO_NUL}
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, required=False, description=description)


GAME_SEARCH_PARAMETERS = [
    _query("status", "Only games of this status."),
    _query("scenario", "Only games of this scenario."),
    _query("player", "Only games with a player whose name contains this."),
    _query("stalled_days", "Only games with no move for this many days.", minimum=1, maximum=36500),
]
POSITION_PARAMETERS = [
    _query("seq", "The position after this move (default: now; past the game's last move: 404 `bad_seq`).", minimum=0),
    _query("reveal", "`1` to show hands and development cards (needs `reason`; audited)."),
    _query("reason", "Why the hidden information is revealed (recorded in the audit log)."),
]
AUDIT_PARAMETERS = [
    _query("page", "The page, from 1.", minimum=1),
    _query("action", "Only entries of this action code."),
    _query("game", "Only entries about this game.", minimum=1),
    _query("moderator", "Only entries by this moderator (username)."),
    _query("person", "Only entries about this person (username)."),
]
