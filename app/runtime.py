"""The process's shared parts: settings, database engine, sessions and the dispatcher."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import sqlalchemy.exc
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.config import Settings, get_settings
from app.db import make_engine, make_sessionmaker
from app.db_outage import database_away, unreachable
from app.dispatch import Dispatcher, make_dispatcher


@dataclass
class Runtime:
    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    _dispatcher: Dispatcher | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def dispatcher(self) -> Dispatcher:
        # Built on first use so a job process that never enqueues never starts threads.
        with self._lock:
            if self._dispatcher is None:
                self._dispatcher = make_dispatcher(self.settings)
            return self._dispatcher

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose transaction the caller commits; rolled back on error."""
        session = self.sessions()
        try:
            yield session
        except BaseException:
            session.rollback()
            raise
        finally:
            _close(session)

    def close(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.close()
            self._dispatcher = None
        self.engine.dispose()


def _close(session: Session) -> None:
    """Close `session`. A connection the database dropped meanwhile (a restart) fails the
    rollback of what was read since the last commit: the server ended that transaction with
    the connection, so nothing is left to undo, and what was committed stands (a request's
    answer is not turned into an error after its work was stored)."""
    try:
        session.close()
    except sqlalchemy.exc.SQLAlchemyError as error:
        if not unreachable(error):
            raise
        database_away("close", error)
        session.invalidate()


_current: Runtime | None = None
_current_lock = threading.Lock()


def configure(settings: Settings) -> Runtime:
    """Make a new runtime for `settings` the process's current one; its owner closes it."""
    global _current
    with _current_lock:
        engine = make_engine(settings)
        _current = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
        return _current


def current() -> Runtime:
    """The process's runtime; job processes build it from the environment on first use."""
    global _current
    with _current_lock:
        if _current is None:
            settings = get_settings()
            engine = make_engine(settings)
            _current = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
        return _current
