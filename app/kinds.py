"""Every kind built on evaluations, imported so each registers with the scoring job.

Imported by the process entry points (the API app and the worker jobs), never by
`app/evaluations/`: the arrow points from the kinds to the job.
"""

from app.evals import tasks as _evals  # noqa: F401
from app.runs import tasks as _runs  # noqa: F401
