"""Typed settings, read once from LOUPE_* environment variables (app/config/settings.py), with
the value checks the API shares (values.py) and how a settings problem is told (errors.py)."""

from app.config.errors import ENV_PREFIX, ConfigError, env_name
from app.config.settings import Settings, get_settings
from app.config.values import (
    SECRET_KEY_MIN_BYTES,
    SECRET_KEY_MIN_DISTINCT,
    ModelPrice,
    check_http_url,
    secret_key_problem,
)

__all__ = [
    "ENV_PREFIX",
    "SECRET_KEY_MIN_BYTES",
    "SECRET_KEY_MIN_DISTINCT",
    "ConfigError",
    "ModelPrice",
    "Settings",
    "check_http_url",
    "env_name",
    "get_settings",
    "secret_key_problem",
]
