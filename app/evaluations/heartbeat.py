"""A job's heartbeat on a timer of its own: a long judge call cannot make a live job look dead,
and a killed job stops beating at once (the thread dies with its process)."""

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy.exc

from app.db_outage import database_away, unreachable
from app.runtime import Runtime
from app.unscoped.evaluation_jobs import UnscopedJobRepository

logger = logging.getLogger("loupe.jobs")


@contextmanager
def beating(runtime: Runtime, evaluation_id: str) -> Iterator[None]:
    """Refresh the evaluation's heartbeat every LOUPE_HEARTBEAT_SECONDS while the block runs."""
    every = runtime.settings.heartbeat_seconds
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every):
            try:
                with runtime.session() as session:
                    UnscopedJobRepository(session).heartbeat(evaluation_id)
                    session.commit()
            except sqlalchemy.exc.SQLAlchemyError as error:
                if not unreachable(error):
                    logger.warning("heartbeat of %s failed", evaluation_id, exc_info=True)
                else:
                    # The database restarting: the next beat writes it (a stale beat only lets
                    # the sweep enqueue a copy of the job, whose results count once).
                    database_away("heartbeat", error)
            except Exception:  # noqa: BLE001 - a database blip must not end the job
                logger.warning("heartbeat of %s failed", evaluation_id, exc_info=True)

    thread = threading.Thread(target=beat, name=f"loupe-heartbeat-{evaluation_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=every + 10)
