"""The settings of the service itself: where it listens and stores, request and job limits, jobs'
timing and recovery, logs, metrics and retention."""

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServiceFields(BaseSettings):
    """Settings' first fields (their order is the settings reference's)."""

    # Each field's docstring is its description (docs/generate.py writes the settings reference
    # from them); Settings reads the environment, this class only declares the fields.
    model_config = SettingsConfigDict(use_attribute_docstrings=True)

    host: str = "127.0.0.1"
    """The address `loupe serve` listens on."""
    port: int = 8000
    """The port `loupe serve` listens on."""
    database_url: str = "sqlite:///./var/loupe.db"
    """SQLAlchemy URL."""
    database_wait_seconds: float = Field(default=0.0, ge=0, le=3600)
    """How long `loupe migrate` (and `loupe serve` as it migrates first) wait for a database they
    cannot reach yet, saying why on stderr at each try; 0: fail at once with one line (a
    supervisor restarts it). A server that answers and refuses (a wrong password or database
    name) fails at once either way."""
    # No Redis URL means the embedded worker runs jobs in the API process.
    redis_url: str | None = None
    """Set it to use RQ workers instead of the in-process worker."""
    queue_name: str = "loupe"
    """The RQ queue the API enqueues to and workers consume."""

    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)
    """Larger request bodies get 413."""
    max_header_bytes: int = Field(default=64 * 1024, ge=8 * 1024)
    """A request's line and headers together; past it the answer is 431 and the connection is
    closed (uvicorn bounds neither, and reads a long header in time growing with its square)."""
    header_timeout_seconds: float = Field(default=30.0, gt=0)
    """Time a request's line and headers have to arrive, from the connection's start or the
    request's first byte; past it the answer is 408 and the connection is closed (uvicorn held
    a connection that sent nothing, or half a head, open for good)."""
    max_test_cases: int = Field(default=10_000, ge=1)
    """Test cases per evaluation; more answers 422 naming the setting and `test_cases`. Raise or
    lower it freely (no fixed cap behind it): `LOUPE_MAX_BODY_BYTES` still bounds a submission.
    """
    max_evaluation_test_cases: int = Field(default=1_000_000, ge=1)
    """Test cases in all of an open evaluation's batches together (`"open": true`, appended
    with `POST /v1/evaluations/{id}/test_cases`); each batch is still at most
    `LOUPE_MAX_TEST_CASES`. A batch past it answers 422 naming the setting and `test_cases`.
    """
    max_metrics: int = Field(default=20, ge=1)
    """Metrics per evaluation; more answers 422 naming the setting and `metrics` (no fixed cap
    behind it either).
    """
    max_window_chars: int = Field(default=60_000, ge=1_000)
    """Characters of earlier turns' text one judged turn's prompt shows at most
    (`turn_faithfulness`, `turn_contextual_relevancy`: each assistant turn with retrieval context
    is judged with up to `window_size` exchanges before it). Past it the window's earliest turns
    are left out, each whole, and the result's `logs.window_trimmed` says how many per turn.
    Without it a conversation's prompts grow as judged turns times window times turn size: a 4 MB
    body made 57 million prompt tokens. 60,000 characters is about 15,000 tokens, room for some
    fifty exchanges of a few sentences each."""
    max_planned_window_chars: int = Field(default=2_000_000_000, ge=1)
    """Characters of earlier turns the windowed conversation metrics (`turn_faithfulness`,
    `turn_contextual_relevancy`) of one submission would show the judge, every judged turn's
    window of every case and metric added up; past it the submission (its estimate, a batch of
    an open evaluation, a re-run) answers 422 naming `test_cases` and each such metric, and
    nothing is stored. Counted from the turns' sizes, case by case, stopping at the case that
    passes it, so a refusal is quick however large the body, and what an accepted estimate
    renders and a worker sends is bounded whatever the number of metrics. At the metrics'
    default `window_size` no body within the default `LOUPE_MAX_BODY_BYTES` reaches 2 billion
    with each metric once (the most is about 1.2 billion, from 100-exchange conversations;
    10,000 conversations within it plan at most 0.8 billion); a 64 MB body of 200-turn
    conversations at `window_size` 200 plans 4.2 billion. Raise it with the body limit."""
    otlp_max_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)
    """An OTLP/HTTP export (`POST /v1/traces`, `/v1/logs`) larger than this as sent, or once
    decompressed, gets 413, as the OTLP specification recommends (64 MiB); the API holds at
    most about three times this much per request while it decodes one."""
    otlp_max_concurrent: int = Field(default=4, ge=1)
    """OTLP exports one API process decompresses, decodes and takes in at once; more get 429
    with `Retry-After` (exporters send them again). The place is asked for once the body is
    read as sent and before it is decompressed, so a refused export costs its compressed
    bytes only, and what decoding holds is bounded to about this many times four
    `LOUPE_OTLP_MAX_BYTES`."""
    otlp_join_seconds: float = Field(default=30.0, gt=0)
    """How long a GenAI span whose messages travel in log records (sent by the instrumentation
    in other requests) waits for them, and its records for it, before it is counted without
    content; and how long a call without documents waits for its trace's retrieval span, for
    the rules whose metrics need a `retrieval_context`, before they count it
    `missing_fields`."""
    otlp_retrieval_keep_seconds: float = Field(default=600.0, gt=0)
    """How long a retrieval span (`gen_ai.operation.name=retrieval`, OpenInference `RETRIEVER`)
    is kept for the later model calls of its trace that come in other exports: they are judged
    with its documents as `retrieval_context` when they come within this time of it."""
    online_conversation_idle_seconds: float = Field(default=300.0, ge=0)
    """How long a conversation (`gen_ai.conversation.id`, else `session.id`) an online rule with
    `target: "conversation"` samples must go without a new call before the ticker judges its
    calls as one conversational test case; a call after that resumes it (judged whole again,
    within `LOUPE_ONLINE_CONVERSATION_KEEP_SECONDS`)."""
    online_conversation_max_seconds: float = Field(default=3600.0, gt=0)
    """How long the ticker waits, at most, from a conversation's first call not judged yet: one
    that never goes idle (`LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS`) is judged once its first
    call is this old, or once it holds 200 calls not judged yet (all a case holds), and its
    later calls resume it."""
    online_conversation_keep_seconds: float = Field(default=86_400.0, ge=0)
    """How long the calls of a conversation judged online are kept after it was judged: a
    conversation that resumes within this time is judged again as a whole, a new test case
    holding its earlier turns too (up to 200 turns); one that resumes later, or with 0, is a
    new test case of its later calls only."""
    backfill_max_calls: int = Field(default=10_000, ge=1, le=100_000)
    """How many kept calls one `POST /v1/online_rules/{id}/backfill` considers at most; a wider
    window answers `truncated` and is taken up in turns (`after`)."""

    # Test cases scored per job; a job holds this many cases' results in flight at most.
    job_slice_size: int = Field(default=1000, ge=1)
    """Test cases per job."""
    # Metric computations in progress at once inside one job: a job's judge calls in flight
    # never pass it, however far the judge limit grows (LOUPE_JUDGE_MAX_CONCURRENCY). Four
    # times the judge limit's starting point: items waiting on a shared answer (G-Eval steps,
    # truths) or on the database must not leave judge slots idle, and the limit has room to grow.
    worker_concurrency: int = Field(default=256, ge=1)
    """Metric computations in progress per job: the most judge calls one job has in flight,
    however far the judge limit grows (`LOUPE_JUDGE_MAX_CONCURRENCY`); more computations than
    judge slots keep the slots busy while some wait on shared answers. Against a tenant's daily
    budget each is counted at its expected cost while in flight.
    """
    # Results buffered before a write; writes also happen every flush interval. 400, not 100:
    # each write's fixed statements (the hold, the running sums, the commit) over 4x the rows
    # took a fifth off the database threads' CPU per judge call (docs/benchmarks.md, issue 31);
    # at ~1,000 calls a second a job still writes twice a second.
    result_batch_size: int = Field(default=400, ge=1)
    """A job writes its results every this many (and at least every `LOUPE_RESULT_FLUSH_SECONDS`).
    """
    result_flush_seconds: float = Field(default=1.0, gt=0)
    """A job writes its results at least this often, whatever their number (progress and heartbeat).
    """
    job_timeout_seconds: int = Field(default=3600, ge=10)
    """An RQ job running longer than this is stopped."""
    job_retries: int = Field(default=3, ge=0)
    """A failed RQ job is retried this many times (after 2, 10, 30 s)."""
    embedded_worker_threads: int = Field(default=2, ge=1)
    """Jobs the in-process worker runs at once (embedded mode)."""
    # Fair sharing between tenants: waiting jobs are lined up round-robin by tenant, and a job
    # that has run for a turn gives its worker to a waiting job of a tenant running fewer jobs
    # (its remaining cases go back in line). Off: first come, first served.
    fair_sharing: bool = True
    """Share workers fairly between tenants: waiting jobs are lined up round-robin by tenant, and a
    job that has had its turn gives its worker to a waiting job of a tenant running fewer jobs (the
    rest of its slice waits in line again; nothing is lost or called twice). `false`: first come,
    first served.
    """
    job_turn_seconds: float = Field(default=3.0, gt=0)
    """How long a job runs before it may give its worker up (fair sharing); shorter lets a newcomer
    start sooner, at the cost of more hand-overs between busy tenants.
    """

    # Running jobs refresh their evaluation's heartbeat this often, on a timer of their own
    # (not only when they write results), so a long judge call never looks like a dead job.
    heartbeat_seconds: float = Field(default=5.0, gt=0)
    """How often a running job refreshes its evaluation's heartbeat, on a timer of its own (a slow
    judge call does not silence it).
    """
    # The ticker re-enqueues evaluations without a heartbeat for this long: four missed beats,
    # so a killed worker's evaluation resumes within about stuck_after + tick seconds.
    tick_seconds: float = Field(default=5.0, gt=0)
    """How often the ticker re-enqueues stuck evaluations, enqueues due webhook retries and prunes
    idempotency keys and expired console sign-outs.
    """
    stuck_after_seconds: float = Field(default=20.0, gt=0)
    """Heartbeat silence after which an evaluation is re-enqueued (at least twice the heartbeat); a
    SIGKILLed worker's evaluation resumes within about this plus `LOUPE_TICK_SECONDS`.
    """
    gc_young_threshold: int = Field(default=50_000, ge=0)
    """Allocations between the garbage collector's young collections in `loupe serve` and `loupe
    worker`, which also freeze what start-up left alive so full collections skip it; CPython's
    default is 700, and 0 leaves its collector as it is. Fewer collections cost less CPU per judge
    call; only garbage with reference cycles waits longer to be freed.
    """
    max_dispatch_attempts: int = Field(default=5, ge=1)
    """Enqueues of a stuck evaluation before it fails (`dispatch_exhausted`), counted since it
    last stored a result: one that keeps making progress never runs out, however many of its
    workers die on the way."""

    # Log lines: "text" for people, "json" (one object per line) for a log pipeline.
    log_format: Literal["text", "json"] = "text"
    """`text` for people; `json` writes one JSON object per line."""
    log_level: Annotated[
        Literal["DEBUG", "INFO", "WARNING", "ERROR"],
        BeforeValidator(lambda value: value.upper() if isinstance(value, str) else value),
    ] = "INFO"
    """The lowest level of log lines written (any case: `debug` is `DEBUG`)."""
    # Each `loupe worker` serves Prometheus metrics here (the API serves GET /metrics itself).
    # Workers sharing a host need a port each; 0 turns the worker's metrics off.
    metrics_host: str = "127.0.0.1"
    """The address each `loupe worker` serves Prometheus `/metrics` on."""
    metrics_port: int = Field(default=9101, ge=0, le=65535)
    """The port each `loupe worker` serves `/metrics` on (0: not at all; workers sharing a host need
    a port each, a taken port is logged and skipped).
    """
    # When set, /metrics (the API's and each worker's) answers only `Authorization: Bearer
    # <token>`; without it anyone who reaches the port may scrape.
    metrics_token: str | None = Field(default=None, min_length=1, repr=False)
    """A bearer token the API's `/metrics` and each worker's require (Prometheus: `authorization:
    {credentials: ...}`); unset, anyone reaching them may scrape.
    """

    idempotency_retention_hours: float = Field(default=24.0, gt=0)
    """How long an `Idempotency-Key` replays its first response."""
    # Finished evaluations and runs older than this (by completion) are deleted by the ticker,
    # with their results and unused images. Unset: kept until deleted.
    retention_days: float | None = Field(default=None, gt=0)
    """The ticker deletes finished evaluations and runs completed longer ago than this, with their
    results and unused images, and cancels then deletes open evaluations (`open: true`, never
    closed) whose last batch came longer ago, once every case they hold is scored; webhook events
    delivered or given up that were created longer ago go too, with their delivery attempts (an
    event's body copies its evaluation's name and metadata); unset: keep.
    """
    # The audit trail is kept on its own clock: a deleted evaluation's deletion stays on record.
    audit_retention_days: float = Field(default=365.0, gt=0)
    """The ticker deletes audit events (`GET /v1/audit_events`) recorded longer ago than this."""
