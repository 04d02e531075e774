"""Run Alembic migrations programmatically (`loupe migrate`)."""

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.config import Settings


def _migrations_dir() -> Path:
    beside_package = Path(__file__).resolve().parent.parent / "migrations"
    return beside_package if beside_package.is_dir() else Path.cwd() / "migrations"


def alembic_config(settings: Settings) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_migrations_dir()))
    # '%' would be read as interpolation by configparser.
    config.set_main_option("sqlalchemy.url", settings.database_url.replace("%", "%%"))
    return config


def upgrade(settings: Settings, revision: str = "head") -> None:
    path = settings.sqlite_path()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(settings), revision)


def downgrade(settings: Settings, revision: str = "base") -> None:
    command.downgrade(alembic_config(settings), revision)
