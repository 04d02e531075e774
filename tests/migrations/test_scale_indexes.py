"""Migration scale_indexes on PostgreSQL: the score index an operator built ahead (CREATE INDEX
CONCURRENTLY at a quiet hour) is kept, and one an interrupted build left INVALID is built again."""

import uuid

import psycopg
import pytest

from app import migrate
from app.config import Settings
from tests.fixtures.services import PostgresServer

NAME = "ix_result_evaluation_id_score"


def index_state(url: str) -> list[tuple[bool, str]]:
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as db:
        return db.execute(
            "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = %s",
            [NAME],
        ).fetchall()


def prebuilt(url: str, valid: bool) -> None:
    with psycopg.connect(
        url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    ) as db:
        db.execute(f"CREATE INDEX CONCURRENTLY {NAME} ON result (evaluation_id)")
        if not valid:
            # What a build stopped half-way leaves behind (the tests' server runs as superuser).
            db.execute(
                "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", [NAME]
            )


@pytest.mark.parametrize("valid", [True, False])
def test_an_index_built_ahead_is_kept_if_valid_else_built_again(
    postgres_server: PostgresServer, valid: bool
) -> None:
    settings = Settings(database_url=postgres_server.create_database(f"si_{uuid.uuid4().hex[:8]}"))
    migrate.upgrade(settings, "scale_append")
    prebuilt(settings.database_url, valid)
    migrate.upgrade(settings)
    [(is_valid, definition)] = index_state(settings.database_url)
    assert is_valid
    if valid:
        assert definition.endswith("(evaluation_id)")
    else:
        assert definition.endswith("(evaluation_id, score, test_case_index, metric_index)")
