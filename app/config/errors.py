"""ConfigError and how a settings problem is told: each LOUPE_ variable named with its value
(never a secret's) and what is wrong with it."""

import re
from typing import Any

from pydantic import ValidationError
from pydantic_settings import SettingsError

ENV_PREFIX = "LOUPE_"
# Settings whose values are never repeated in an error message.
_SECRET_FIELDS = frozenset(
    {
        "judge_api_key",
        "secret_key",
        "database_url",
        "redis_url",
        "metrics_token",
        "otlp_export_headers",
        "oidc_client_secret",
    }
)


class ConfigError(Exception):
    """Settings a process cannot start with; the message names each variable and its problem."""


def env_name(field: str) -> str:
    """The environment variable of a setting: `port` -> LOUPE_PORT."""
    return ENV_PREFIX + field.upper()


def problem_lines(error: ValidationError) -> list[str]:
    """One line per problem: the variable, its value unless secret, and what is wrong."""
    problems = []
    for problem in error.errors(include_url=False):
        loc = [str(part) for part in problem["loc"]]
        message = str(problem["msg"]).removeprefix("Value error, ")
        if message.startswith("Input should be "):
            # The value of the variable named beside it (the API's 422s say the same).
            message = "must be " + message.removeprefix("Input should be ")
        if not loc:
            problems.append(message)  # a check across settings: its message names them
            continue
        field, inner = loc[0], ".".join(loc[1:])
        name = env_name(field)
        shown = _shown(field, problem.get("input")) if not inner else ""
        where = f"{name}{shown}: {inner}: " if inner else f"{name}{shown}: "
        problems.append(where + message)
    return problems


def _shown(field: str, value: Any) -> str:
    if field in _SECRET_FIELDS or not isinstance(value, str | int | float):
        return ""
    text = str(value)
    return f"={text!r}" if len(text) <= 80 else f"={text[:77]!r}..."


def unparsable(error: SettingsError) -> str:
    """The line for a value pydantic-settings could not parse (a list or mapping not JSON)."""
    # pydantic-settings: 'error parsing value for field "x" from source "EnvSettingsSource"'.
    match = re.search(r'field "(\w+)" from source "(\w+)"', str(error))
    if match is None:
        return str(error)
    field, source = match.groups()
    origin = " (in .env)" if source.startswith("DotEnv") else ""
    cause = error.__cause__
    reason = f": {cause}" if isinstance(cause, ValueError) else ""
    return f"{env_name(field)}{origin}: not valid JSON{reason}"
