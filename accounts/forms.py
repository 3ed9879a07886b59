import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User

TIME_ZONES = sorted(zoneinfo.available_timezones())


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("days away"), min_value=1, max_value=365, initial=7)


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("time zone"), choices=[(z, z) for z in TIME_ZONES])
    # Where notices go (issue 42): left out of a post (an older form), it stays as it was.
    notify_by = forms.ChoiceField(label=_("notices by"), choices=User.NotifyBy.choices, required=False)

    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "notify",
            "notify_by",
            "digest_hour",
            "notify_chat",
            "quiet_start",
            "quiet_end",
        ]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}),
        }

    def clean_notify_by(self) -> str:
        return self.cleaned_data.get("notify_by") or self.instance.notify_by
