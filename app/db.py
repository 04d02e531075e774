"""Engine, session factory and the column types shared by every table."""

import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, Engine, MetaData, Table, create_engine, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

from app import jsonio
from app.config import Settings

logger = logging.getLogger("loupe.db")

# Stable constraint names so Alembic migrations diff the same on SQLite and Postgres.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# none_as_null: Python None is SQL NULL (not JSON 'null'), so `IS NULL` filters mean "absent".
JSONType = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite drops the zone).

    A value with another offset is converted to UTC before it is bound: SQLite would keep its
    wall-clock time and drop the offset (a filter's `until=...+05:00` read as five hours later).
    A naive value is taken as UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    """Now, in UTC, timezone-aware."""
    return datetime.now(UTC)


def create_sqlite_file(path: Path | None) -> None:
    """Create the embedded database's file, and its directory, readable by their owner only.

    SQLite would create it with the umask's mode (usually world-readable), and the file holds
    every tenant's data; its -wal and -shm files take the database file's mode.
    """
    if path is None:
        return
    if path.exists():
        # A database made before files were created owner-only (or copied in) is tightened.
        for member in (
            path,
            path.with_name(path.name + "-wal"),
            path.with_name(path.name + "-shm"),
        ):
            owner_only(member)
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Without O_EXCL: a file another process created meanwhile is opened, not an error.
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def owner_only(path: Path) -> None:
    """Take group and other permissions off an existing file this process owns."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return
    if status.st_uid == os.geteuid() and status.st_mode & 0o077:
        path.chmod(status.st_mode & 0o700)
        logger.warning("%s was readable by others; it is now readable by its owner only", path)


def make_engine(settings: Settings) -> Engine:
    """An engine for the configured database; SQLite gets WAL and a busy timeout."""
    if settings.is_sqlite:
        create_sqlite_file(settings.sqlite_path())
        engine = create_engine(
            settings.database_url,
            connect_args={"check_same_thread": False, "timeout": 30},
            # JSON columns are text in SQLite; U+0000 is replaced as in PostgreSQL.
            json_serializer=jsonio.dumps_stored_text,
            json_deserializer=jsonio.loads,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            # WAL lets the API read while the embedded worker writes.
            cursor.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL stays consistent; only the last commits can be lost on power loss.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(
        settings.database_url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=20,
        # psycopg takes the bytes as they are; jsonb cannot hold U+0000.
        json_serializer=jsonio.dumps_stored,
        json_deserializer=jsonio.loads,
    )


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def dialect_insert(session: Session, table: Any) -> Any:
    """The backend's own INSERT construct (it has ON CONFLICT on both supported backends)."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover - only the two supported backends
        raise RuntimeError(f"unsupported database {dialect}")
    # The Core table, not the ORM class: the ORM's bulk-insert path costs several times the CPU
    # per row and these inserts (results, cache entries, claims) are on the judge hot path.
    return insert(getattr(table, "__table__", table))


def insert_ignoring_duplicates(
    session: Session,
    table: Any,
    rows: list[dict[str, Any]],
    returning: Any = None,
    *,
    likely_new: bool = False,
) -> set[Any]:
    """INSERT rows, silently skipping any that hit a unique constraint (a retried job's).

    With `returning` (a column), the set of that column's values for the rows inserted.
    `likely_new`: rows that are seldom stored already (a job's results) are copied in first
    (PostgreSQL), for a third to a half less CPU per row; a batch holding one that is goes in
    row by row.
    """
    if not rows:
        return set()
    if session.get_bind().dialect.name == "postgresql":
        core = getattr(table, "__table__", table)
        if likely_new and _copy_new(session, core, rows, None):
            if returning is None:
                return set()
            name = _column_name(returning)
            return {row[name] for row in rows}
        fast = _driver_insert(session, core, rows, returning)
        if fast is not None:
            return fast
    statement = dialect_insert(session, table).on_conflict_do_nothing()
    if returning is None:
        session.execute(statement, rows)
        return set()
    return set(session.scalars(statement.returning(returning), rows))


def add_into(
    session: Session,
    table: Any,
    rows: list[dict[str, Any]],
    keys: tuple[str, ...],
    added: tuple[str, ...] = (),
    replaced: tuple[str, ...] = (),
    *,
    likely_new: bool = False,
) -> None:
    """INSERT rows; a row whose `keys` are stored already adds its `added` columns to the
    stored row's and replaces its `replaced` ones (running sums, replaced answers).

    One short statement through the driver's `executemany`, in the rows' order (give them
    sorted, so concurrent writers lock shared rows in one order): a multi-row upsert built
    and compiled per call cost more CPU than its rows (docs/benchmarks.md, issue 31).
    `likely_new`: as for `insert_ignoring_duplicates` (a COPY first on PostgreSQL).
    """
    if not rows:
        return
    columns = tuple(rows[0])
    core = getattr(table, "__table__", table)
    conflict = (keys, added, replaced)
    if (
        likely_new
        and session.get_bind().dialect.name == "postgresql"
        and _copy_new(session, core, rows, conflict)
    ):
        return
    if not any(len(row) != len(columns) or row.keys() != rows[0].keys() for row in rows):
        session.flush()
        connection = session.connection()
        plan = _insert_plan(connection.dialect, core, columns, None, conflict)
        if plan is not None:
            _execute_plan(connection, plan, columns, rows)
            return
    statement = dialect_insert(session, core)
    excluded = statement.excluded
    changes = {name: core.c[name] + excluded[name] for name in added}
    changes.update({name: excluded[name] for name in replaced})
    for row in rows:  # in order, as the driver's path
        session.execute(
            statement.on_conflict_do_update(
                index_elements=[core.c[name] for name in keys], set_=changes
            ).values(row)
        )


@lru_cache(maxsize=64)
def _insert_plan(
    dialect: Dialect,
    table: Table,
    columns: tuple[str, ...],
    returning: str | None,
    conflict: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None = None,
) -> tuple[str, tuple[Callable[[Any], Any] | None, ...]] | None:
    """The one-row INSERT for `columns`, ON CONFLICT DO NOTHING (or, with `conflict` as
    (keys, added, replaced), DO UPDATE as `add_into` says), and each column's bind processor
    (SQLAlchemy's own: JSONB wrapped, timestamps in UTC); None when a column the row leaves
    out has a Python-side default (SQLAlchemy's path computes it)."""
    given = set(columns)
    if any(c.default is not None and c.name not in given for c in table.columns):
        return None
    quote = dialect.identifier_preparer.quote
    mark = _PLACEHOLDERS[dialect.paramstyle]
    name = quote(table.name)
    sql = (
        f"INSERT INTO {name} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES ({', '.join([mark] * len(columns))}) ON CONFLICT"
    )
    if conflict is None:
        sql += " DO NOTHING"
    else:
        keys, added, replaced = conflict
        changes = [f"{quote(c)} = {name}.{quote(c)} + excluded.{quote(c)}" for c in added]
        changes += [f"{quote(c)} = excluded.{quote(c)}" for c in replaced]
        sql += f" ({', '.join(quote(c) for c in keys)}) DO UPDATE SET {', '.join(changes)}"
    if returning is not None:
        sql += f" RETURNING {quote(returning)}"
    processors = tuple(
        table.columns[name].type.dialect_impl(dialect).bind_processor(dialect) for name in columns
    )
    return sql, processors


def _execute_plan(
    connection: Any,
    plan: tuple[str, tuple[Callable[[Any], Any] | None, ...]],
    columns: tuple[str, ...],
    rows: list[dict[str, Any]],
) -> None:
    sql, processors = plan
    cursor = connection.connection.cursor()
    try:
        cursor.executemany(sql, _bound(processors, columns, rows))
    finally:
        cursor.close()


def _bound(
    processors: tuple[Callable[[Any], Any] | None, ...],
    columns: tuple[str, ...],
    rows: list[dict[str, Any]],
) -> list[tuple[Any, ...]]:
    """Each row's values in `columns` order, through their columns' bind processors."""
    return [
        tuple(
            row[name] if process is None else process(row[name])
            for name, process in zip(columns, processors, strict=True)
        )
        for row in rows
    ]


def _driver_insert(
    session: Session, table: Table, rows: list[dict[str, Any]], returning: Any
) -> set[Any] | None:
    """PostgreSQL: the rows through psycopg's pipelined `executemany` of one short statement.

    SQLAlchemy's multi-row VALUES statement is longer than psycopg caches its parse for, so
    every batch was parsed again: a fifth of a worker's CPU per judge call (docs/benchmarks.md,
    issue 31). None when the rows do not share their columns (SQLAlchemy's path then)."""
    columns = tuple(rows[0])
    if any(len(row) != len(columns) or row.keys() != rows[0].keys() for row in rows):
        return None
    # What session.execute would have flushed first (pending ORM rows these may refer to).
    session.flush()
    connection = session.connection()
    plan = _insert_plan(
        connection.dialect, table, columns, None if returning is None else _column_name(returning)
    )
    if plan is None:
        return None
    sql, processors = plan
    cursor = connection.connection.cursor()
    try:
        cursor.executemany(sql, _bound(processors, columns, rows), returning=returning is not None)
        if returning is None:
            return set()
        inserted: set[Any] = set()
        while True:
            inserted.update(value for (value,) in cursor.fetchall())
            if not cursor.nextset():
                return inserted
    finally:
        cursor.close()


def _copy_new(
    session: Session,
    table: Table,
    rows: list[dict[str, Any]],
    conflict: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None,
) -> bool:
    """PostgreSQL: the rows by COPY, in a savepoint. False, with none of them stored, when one
    is stored already (a unique violation; the caller's INSERT then handles each row) or
    they do not share their columns.

    A pipelined INSERT cost the driver ~38 µs of CPU a result row and ~23 a cache answer; COPY
    ~24 and ~10 (`bench/db_writes.py`), a few percent of a worker's CPU per judge call (issue
    31)."""
    from psycopg.errors import UniqueViolation

    columns = tuple(rows[0])
    if any(len(row) != len(columns) or row.keys() != rows[0].keys() for row in rows):
        return False
    session.flush()
    connection = session.connection()
    plan = _insert_plan(connection.dialect, table, columns, None, conflict)
    if plan is None:
        return False
    _, processors = plan
    quote = connection.dialect.identifier_preparer.quote
    sql = f"COPY {quote(table.name)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    raw = connection.connection.driver_connection
    if raw.info.transaction_status != raw.info.transaction_status.INTRANS:
        return False  # a transaction() here would be one of its own, committed on exit
    try:
        # In the session's transaction, transaction() is a savepoint: a violation undoes the
        # COPY alone.
        with raw.transaction(), raw.cursor() as cursor, cursor.copy(sql) as copy:
            for values in _bound(processors, columns, rows):
                copy.write_row(values)
    except UniqueViolation:
        return False
    return True


def _column_name(column: Any) -> str:
    """The column name behind a mapped attribute (`Result.id`) or a Core column."""
    prop = getattr(column, "property", None)
    return prop.columns[0].name if prop is not None else column.name


# The drivers' placeholder for a positional parameter, by DB-API paramstyle.
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


def plain_rows(session: Session, sql: str, parameters: list[Any]) -> list[tuple[Any, ...]]:
    """Rows of `sql` (positional `?` parameters) straight from the driver's cursor.

    For reads of tens of thousands of narrow rows: SQLAlchemy's row processing costs several
    times the query there. JSON columns come back as text on SQLite, decoded on PostgreSQL.
    """
    connection = session.connection()
    mark = _PLACEHOLDERS[connection.dialect.paramstyle]
    cursor = connection.connection.cursor()
    try:
        cursor.execute(sql.replace("?", mark), parameters)
        return cursor.fetchall()
    finally:
        cursor.close()
