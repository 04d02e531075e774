"""Bulk writes on PostgreSQL: rows that are likely new go in by COPY in a savepoint, and a
batch holding a row stored already goes in row by row, as before (issue 31)."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from app import migrate
from app.db import add_into, insert_ignoring_duplicates, make_engine, make_sessionmaker
from app.models import JudgeCacheEntry, JudgeClaim
from tests.fixtures.api import postgres_settings
from tests.fixtures.services import PostgresServer, RedisServer


@pytest.fixture(scope="module")
def sessions(postgres_server: PostgresServer, redis_server: RedisServer) -> Iterator[object]:
    settings = postgres_settings(postgres_server, redis_server)
    migrate.upgrade(settings)
    engine = make_engine(settings)
    try:
        yield make_sessionmaker(engine)
    finally:
        engine.dispose()


def entry(key: str, content: str = "answer", **extra: object) -> dict[str, object]:
    return {
        "scope": "ten_copy",
        "key": key,
        "content": content,
        "logprobs": [{"token": "7", "logprob": -0.1, "nested": {"a": [1, None, "x\\ty"]}}],
        "created_at": datetime(2026, 11, 27, 10, 0, tzinfo=timezone(timedelta(hours=5))),
        **extra,
    }


def stored(session: Session, *keys: str) -> dict[str, JudgeCacheEntry]:
    rows = session.scalars(select(JudgeCacheEntry).where(JudgeCacheEntry.key.in_(keys))).all()
    return {row.key: row for row in rows}


@contextmanager
def protocol_trace(session: Session, tmp_path: Path) -> Iterator[list[str]]:
    """The messages the session's connection sends (libpq's trace), by message name."""
    pgconn = session.connection().connection.driver_connection.pgconn
    path = tmp_path / "trace.txt"
    sent: list[str] = []
    with path.open("w") as file:
        pgconn.trace(file.fileno())
        try:
            yield sent
        finally:
            pgconn.untrace()
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if fields[1] == "F":
            sent.append(fields[3].strip())


class TestCopy:
    def test_new_rows_are_copied_with_their_values_as_an_insert_would_store_them(
        self, sessions, tmp_path: Path
    ) -> None:
        with sessions() as session:
            session.execute(text("SELECT 1"))  # a transaction is open, as in a job's write
            with protocol_trace(session, tmp_path) as sent:
                add_into(
                    session,
                    JudgeCacheEntry,
                    [entry("k1"), entry("k2", content="tab\there, newline\nthere, back\\slash")],
                    keys=("scope", "key"),
                    replaced=("content", "logprobs", "created_at"),
                    likely_new=True,
                )
            session.commit()
        assert "CopyDone" in sent and "Bind" not in sent
        with sessions() as session:
            rows = stored(session, "k1", "k2")
        assert rows["k2"].content == "tab\there, newline\nthere, back\\slash"
        assert rows["k1"].logprobs == entry("k1")["logprobs"]
        # Stored in UTC, the instant kept.
        assert rows["k1"].created_at == datetime(2026, 11, 27, 5, 0, tzinfo=UTC)

    def test_a_batch_with_a_stored_row_goes_in_row_by_row(self, sessions, tmp_path: Path) -> None:
        with sessions() as session:
            session.execute(text("SELECT 1"))
            add_into(
                session,
                JudgeCacheEntry,
                [entry("r1", content="old")],
                keys=("scope", "key"),
                replaced=("content", "logprobs", "created_at"),
                likely_new=True,
            )
            session.commit()
        with sessions() as session:
            session.execute(text("SELECT 1"))
            with protocol_trace(session, tmp_path) as sent:
                add_into(
                    session,
                    JudgeCacheEntry,
                    [entry("r0", content="new"), entry("r1", content="replaced")],
                    keys=("scope", "key"),
                    replaced=("content", "logprobs", "created_at"),
                    likely_new=True,
                )
            # The failed COPY was undone by its savepoint alone: the transaction goes on.
            session.commit()
        # Copied first, then each row through the upsert.
        assert "CopyData" in sent and sent.count("Bind") == 2
        with sessions() as session:
            rows = stored(session, "r0", "r1")
        assert {key: row.content for key, row in rows.items()} == {
            "r0": "new",
            "r1": "replaced",
        }

    def test_the_rows_inserted_are_returned_whichever_way_they_went(self, sessions) -> None:
        def claim(key: str) -> dict[str, object]:
            return {
                "scope": "ten_copy",
                "key": key,
                "holder": "job",
                "claimed_at": datetime.now(UTC),
            }

        with sessions() as session:
            session.execute(text("SELECT 1"))
            first = insert_ignoring_duplicates(
                session, JudgeClaim, [claim("c1"), claim("c2")], JudgeClaim.key, likely_new=True
            )
            session.commit()
        with sessions() as session:
            session.execute(text("SELECT 1"))
            second = insert_ignoring_duplicates(
                session, JudgeClaim, [claim("c2"), claim("c3")], JudgeClaim.key, likely_new=True
            )
            session.commit()
        assert first == {"c1", "c2"}
        assert second == {"c3"}
        with sessions() as session:
            count = session.scalar(
                select(func.count()).select_from(JudgeClaim).where(JudgeClaim.scope == "ten_copy")
            )
        assert count == 3

    def test_outside_a_transaction_nothing_is_committed_on_its_own(self, sessions) -> None:
        # No statement has run: a savepoint would be a transaction of its own, committed
        # whatever the session does next. The rows go in the session's transaction instead.
        with sessions() as session:
            add_into(
                session,
                JudgeCacheEntry,
                [entry("t1")],
                keys=("scope", "key"),
                replaced=("content", "logprobs", "created_at"),
                likely_new=True,
            )
            session.rollback()
        with sessions() as session:
            assert stored(session, "t1") == {}
