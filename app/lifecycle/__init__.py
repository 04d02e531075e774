"""One lifecycle for every kind of evaluation: submit, cancel, delete.

The API endpoints, the console pages, the CLI and the ticker call these for any kind; each
kind's own ways come from its strategy (`app.evaluations.kinds.Kind`), and every side effect
(jobs, webhook deliveries, counters, log lines) goes to the session's outbox, sent once the
caller's transaction commits.
"""

from app.evaluations.admission import admit
from app.lifecycle._service import cancel, delete, submit

__all__ = ["admit", "cancel", "delete", "submit"]
