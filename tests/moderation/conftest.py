"""Fixtures of the moderation tests."""

from __future__ import annotations

import pytest

from moderation import services as moderation
from tests.factories import UserFactory


@pytest.fixture
def moderator():
    """A member of the Moderators group, read afresh (its permission cache empty)."""
    user = UserFactory()
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)
