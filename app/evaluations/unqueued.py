"""Slices committed for scoring whose job Redis did not take (away past the caller's patience,
refusing writes, a lock it never gave back, a process killed before its enqueue ran): recorded
in the database, queued again by the ticker (`recovery.requeue_unqueued`) once Redis takes work.

A request committing new cases writes their slices' rows in its own transaction (`pending`)
and forgets them once their jobs are queued (`queued`): a process killed between its commit
and its enqueue (SIGKILL, the OOM killer) leaves the rows behind, where a row written only
once the enqueue failed was never written. A row the ticker reads while the request's own
enqueue is under way costs nothing twice: a job that already waits or runs under the slice's
id is not queued again (`RQDispatcher._enqueue`), and one that has finished skips the results
it stored.

The stuck-evaluation sweep cannot stand in for this: it looks for evaluations whose heartbeat
is stale, and an open evaluation that keeps taking batches (an online rule's day under steady
traffic) keeps its heartbeat fresh, so a lost slice among its later ones would wait for a lull
of LOUPE_STUCK_AFTER_SECONDS, or the day's end.
"""

import logging
from collections.abc import Sequence

import sqlalchemy.exc
from sqlalchemy.orm import Session

from app.db_outage import database_away, unreachable
from app.redis_outage import REDIS_AWAY
from app.runtime import Runtime
from app.unscoped.unqueued_slices import UnscopedUnqueuedSliceRepository

logger = logging.getLogger("loupe.evaluations")

# Slices queued again per tick: a long outage's backlog goes over a few ticks.
REQUEUE_BATCH = 200


def record(
    runtime: Runtime,
    evaluation_id: str,
    slices: Sequence[tuple[int, int, int]],
    error: BaseException,
) -> None:
    """Remember these (start, stop, turn) slices of a committed evaluation, whose jobs Redis
    did not take (`error`), for the ticker to queue. A database that is away too leaves them
    to the stuck-evaluation sweep."""
    said = type(error).__name__ if isinstance(error, REDIS_AWAY) else repr(error)
    logger.warning(
        "evaluation %s: %d slice(s) stored but not queued (%s); the ticker will queue them",
        evaluation_id,
        len(slices),
        said,
    )
    try:
        with runtime.session() as session:
            UnscopedUnqueuedSliceRepository(session).add(evaluation_id, slices)
            session.commit()
    except sqlalchemy.exc.IntegrityError:
        # The evaluation was deleted meanwhile: nothing is left to score.
        return
    except sqlalchemy.exc.SQLAlchemyError as away:
        if not unreachable(away):
            raise
        database_away("unqueued", away)


def pending(
    session: Session, runtime: Runtime, evaluation_id: str, slices: Sequence[tuple[int, int]]
) -> None:
    """Record, in the caller's transaction, the (start, stop) slices its commit will queue
    (with Redis: the embedded queue dies with the process, and `resume_all` re-queues
    every unfinished evaluation when it starts again)."""
    if slices and not runtime.settings.embedded:
        session.flush()
        repository = UnscopedUnqueuedSliceRepository(session)
        repository.add(evaluation_id, [(start, stop, 0) for start, stop in slices])


def queued(runtime: Runtime, evaluation_id: str, starts: Sequence[int]) -> None:
    """Forget the `pending` rows of slices whose jobs Redis took (or already held). A database
    away now leaves them to the ticker, which finds their jobs queued and only forgets them."""
    if runtime.settings.embedded or not starts:
        return
    try:
        with runtime.session() as session:
            UnscopedUnqueuedSliceRepository(session).remove(evaluation_id, *starts)
            session.commit()
    except sqlalchemy.exc.SQLAlchemyError as away:
        if not unreachable(away):
            raise
        database_away("unqueued", away)
