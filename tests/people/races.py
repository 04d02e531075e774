"""Driving a race between two writers deterministically: a test holds its rows in an open
transaction and commits once the request under test waits at its own write."""

import sys
from collections.abc import Callable

from sqlalchemy import text

from tests.fixtures.api import Api


def waiting_at(api: Api, *statements: str) -> Callable[[], bool]:
    """Whether a request is at one of these writes (PostgreSQL: waiting for a lock)."""
    if api.settings.is_sqlite:
        # SQLite has no view of who waits for its write lock: the request's thread in the
        # served app (in this process), in the driver call of that statement, is.
        def at_write() -> bool:
            for frame in sys._current_frames().values():
                while frame is not None:
                    statement = frame.f_locals.get("statement")
                    if (
                        frame.f_code.co_name == "do_execute"
                        and isinstance(statement, str)
                        and statement.startswith(statements)
                    ):
                        return True
                    frame = frame.f_back
            return False

        return at_write

    def waiting() -> bool:
        likes = " OR ".join(f"query LIKE '{statement}%'" for statement in statements)
        with api.served.runtime.session() as session:
            return bool(
                session.scalar(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        f"WHERE wait_event_type = 'Lock' AND ({likes})"
                    )
                )
            )

    return waiting
