"""`{% load ratings %}{% player_ratings user %}`: a person's ratings in a few lines, with a link to their page
(the profile page shows it; accounts/ never imports ratings/)."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game

from ..models import Rating

register = template.Library()


@register.inclusion_tag("ratings/_summary.html")
def player_ratings(user: Any) -> dict[str, Any]:
    labels = dict(Game.Clock.choices)
    ratings = [(labels[r.mode], r) for r in Rating.objects.filter(user=user).order_by("mode")]
    return {"person": user, "ratings": ratings}
