"""The public pages render, in English and in French, and the language switcher works."""

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "title", "log_in"),
    [("en", "Play Catan online", "Log in"), ("fr", "Jouez à Catane en ligne", "Se connecter")],
)
def test_home_page_speaks_the_visitor_language(client, language, title, log_in):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert title in page
    assert log_in in page
    assert 'name="viewport"' in page


@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_account_pages_render(client, path, language):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.content.decode()


def test_language_switcher_sets_the_cookie(client):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert "Jouez à Catane en ligne" in client.get("/").content.decode()


def test_api_schema_and_docs_are_served_offline(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn.jsdelivr.net" not in docs.content


def test_api_errors_have_one_shape(client):
    response = client.get("/api/me/")
    assert response.status_code in (401, 403)
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) >= {"code", "message"}
