"""Strict API input fields: each takes its JSON type and no other.

DRF's fields coerce: CharField stores the number 0 as "0", IntegerField takes "5" and 5.0, BooleanField takes
"yes" and 1. The schema promises a type, so a value of another type is refused with 400 `invalid`."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# In the schema as `pattern`: PostgreSQL stores no NUL character, and a required string needs a character that is
# not white space (edges are trimmed before `allow_blank` is checked).
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = r"^[^\x00]*[^\x00\s][^\x00]*$"


class StrictCharField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if any(isinstance(validator, RegexValidator) for validator in self.validators):
            return  # a pattern of the field's own, which says more (the schema shows one pattern)
        if self.allow_blank:
            self.validators.append(RegexValidator(NO_NUL, _("Text may not contain the NUL character.")))
        else:
            self.validators.append(RegexValidator(NOT_BLANK, _("This field may not be blank.")))

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        # The schema's maxLength counts what is sent; DRF counts after trimming the edges.
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)
