"""The `loupe` command and its `keys` and `tenants` groups, and the start-up every command that
runs a process (serve, worker, migrate) shares: settings checked, logging configured."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer

from app.config import Settings, get_settings

cli = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Loupe: judge LLM output.",
)
keys = typer.Typer(no_args_is_help=True, help="Manage API keys.")
cli.add_typer(keys, name="keys")
tenants = typer.Typer(no_args_is_help=True, help="Manage tenants.")
cli.add_typer(tenants, name="tenants")


def start_up_settings() -> Settings:
    """The settings of a process that serves, works or migrates: distributed mode needs the
    shared LOUPE_SECRET_KEY, and a key file must hold a usable key (ConfigError, exit 2,
    otherwise)."""
    from app import crypto

    settings = get_settings()
    settings.require_shared_secret_key()
    crypto.check_key(settings)
    return settings


def configure_logging(settings: Settings) -> None:
    """Log lines in the settings' format and level, every secret redacted."""
    from app.telemetry import logs

    logs.configure(
        settings.log_format,
        settings.log_level,
        secrets=settings.secret_values(),
    )


def cli_logging() -> None:
    """Logging for an operator's command that changes a tenant (keys create | revoke, tenants
    create | rename | limits | delete), configured as `loupe serve` does it, so its `loupe.audit`
    line reaches stderr; Alembic's line per revision is left out."""
    import logging

    configure_logging(get_settings())
    logging.getLogger("alembic").setLevel(logging.WARNING)


@contextmanager
def migrated_runtime(*, log: bool = True) -> Iterator[Any]:
    """The service's runtime for an operator's command on tenants: its schema migrated first (a
    newcomer may run one before the first `serve`), closed after; with `log`, the command's
    `loupe.audit` lines reach stderr (`cli_logging`)."""
    from app import migrate as migrations
    from app.runtime import current

    if log:
        cli_logging()
    migrations.upgrade(get_settings())
    runtime = current()
    try:
        yield runtime
    finally:
        runtime.close()


def fail(message: str, status: int) -> NoReturn:
    """End the command with `message`, a `loupe: ` line each, and exit status `status`."""
    for line in message.splitlines():
        typer.echo(f"loupe: {line}", err=True)
    raise SystemExit(status)
