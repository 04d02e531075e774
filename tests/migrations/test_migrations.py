"""Alembic migrations: empty → head → base → head, on PostgreSQL and SQLite."""

import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from app import migrate
from app.config import Settings
from app.db import Base
from tests.fixtures.services import PostgresServer

TABLES = set(Base.metadata.tables)


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def round_trip(settings: Settings) -> None:
    migrate.upgrade(settings)
    assert tables(settings.database_url) == TABLES
    migrate.downgrade(settings, "base")
    assert tables(settings.database_url) == set()
    migrate.upgrade(settings)
    assert tables(settings.database_url) == TABLES


class TestMigrations:
    def test_postgres_up_down_up(self, postgres_server: PostgresServer) -> None:
        url = postgres_server.create_database(f"migrations_{uuid.uuid4().hex[:8]}")
        round_trip(Settings(database_url=url))

    def test_sqlite_up_down_up(self, tmp_path: Path) -> None:
        round_trip(Settings(database_url=f"sqlite:///{tmp_path}/m.db"))

    @pytest.mark.parametrize("backend", ["postgres", "sqlite"])
    def test_head_matches_the_models(
        self, backend: str, tmp_path: Path, request: pytest.FixtureRequest
    ) -> None:
        from alembic.autogenerate import compare_metadata
        from alembic.migration import MigrationContext

        if backend == "postgres":
            server: PostgresServer = request.getfixturevalue("postgres_server")
            url = server.create_database(f"drift_{uuid.uuid4().hex[:8]}")
        else:
            url = f"sqlite:///{tmp_path}/d.db"
        migrate.upgrade(Settings(database_url=url))
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        finally:
            engine.dispose()
        assert diff == [], f"models changed without a migration: {diff}"
