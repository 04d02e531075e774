"""Loupe's Prometheus metric families: one definition each, counted where the thing happens.

Labels carry bounded values only (route templates, statuses, metric types, endpoint hosts,
model names, outcomes), never ids of things made per request; online rules are the exception
by design (issue 26 asks for each rule's counts here), capped per process at MAX_RULE_LABELS.
With PROMETHEUS_MULTIPROC_DIR set (`loupe serve --workers N`) prometheus-client keeps each
process's values in that directory and `/metrics` sums them.
"""

import os
import threading

from prometheus_client import Counter, Gauge, Histogram

# Judge calls take seconds, not milliseconds: the default buckets stop at 10 s.
_PROVIDER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120)

HTTP_REQUESTS = Counter(
    "loupe_http_requests_total",
    "HTTP requests answered by the API, by route template, method and status.",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "loupe_http_request_duration_seconds",
    "Time to answer an HTTP request (until the response has been sent).",
    ["route", "method"],
)
EVALUATIONS_SUBMITTED = Counter(
    "loupe_evaluations_submitted_total",
    "Evaluations accepted for scoring (kind: evaluation or run).",
    ["kind"],
)
EVALUATIONS_FINISHED = Counter(
    "loupe_evaluations_finished_total",
    "Evaluations that reached a final status, counted by the process that moved them there.",
    ["kind", "status"],
)
EVALUATIONS_DELETED = Counter(
    "loupe_evaluations_deleted_total",
    "Evaluations deleted with their rows (of any kind), counted once the deletion commits.",
    ["kind"],
)
EVALUATIONS_REENQUEUED = Counter(
    "loupe_evaluations_reenqueued_total",
    "Evaluations whose jobs went silent and were enqueued again.",
)
JOBS_GAVE_WAY = Counter(
    "loupe_jobs_gave_way_total",
    "Scoring jobs that gave their worker to another tenant's waiting job (fair sharing), or "
    "queued the rest of their slice because their worker was stopping.",
)
RESULTS_STORED = Counter(
    "loupe_results_stored_total",
    "Results stored, by metric type and outcome (passed, failed, errored, unscored).",
    ["metric_type", "outcome"],
)
PROVIDER_REQUESTS = Counter(
    "loupe_provider_requests_total",
    "Requests to judge and candidate endpoints, by role, endpoint host, model and outcome "
    "(ok, rate_limited, server_error, timeout, unreachable, malformed, refused).",
    ["role", "host", "model", "outcome"],
)
PROVIDER_DURATION = Histogram(
    "loupe_provider_request_duration_seconds",
    "Time from sending a judge or candidate request to its answer or failure.",
    ["role", "host", "model"],
    buckets=_PROVIDER_BUCKETS,
)
PROVIDER_PROMPT_TOKENS = Counter(
    "loupe_provider_prompt_tokens_total",
    "Prompt (input) tokens the endpoints reported.",
    ["role", "host", "model"],
)
PROVIDER_COMPLETION_TOKENS = Counter(
    "loupe_provider_completion_tokens_total",
    "Completion (output) tokens the endpoints reported.",
    ["role", "host", "model"],
)
# Summed over the endpoints sharing the labels, and over processes (`livesum`).
PROVIDER_IN_FLIGHT = Gauge(
    "loupe_provider_in_flight",
    "Judge and candidate requests sent and not yet answered, by role and endpoint host.",
    ["role", "host"],
    multiprocess_mode="livesum",
)
PROVIDER_IN_FLIGHT_LIMIT = Gauge(
    "loupe_provider_in_flight_limit",
    "How many requests may be in flight at once, as pacing has adapted it (from 1, growing "
    "while the endpoint states no limit and answers no 429, halved on a 429).",
    ["role", "host"],
    multiprocess_mode="livesum",
)
# Submitted images being decoded, process-wide (app/media/decoding.py), and those waiting.
IMAGE_DECODES = Gauge(
    "loupe_image_decodes",
    "Submitted images being decoded and resized now (at most min(4, CPUs) per process).",
    multiprocess_mode="livesum",
)
IMAGE_DECODES_WAITING = Gauge(
    "loupe_image_decodes_waiting",
    "Submitted images waiting for a decoding slot.",
    multiprocess_mode="livesum",
)
JUDGE_CACHE_LOOKUPS = Counter(
    "loupe_judge_cache_lookups_total",
    "Judge answers looked up in the cache before asking the judge (result: hit or miss).",
    ["result"],
)
ONLINE_EXPORTS = Counter(
    "loupe_online_exported_events_total",
    "Online rules' gen_ai.evaluation.result events sent to OTLP collectors, by outcome "
    "(exported: the collector accepted them; failed: not accepted, sent again later).",
    ["outcome"],
)
# Rules are the tenants' to make, as many as they like: past this many in one process, more
# are counted as rule `other`, so no tenant can grow the label set without bound (a deleted
# rule gives its place back). Each rule's exact counts are on GET /v1/online_rules/{id}.
MAX_RULE_LABELS = 256
OTHER_RULE = "other"


class _PerRule:
    """`loupe_online_calls_total` by rule and outcome, its rule values capped per process."""

    def __init__(self, counter: Counter, limit: int) -> None:
        self._counter = counter
        self._limit = limit
        self._rules: set[str] = set()
        self._lock = threading.Lock()

    def labels(self, rule_id: str, outcome: str) -> Counter:
        with self._lock:
            if rule_id not in self._rules:
                if len(self._rules) >= self._limit:
                    rule_id = OTHER_RULE
                else:
                    self._rules.add(rule_id)
        return self._counter.labels(rule_id, outcome)

    def forget(self, rule_id: str) -> None:
        """Remove a rule's series and give its place back."""
        with self._lock:
            if rule_id not in self._rules:
                return
            self._rules.discard(rule_id)
        outcomes = {
            sample.labels["outcome"]
            for metric in self._counter.collect()
            for sample in metric.samples
            if sample.labels.get("rule") == rule_id
        }
        for outcome in outcomes:
            self._counter.remove(rule_id, outcome)


ONLINE_CALLS = _PerRule(
    Counter(
        "loupe_online_calls_total",
        "GenAI calls received over OTLP, by online rule and what the rule did with them: "
        "received, matched, sampled, sent (to its judge), backfilled, or skipped_<reason> "
        "(not_sampled, over_budget, no_content, ...); and its results stored: judged (with a "
        "score or verdict) or errored (with an error). A deleted rule's series are removed; "
        f"past {MAX_RULE_LABELS} rules in a process, more count as rule `{OTHER_RULE}`.",
        ["rule", "outcome"],
    ),
    MAX_RULE_LABELS,
)
WEBHOOK_DELIVERIES = Counter(
    "loupe_webhook_deliveries_total",
    "Webhook delivery attempts, by outcome (delivered; failed, to be retried; gave_up).",
    ["outcome"],
)
DATABASE_UNAVAILABLE = Counter(
    "loupe_database_unavailable_total",
    "Database operations that found it unreachable (refused, dropped, the pool giving up), by "
    "operation: request (an API request, answered 503), store (a job's write of judged "
    "results, tried again), tick (the ticker's upkeep, tried next tick), heartbeat (a running "
    "job's beat, written on the next), close (a session's connection dropped after its last "
    "commit: nothing to undo), migrate (`loupe migrate` or `serve` waiting to reach it), "
    "unqueued (recording slices Redis did not take: left to the stuck-evaluation sweep; or "
    "forgetting queued ones: the tick finds their jobs queued).",
    ["operation"],
)
REDIS_UNAVAILABLE = Counter(
    "loupe_redis_unavailable_total",
    "Redis operations that found Redis unreachable (refused, reset, timed out) or refusing "
    "writes (out of memory, a read-only replica) and were put off to retry, by operation: pace "
    "(a judge call's turn in the shared schedule), enqueue, lease (a running job's lease), "
    "give_way, lapsed (the sweep for dead jobs' leases), worker (the RQ work loop), tick (the "
    "ticker's upkeep), requeue (the ticker queueing slices Redis had not taken).",
    ["operation"],
)


def forget_online_rule(rule_id: str) -> None:
    """Remove a deleted rule's `loupe_online_calls_total` series. With PROMETHEUS_MULTIPROC_DIR
    each process's values live in its files, which prometheus-client cannot remove from: there
    they stay until the processes restart."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    ONLINE_CALLS.forget(rule_id)
