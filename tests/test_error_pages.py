"""With DEBUG off a view that fails answers with the site's own 500 page: no traceback, no URL patterns.

This module is also the URLconf of its tests: the site's URLs plus one view that raises."""

import pytest
from django.test import Client
from django.urls import include, path

pytestmark = pytest.mark.django_db


class Boom(Exception):
    pass


def boom(request):
    raise Boom("a secret detail of the failure")


urlpatterns = [
    path("test-only/boom/", boom),
    path("", include("catan_site.urls")),
]


@pytest.fixture
def failing_site(settings):
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    return Client(raise_request_exception=False)


def test_a_failing_view_shows_the_site_500_page(failing_site, caplog):
    response = failing_site.get("/test-only/boom/")
    assert response.status_code == 500
    page = response.content.decode()
    assert 'id="server-error"' in page
    assert "Something went wrong" in page and "Le serveur n’a pas pu répondre" in page
    assert '<a class="button" href="/">' in page
    # Django's debug page would show the exception, the traceback and the settings.
    for leak in ["Traceback", "Boom", "a secret detail", "URLconf", "urlpatterns", "test-only", "SECRET_KEY"]:
        assert leak not in page, leak
    # The failure is logged for the site's owner instead.
    assert any(record.exc_info and record.exc_info[0] is Boom for record in caplog.records)


def test_the_raising_view_is_reached_and_other_pages_still_answer(failing_site):
    """The URLconf keeps the site's pages: the 500 above is the view's, not a broken configuration."""
    assert failing_site.get("/").status_code == 200
    response = failing_site.get("/no-such-page/")
    assert response.status_code == 404 and "URLconf" not in response.content.decode()
