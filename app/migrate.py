"""Run Alembic migrations programmatically (`loupe migrate`)."""

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from app.config import Settings
from app.db import create_sqlite_file


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


def upgrade(settings: Settings, revision: str = "head") -> tuple[str | None, str | None]:
    """Upgrade the schema; returns the revisions before and after."""
    create_sqlite_file(settings.sqlite_path())
    before = current(settings)
    command.upgrade(alembic_config(settings), revision)
    return before, current(settings)


def downgrade(settings: Settings, revision: str = "base") -> None:
    command.downgrade(alembic_config(settings), revision)
