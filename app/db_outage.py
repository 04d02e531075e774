"""The database going away for a while (a restart, a failover): which errors say so, and the
one place a wait for it is logged and counted (`loupe_database_unavailable_total{operation}`).

The API answers such a request 503 with `Retry-After` (`api/problem_handlers.py`); a job that
has judged results waits to store them (`evaluations/scoring.py`) rather than lose them, and
with them the judge calls that made them.
"""

import logging
import sqlite3

import sqlalchemy.exc

from app.telemetry.metrics import DATABASE_UNAVAILABLE

logger = logging.getLogger("loupe.db")

# How long a job waits to store results it has judged while the database is away, and the
# waits between tries (doubling from the first to the cap). A restart takes seconds; past this
# the job fails and the sweep re-enqueues its slice.
DATABASE_PATIENCE_SECONDS = 120.0
DATABASE_RETRY_FIRST_SECONDS = 0.5
DATABASE_RETRY_CAP_SECONDS = 5.0


# SQLite's OperationalErrors that say the file is busy or unreadable, not that the schema or a
# statement is wrong ("no such table" is a broken database: a 500, not a wait).
_SQLITE_AWAY = ("database is locked", "unable to open database", "disk i/o error")


def unreachable(error: BaseException) -> bool:
    """Whether `error` says the database could not be reached (a refused or dropped
    connection, a pool that gave up), rather than that a statement was wrong."""
    if isinstance(error, sqlalchemy.exc.DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, sqlalchemy.exc.OperationalError):
        if isinstance(error.orig, sqlite3.Error):
            return any(said in str(error.orig).lower() for said in _SQLITE_AWAY)
        return True
    return isinstance(
        error,
        sqlalchemy.exc.InterfaceError
        | sqlalchemy.exc.InvalidatePoolError
        | sqlalchemy.exc.TimeoutError,
    )


def database_away(operation: str, error: BaseException) -> None:
    """Log and count that `operation` found the database away."""
    DATABASE_UNAVAILABLE.labels(operation).inc()
    logger.warning("database away during %s: %s", operation, type(error).__name__)
