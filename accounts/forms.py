import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User

TIME_ZONES = sorted(zoneinfo.available_timezones())


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("days away"), min_value=1, max_value=365, initial=7)


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("time zone"), choices=[(z, z) for z in TIME_ZONES])

    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "notify",
            "digest_hour",
            "notify_chat",
            "quiet_start",
            "quiet_end",
        ]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}),
        }
