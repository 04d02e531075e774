"""Where jobs go: RQ on Redis in distributed mode, a thread pool in the embedded mode.

Both call the same job functions in `workers.jobs` with ids only, and both order waiting jobs
fairly between tenants and tell a running job when to give its worker up (`app/fair_queue.py`).

Redis going away for a while (a restart, a failover) costs time, never work: an enqueue waits
for it (`patiently`, up to REDIS_PATIENCE_SECONDS), a running job keeps its turn and renews its
lease once Redis answers, and the sweep for lapsed leases tries again on the next tick. Each
time Redis is found away it is logged and counted (`loupe_redis_unavailable_total`).
"""

from app.config import Settings
from app.dispatch.embedded import EmbeddedDispatcher
from app.dispatch.interface import Dispatcher, JobTurn, Turn
from app.dispatch.redis_queue import LAPSED_KEPT, RQDispatcher

__all__ = [
    "LAPSED_KEPT",
    "Dispatcher",
    "EmbeddedDispatcher",
    "JobTurn",
    "RQDispatcher",
    "Turn",
    "make_dispatcher",
]


def make_dispatcher(settings: Settings) -> Dispatcher:
    return EmbeddedDispatcher(settings) if settings.embedded else RQDispatcher(settings)
