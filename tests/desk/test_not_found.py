"""A wrong address on the desk reads as a sentence, never as an exception's class name."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/admin/desk/no-such-page/", "/no-such-page/"])
def test_a_wrong_address_says_so_in_words(superuser, path: str) -> None:
    client = Client()
    client.force_login(superuser)
    response = client.get(path)
    assert response.status_code == 404
    text = response.content.decode()
    assert "This page does not exist" in text
    assert "Http404" not in text and "Resolver404" not in text
