from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

import rules

from .models import Game, Seat, TimeoutPolicy
from .scenario_names import SCENARIO_NAMES


def scenario_choices() -> list[tuple[str, str]]:
    keys = rules.scenario_keys()
    return [(key, name) for key, name in SCENARIO_NAMES.items() if key in keys]


class GameCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    scenario = forms.ChoiceField(label=_("Scenario"), choices=scenario_choices)
    seat_count = forms.TypedChoiceField(label=_("Players"), choices=[(3, "3"), (4, "4")], coerce=int, initial=4)
    bots = forms.TypedChoiceField(
        label=_("Bots"),
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        initial=3,
        help_text=_("Bots take the last seats; the other seats wait for players."),
    )
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=Seat.Bot.choices, initial=Seat.Bot.MEDIUM)
    vp_target = forms.IntegerField(
        label=_("Victory points to win"),
        min_value=3,
        max_value=30,
        required=False,
        help_text=_("Leave empty for the scenario's."),
    )
    board = forms.ChoiceField(
        label=_("Board"), choices=[("variable", _("Variable")), ("beginner", _("Beginner"))], initial="variable"
    )
    random_tokens = forms.BooleanField(label=_("Random number tokens (no adjacent 6 and 8)"), required=False)
    friendly_robber = forms.BooleanField(label=_("Friendly robber"), required=False)
    clock = forms.ChoiceField(label=_("Clock"), choices=Game.Clock.choices, initial=Game.Clock.LIVE)
    move_hours = forms.IntegerField(
        label=_("Hours per move (play by email)"), min_value=1, max_value=336, initial=24, required=False
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn (live)"),
        choices=[("", _("No turn clock")), ("60", _("1 minute")), ("120", _("2 minutes")), ("180", _("3 minutes")),
                 ("300", _("5 minutes"))],
        coerce=int,
        empty_value=None,
        required=False,
    )
    timeout_policy = forms.ChoiceField(
        label=_("When time runs out"), choices=TimeoutPolicy.choices, initial=TimeoutPolicy.BOT
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"), choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC
    )

    def clean(self):
        data = super().clean()
        if data.get("bots") is not None and data.get("seat_count") and data["bots"] >= data["seat_count"]:
            self.add_error("bots", _("Leave at least your own seat for a person."))
        return data

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        seat_count = data["seat_count"]
        options = {"friendly_robber": data["friendly_robber"]}
        if data["scenario"] == "base":
            options.update(board=data["board"], random_tokens=data["random_tokens"])
        if data.get("vp_target"):
            options["vp_target"] = data["vp_target"]
        asynchronous = data["clock"] == Game.Clock.ASYNC
        return {
            "name": data["name"],
            "scenario": data["scenario"],
            "seat_count": seat_count,
            "bot_seats": list(range(seat_count - data["bots"], seat_count)),
            "bot_level": data["bot_level"],
            "options": options,
            "visibility": data["visibility"],
            "clock": data["clock"],
            "move_seconds": (data.get("move_hours") or 24) * 3600 if asynchronous else None,
            "turn_seconds": None if asynchronous else data.get("turn_seconds"),
            # A live game with no turn clock times out only a player who left (the disconnect grace): a bot plays
            # for them, whatever the hidden policy field still held.
            "timeout_policy": data["timeout_policy"]
            if asynchronous or data.get("turn_seconds")
            else TimeoutPolicy.BOT,
        }


RESOURCE_CHOICES = [
    ("", "—"),
    ("lumber", _("Lumber")),
    ("brick", _("Brick")),
    ("wool", _("Wool")),
    ("grain", _("Grain")),
    ("ore", _("Ore")),
]


class StandingOrdersForm(forms.Form):
    discard_first = forms.ChoiceField(label=_("Discard first after a 7"), choices=RESOURCE_CHOICES, required=False)
    discard_then = forms.ChoiceField(label=_("Then"), choices=RESOURCE_CHOICES, required=False)
    auto_decline_trades = forms.BooleanField(label=_("Decline every trade offer"), required=False)
    gold_first = forms.ChoiceField(label=_("Gold: take first"), choices=RESOURCE_CHOICES, required=False)
    gold_then = forms.ChoiceField(label=_("Then"), choices=RESOURCE_CHOICES, required=False)

    @staticmethod
    def initial_for(seat: Seat) -> dict:
        orders = seat.standing_orders or {}
        discard = [*orders.get("discard_priority", []), "", ""]
        gold = [*orders.get("gold_default", []), "", ""]
        return {
            "discard_first": discard[0],
            "discard_then": discard[1],
            "auto_decline_trades": orders.get("auto_decline_trades", False),
            "gold_first": gold[0],
            "gold_then": gold[1],
        }

    def orders(self) -> dict:
        data = self.cleaned_data
        return {
            "discard_priority": [r for r in (data["discard_first"], data["discard_then"]) if r],
            "gold_default": [r for r in (data["gold_first"], data["gold_then"]) if r],
            "auto_decline_trades": data["auto_decline_trades"],
        }


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days away"), min_value=1, max_value=30)


class GameNoticesForm(forms.Form):
    """Where this game's notices go for its player (issue 42): as the profile says, or this game's own choice."""

    notify_by = forms.ChoiceField(
        label=_("Notices for this game"),
        widget=forms.RadioSelect,
        required=False,
        help_text=_("By email follows your profile's email setting: each event, a daily digest or none."),
    )

    def __init__(self, *args, account_choice: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        by = get_user_model().NotifyBy
        as_account = _("As my profile says (%(choice)s)") % {"choice": by(account_choice).label}
        self.fields["notify_by"].choices = [
            ("", as_account),
            *by.choices,
            ("none", _("No notices for this game")),
        ]
