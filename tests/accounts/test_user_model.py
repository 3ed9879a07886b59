import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_custom_user_model_is_the_auth_user_model(settings):
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model() is User


def test_user_has_profile_fields_and_label():
    user = UserFactory(username="alice", display_name="")
    assert user.language == "en" and user.time_zone == "UTC" and user.notify == "each"
    assert user.label == "alice"
    user.display_name = "Alice"
    assert user.label == "Alice"
    assert user.check_password("correct horse battery")


def test_time_zone_is_validated():
    user = UserFactory()
    user.time_zone = "Mars/Olympus"
    with pytest.raises(ValidationError):
        user.full_clean()


def test_ensure_demo_is_idempotent():
    from django.core.management import call_command

    call_command("ensure_demo")
    call_command("ensure_demo")
    assert User.objects.filter(username="demo").count() == 1
    assert User.objects.get(username="admin").is_staff
    assert User.objects.get(username="demo").check_password("demo")
