"""`loupe serve | worker | worker-health | migrate | openapi | keys ... | tenants ... | compare`.

The commands live by subject (service.py, accounts.py, tenant_commands.py, gate.py) on the
one `cli` of _root.py; `main` runs it and turns bad settings and unreachable stores into one
line and an exit status.
"""

from urllib.parse import urlsplit

from app.cli import (  # noqa: F401 - importing registers their commands
    accounts,
    gate,
    service,
    tenant_commands,
)
from app.cli._root import cli, fail
from app.cli.service import served_app
from app.config import ConfigError, get_settings

# After the service's commands: `loupe --help` lists them in the order they are added.
cli.command()(gate.compare)

__all__ = ["CONFIG_EXIT", "UNREACHABLE_EXIT", "cli", "main", "served_app"]


# Exit statuses: 2 for settings (or arguments) the command cannot run with, 1 for a store
# (database, Redis) it cannot reach.
CONFIG_EXIT = 2
UNREACHABLE_EXIT = 1


def main() -> None:
    """The `loupe` command. Bad settings and unreachable stores end it with a line saying
    which variable or store and why, not a traceback."""
    try:
        cli()
    except ConfigError as error:
        fail(str(error), CONFIG_EXIT)
    except Exception as error:
        failure = _store_failure(error)
        if failure is None:
            raise
        fail(*failure)


def _store_failure(error: Exception) -> tuple[str, int] | None:
    """What to say when `error` is a store the settings point at failing, and the status."""
    import redis.exceptions
    import sqlalchemy.exc
    from alembic.util import CommandError

    from app.telemetry.logs import redact

    settings = get_settings()  # cached: it was read before anything could fail
    if isinstance(error, sqlalchemy.exc.ArgumentError | sqlalchemy.exc.NoSuchModuleError):
        return f"LOUPE_DATABASE_URL: not a database URL SQLAlchemy can use: {error}", CONFIG_EXIT
    if isinstance(error, sqlalchemy.exc.OperationalError):
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        where = store_address(settings.database_url)
        message = f"cannot use the database{where} (LOUPE_DATABASE_URL): {reason}"
        return redact(message, *settings.secret_values()), UNREACHABLE_EXIT
    if isinstance(error, redis.exceptions.ConnectionError) and settings.redis_url:
        where = store_address(settings.redis_url)
        message = f"cannot connect to Redis{where} (LOUPE_REDIS_URL): {error}"
        return redact(message, *settings.secret_values()), UNREACHABLE_EXIT
    if isinstance(error, CommandError):
        return f"migrations: {error}", UNREACHABLE_EXIT
    return None


def store_address(url: str) -> str:
    """at host:port of a store URL, never its user or password ("" for a file)."""
    parts = urlsplit(url)
    if not parts.hostname:
        return ""
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f" at {parts.hostname}{port}"
