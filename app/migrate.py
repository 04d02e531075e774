"""Run Alembic migrations programmatically (`loupe migrate`)."""

import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from app.config import Settings
from app.db import create_sqlite_file
from app.db_outage import (
    DATABASE_RETRY_CAP_SECONDS,
    DATABASE_RETRY_FIRST_SECONDS,
    database_away,
    unreachable,
)


def _migrations_dir() -> Path:
    beside_package = Path(__file__).resolve().parent.parent / "migrations"
    return beside_package if beside_package.is_dir() else Path.cwd() / "migrations"


def alembic_config(settings: Settings) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_migrations_dir()))
    # '%' would be read as interpolation by configparser.
    config.set_main_option("sqlalchemy.url", settings.database_url.replace("%", "%%"))
    # Data migrations that encrypt (whsec1) need the running settings' secret key.
    config.attributes["settings"] = settings
    return config


def current(settings: Settings) -> str | None:
    """The database's schema revision (None: no Loupe tables yet)."""
    from sqlalchemy import create_engine

    engine = create_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def reachable_current(
    settings: Settings, waiting: Callable[[BaseException, float], None] | None = None
) -> str | None:
    """`current`, waiting up to LOUPE_DATABASE_WAIT_SECONDS for a database that cannot be
    reached yet (a pod started before PostgreSQL): each wait is logged and counted, and told to
    `waiting(error, seconds left)`; a statement's error, or an outage past it, is raised."""
    deadline = time.monotonic() + settings.database_wait_seconds
    delay = DATABASE_RETRY_FIRST_SECONDS
    while True:
        try:
            return current(settings)
        except sqlalchemy.exc.SQLAlchemyError as error:
            left = deadline - time.monotonic()
            if not unreachable(error) or _turned_away(error) or left < delay:
                raise
            database_away("migrate", error)
            if waiting is not None:
                waiting(error, left)
        time.sleep(delay)
        delay = min(delay * 2, DATABASE_RETRY_CAP_SECONDS)


def _turned_away(error: BaseException) -> bool:
    """Whether the server answered and refused for good (a wrong password or database name:
    `FATAL:` from PostgreSQL), rather than not answering or still starting or stopping ("the
    database system is starting up"): that is not worth waiting for."""
    said = str(getattr(error, "orig", None) or error)
    return "FATAL:" in said and "the database system is" not in said


def upgrade(
    settings: Settings,
    revision: str = "head",
    waiting: Callable[[BaseException, float], None] | None = None,
) -> tuple[str | None, str | None]:
    """Upgrade the schema (once the database can be reached: `reachable_current`); returns the
    revisions before and after."""
    create_sqlite_file(settings.sqlite_path())
    before = reachable_current(settings, waiting)
    command.upgrade(alembic_config(settings), revision)
    return before, current(settings)


def downgrade(settings: Settings, revision: str = "base") -> None:
    command.downgrade(alembic_config(settings), revision)
