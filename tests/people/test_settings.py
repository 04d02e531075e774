"""The OIDC settings refuse half a configuration at start-up, and never show the client secret."""

import pytest
from pydantic import ValidationError

from app.config import Settings
from tests.fixtures.api import fast_settings


def test_issuer_and_client_id_go_together() -> None:
    with pytest.raises(ValidationError, match="go together"):
        fast_settings(oidc_issuer="http://127.0.0.1:9")
    with pytest.raises(ValidationError, match="go together"):
        fast_settings(oidc_client_id="loupe")


def test_key_sign_in_off_needs_a_provider() -> None:
    with pytest.raises(ValidationError, match="nobody could sign in"):
        fast_settings(console_key_sign_in=False)


def test_the_role_map_is_json_of_team_and_role(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOUPE_OIDC_ROLE_MAP", '{"ml-admins": ["ml", "admin"]}')
    assert Settings().oidc_role_map == {"ml-admins": ("ml", "admin")}
    monkeypatch.setenv("LOUPE_OIDC_ROLE_MAP", '{"ml-admins": ["ml", "owner"]}')
    with pytest.raises(ValidationError):
        Settings()


def test_the_client_secret_is_never_shown() -> None:
    settings = fast_settings(
        oidc_issuer="http://127.0.0.1:9", oidc_client_id="loupe", oidc_client_secret="s3cr3t-x1"
    )
    assert "s3cr3t-x1" not in repr(settings)
    assert "s3cr3t-x1" in settings.secret_values()
