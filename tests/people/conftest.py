"""The people tests' provider (oidc-provider-mock on loopback) and a Loupe signing in through it,
with teams `ml` and `search`."""

from collections.abc import Iterator

import pytest

from tests.fixtures.api import Api, side_app
from tests.people.provider import Provider, provider, settings_for


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@pytest.fixture(scope="module")
def loupe(tmp_path_factory: pytest.TempPathFactory, idp: Provider) -> Iterator[Api]:
    with side_app(tmp_path_factory.mktemp("people"), **settings_for(idp.issuer)) as app:
        app.new_key("ml")
        app.new_key("search")
        yield app
