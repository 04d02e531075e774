"""A background thread that runs `workers.jobs.tick` every LOUPE_TICK_SECONDS."""

import logging
import threading
from collections.abc import Callable

import sqlalchemy.exc

from app.db_outage import database_away, unreachable
from app.evaluations import recovery
from app.redis_outage import REDIS_AWAY, redis_away
from app.runtime import Runtime
from workers import jobs

logger = logging.getLogger("loupe.ticker")


class Ticker:
    def __init__(
        self,
        runtime: Runtime,
        *,
        resume: bool = False,
        upkeep: Callable[[], None] | None = None,
    ) -> None:
        self.runtime = runtime
        self.resume = resume
        # More work for each tick (a worker's due RQ retries).
        self.upkeep = upkeep
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="loupe-ticker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        if self.resume:
            try:
                recovery.resume_all(self.runtime)
            except Exception:
                logger.exception("resuming unfinished evaluations failed")
        while not self._stop.wait(self.runtime.settings.tick_seconds):
            try:
                # Its own runtime's upkeep, not the process's current one: an app's ticker must
                # not tend another app's database (apps served side by side in one process).
                jobs.tick(self.runtime)
                if self.upkeep is not None:
                    self.upkeep()
            except REDIS_AWAY as error:
                # Redis restarting: the next tick tries again (what it would have enqueued is
                # still due in the database).
                redis_away("tick", error)
            except sqlalchemy.exc.SQLAlchemyError as error:
                # The database restarting: a line and a count, not an error's traceback per
                # tick; the next tick tries again.
                if not unreachable(error):
                    logger.exception("tick failed")
                else:
                    database_away("tick", error)
            except Exception:
                # Upkeep must outlive a database blip; the next tick tries again.
                logger.exception("tick failed")
