"""Online rules' background jobs, as typed handles (their entry points: `workers.jobs`)."""

from app.outbox import Job

# Sends a rule's results not yet exported as `gen_ai.evaluation.result` log records: (rule_id,).
EXPORT_RESULTS = Job("workers.jobs.export_online_results")
