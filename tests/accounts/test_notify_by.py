"""Where notices go, chosen on the profile page (issue 42): email by default, push or both; a form posted without
the field (an older page) leaves the choice as it was."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory

PROFILE = {
    "display_name": "",
    "language": "en",
    "time_zone": "UTC",
    "notify": "each",
    "digest_hour": "8",
}


@pytest.mark.django_db
def test_the_profile_page_sets_where_notices_go_and_an_older_form_keeps_it(client):
    user = UserFactory()
    assert user.notify_by == "email"
    client.force_login(user)
    assert client.post("/accounts/profile/", {**PROFILE, "notify_by": "both"}).status_code == 302
    user.refresh_from_db()
    assert user.notify_by == "both"
    assert client.post("/accounts/profile/", PROFILE).status_code == 302
    user.refresh_from_db()
    assert user.notify_by == "both"
    response = client.post("/accounts/profile/", {**PROFILE, "notify_by": "pigeon"})
    assert response.status_code == 200 and "notify_by" in response.context["form"].errors
    user.refresh_from_db()
    assert user.notify_by == "both"
