"""The evaluation core's background jobs, as typed handles (their entry points: `workers.jobs`)."""

from app.outbox import Job

# Scores one slice of an evaluation's test cases: (evaluation_id, start, stop[, turn]).
SCORE_SLICE = Job("workers.jobs.score_slice")
