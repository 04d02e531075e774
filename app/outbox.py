"""Side effects of a unit of work, recorded during its transaction and run once it commits.

Enqueues, webhook deliveries, counters and lifecycle log lines must not happen for a change
that never committed (a worker would look for a row that is not there; a counter would count a
cancel that rolled back), nor be ordered by hand after each `commit()`. Code that decides such
an effect records it on the session's outbox; the session runs the effects, in the order they
were recorded, right after its transaction commits, and drops them when it rolls back (as
Polar's `worker/_enqueue.py` collects jobs during a request and sends them after its commit).
"""

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from app.redis_outage import REDIS_PATIENCE_SECONDS

if TYPE_CHECKING:
    from app.runtime import Runtime

logger = logging.getLogger("loupe.outbox")

Effect = Callable[[], None]

_KEY = "loupe.outbox"
# Effects of committed transactions kept for the end of a `held` block.
_HELD = "loupe.outbox.held"


@dataclass(frozen=True)
class Job:
    """A typed handle on one kind of background job, owned by the domain whose work it does.

    `entry` is the worker's importable entry point (kept stable: jobs already waiting in Redis
    name it); callers enqueue through the handle and never spell it.
    """

    entry: str

    def enqueue(
        self,
        runtime: "Runtime",
        *args: str | int,
        job_id: str,
        owner: str = "",
        patience: float = REDIS_PATIENCE_SECONDS,
    ) -> bool:
        """Queue the job now (callers inside a transaction use `Outbox.enqueue` instead)."""
        return runtime.dispatcher.enqueue(
            self.entry, *args, job_id=job_id, owner=owner, patience=patience
        )


class Outbox:
    """The effects one session's open transaction will have once it commits."""

    def __init__(self) -> None:
        self._effects: list[Effect] = []

    def add(self, effect: Effect) -> None:
        """Run `effect` after the transaction commits (a log line, a counter, an enqueue)."""
        self._effects.append(effect)

    def enqueue(self, runtime: "Runtime", job: Job, *args: str | int, **options: Any) -> None:
        """Queue `job` once the rows it will read are committed."""

        def send() -> None:
            job.enqueue(runtime, *args, **options)

        self.add(send)

    def take(self) -> list[Effect]:
        """The effects recorded so far, no longer this outbox's to run."""
        effects, self._effects = self._effects, []
        return effects

    def flush(self) -> None:
        run(self.take())

    def drop(self) -> None:
        self._effects.clear()


def run(effects: list[Effect]) -> None:
    """Run the effects of committed transactions, in order, each whatever the others do."""
    for effect in effects:
        try:
            effect()
        except Exception:
            # The change is committed: a lost enqueue is picked up by the ticker's sweep,
            # and one failed effect must not keep the others from running.
            logger.exception("an effect of a committed transaction failed")


@contextmanager
def held(session: Session) -> Iterator[None]:
    """Keep the effects of the transactions the session commits in the block, and run them
    once it ends, however it ends.

    An idempotent request stores its answer on its key in a second commit after its work's:
    run between the two, an enqueue waiting out a Redis that is away (seconds) left the key
    claimed without an answer for that long, and a process killed then left it so for good
    (a retry is told "in progress" until the key expires a day later).
    """
    kept: list[Effect] = []
    session.info[_HELD] = kept
    try:
        yield
    finally:
        session.info.pop(_HELD, None)
        run(kept)


def outbox(session: Session) -> Outbox:
    """The outbox of the session's current transaction."""
    box = session.info.get(_KEY)
    if box is None:
        box = session.info[_KEY] = Outbox()
    return box


@event.listens_for(Session, "after_commit")
def _flush(session: Session) -> None:
    box = session.info.get(_KEY)
    if box is None:
        return
    kept = session.info.get(_HELD)
    if kept is not None:
        kept.extend(box.take())
    else:
        box.flush()


@event.listens_for(Session, "after_transaction_end")
def _drop(session: Session, transaction: SessionTransaction) -> None:
    # The outermost transaction ended without its commit having flushed them (a rollback, a
    # close): what they were for never happened. A savepoint's end leaves them be.
    if transaction.parent is None and not transaction.nested:
        box = session.info.get(_KEY)
        if box is not None:
            box.drop()
