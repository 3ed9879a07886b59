"""Moderation listens to games (`games.signals`): it stores players' reports, audits a moderator's look into a
private game, and records the acceptance of a seat a moderator offered. Connected by `ModerationConfig.ready`."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import private_game_watched, report_filed, seat_offer_accepted

from .services import audit, reports, watch_audit


@receiver(report_filed, dispatch_uid="moderation.store_report")
def store_report(sender: Any, **report: Any) -> Any:
    report.pop("signal", None)
    return reports.store(**report)


@receiver(private_game_watched, dispatch_uid="moderation.audit_watch")
def audit_watch(sender: Any, *, viewer: Any, game_id: int, session: Any, **_: Any) -> bool:
    return watch_audit(viewer=viewer, game_id=game_id, session=session)


@receiver(seat_offer_accepted, dispatch_uid="moderation.audit_offer_accepted")
def audit_offer_accepted(sender: Any, *, offer: Any, seat: Any, user: Any, abandonment_removed: bool, **_: Any) -> None:
    """A seat a moderator offered was taken: the log says so, in the name of the moderator who offered it."""
    if offer.offered_by_id is None:
        return
    details: dict[str, Any] = {"seat": seat.index + 1, "offer": offer.pk}
    if abandonment_removed:
        details["abandonment_removed"] = True
    audit(
        offer.offered_by, "seat_offer_accepted", "accepted by the player", game=seat.game, target_user=user, **details
    )
