"""What the migration tests share: an empty database on each backend."""

import uuid
from pathlib import Path

import pytest

from tests.fixtures.services import PostgresServer


@pytest.fixture(params=["postgres", "sqlite"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each backend."""
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return server.create_database(f"m_{uuid.uuid4().hex[:8]}")
    return f"sqlite:///{tmp_path}/m.db"
