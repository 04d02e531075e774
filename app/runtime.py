"""The process's shared parts: settings, database engine, sessions and the dispatcher."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.config import Settings, get_settings
from app.db import make_engine, make_sessionmaker
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
        with self.sessions() as session:
            try:
                yield session
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.close()
            self._dispatcher = None
        self.engine.dispose()


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
