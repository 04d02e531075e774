"""A background thread that runs `workers.jobs.tick` every LOUPE_TICK_SECONDS."""

import logging
import threading

from app.evaluations import tasks as evaluation_tasks
from app.runtime import Runtime
from workers import jobs

logger = logging.getLogger("loupe.ticker")


class Ticker:
    def __init__(self, runtime: Runtime, *, resume: bool = False) -> None:
        self.runtime = runtime
        self.resume = resume
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
                evaluation_tasks.resume_all(self.runtime)
            except Exception:
                logger.exception("resuming unfinished evaluations failed")
        while not self._stop.wait(self.runtime.settings.tick_seconds):
            try:
                jobs.tick()
            except Exception:
                # Upkeep must outlive a database blip; the next tick tries again.
                logger.exception("tick failed")
