"""Typed settings, read once from LOUPE_* environment variables."""

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

ENV_PREFIX = "LOUPE_"
# Settings whose values are never repeated in an error message.
_SECRET_FIELDS = frozenset(
    {"judge_api_key", "secret_key", "database_url", "redis_url", "metrics_token"}
)
# LOUPE_SECRET_KEY's shortest length: 256 bits, as much as the Fernet key derived from it.
SECRET_KEY_MIN_BYTES = 32
SECRET_KEY_MIN_DISTINCT = 8


def secret_key_problem(value: str) -> str | None:
    """Why `value` is no usable secret key (too short, too few distinct characters), or None."""
    size = len(value.encode())
    if size < SECRET_KEY_MIN_BYTES:
        return (
            f"must be at least {SECRET_KEY_MIN_BYTES} bytes, this one has {size} "
            "(make one with `openssl rand -base64 32`)"
        )
    # 32 spaces, or one letter 32 times, is long but no secret.
    distinct = len(set(value))
    if distinct < SECRET_KEY_MIN_DISTINCT:
        return (
            f"has only {distinct} distinct characters, at least {SECRET_KEY_MIN_DISTINCT} "
            "are needed (make one with `openssl rand -base64 32`)"
        )
    return None


class ConfigError(Exception):
    """Settings a process cannot start with; the message names each variable and its problem."""


def check_http_url(value: str) -> None:
    """Raise ValueError unless `value` is an http(s) URL with a host."""
    parts = urlsplit(value)
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError("its port is not a number") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            "not an http:// or https:// URL with a host "
            "(e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1)"
        )


class ModelPrice(BaseModel):
    """What a model costs, in USD per million tokens (`LOUPE_MODEL_PRICES`)."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0, description="USD per million prompt tokens.")
    output: float = Field(ge=0, description="USD per million completion tokens.")
    cached_input: float | None = Field(
        default=None,
        ge=0,
        description="USD per million prompt tokens the provider reports as cached "
        "(`usage.prompt_tokens_details.cached_tokens`); unset: they cost `input`.",
    )


class Settings(BaseSettings):
    """Every knob Loupe has; defaults give the embedded mode (SQLite + in-process worker)."""

    # Each field's docstring is its description: docs/generate.py writes the settings reference
    # page from them (tests/test_docs_site.py fails while a field has none).
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_file=".env", extra="ignore", use_attribute_docstrings=True
    )

    host: str = "127.0.0.1"
    """The address `loupe serve` listens on."""
    port: int = 8000
    """The port `loupe serve` listens on."""
    database_url: str = "sqlite:///./var/loupe.db"
    """SQLAlchemy URL."""
    # No Redis URL means the embedded worker runs jobs in the API process.
    redis_url: str | None = None
    """Set it to use RQ workers instead of the in-process worker."""
    queue_name: str = "loupe"
    """The RQ queue the API enqueues to and workers consume."""

    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)
    """Larger request bodies get 413."""
    max_test_cases: int = Field(default=10_000, ge=1)
    """Test cases per evaluation; more answers 422 naming the setting and `test_cases`. Raise or
    lower it freely (no fixed cap behind it): `LOUPE_MAX_BODY_BYTES` still bounds a submission.
    """
    max_metrics: int = Field(default=20, ge=1)
    """Metrics per evaluation; more answers 422 naming the setting and `metrics` (no fixed cap
    behind it either).
    """

    # Test cases scored per job; a job holds this many cases' results in flight at most.
    job_slice_size: int = Field(default=1000, ge=1)
    """Test cases per job."""
    # Metric computations in progress at once inside one job. Twice the judge limit: items
    # waiting on a shared answer (G-Eval steps, truths) or on the database must not leave judge
    # slots idle; the judge limit still bounds the calls in flight.
    worker_concurrency: int = Field(default=128, ge=1)
    """Metric computations in progress per job (judge calls in flight stay within
    `LOUPE_JUDGE_CONCURRENCY`; more computations than judge slots keep the slots busy while some
    wait on shared answers).
    """
    # Results buffered before a write; writes also happen every flush interval.
    result_batch_size: int = Field(default=100, ge=1)
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
    max_dispatch_attempts: int = Field(default=5, ge=1)
    """Enqueues of a stuck evaluation before it fails (`dispatch_exhausted`)."""

    # Log lines: "text" for people, "json" (one object per line) for a log pipeline.
    log_format: Literal["text", "json"] = "text"
    """`text` for people; `json` writes one JSON object per line."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    """The lowest level of log lines written."""
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
    results and unused images; unset: keep.
    """

    # Images (app/media). Caps apply to the bytes as sent; the per-request cap counts each
    # distinct image once, whether it came as a data URL or was fetched.
    max_image_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    """Per image, as sent or fetched."""
    max_request_image_bytes: int = Field(default=100 * 1024 * 1024, ge=1024)
    """A request's distinct images together."""
    # Width x height; refused before Pillow decodes a pixel (decompression bombs).
    max_image_pixels: int = Field(default=50_000_000, ge=1)
    """Width × height, checked before decoding."""
    # Providers reject larger images and bill by tile, so the long side is capped.
    judge_image_max_side: int = Field(default=2048, ge=64)
    """Long side of the image judges receive."""
    # Where Loupe may connect for users, one policy per purpose: host names and CIDR ranges
    # allowed although not public (comma-separated). Empty: public addresses only.
    # model: registered models (candidates, tenants' judges); image: image URLs; webhook:
    # webhook receivers. The server's own judge (LOUPE_JUDGE_BASE_URL) is the operator's.
    model_allow: Annotated[list[str], NoDecode] = Field(default=[])
    """Host names and CIDR ranges registered models (candidates, tenants' judges) may reach although
    not public (comma-separated); checked at registration, before every job, and on every
    connection.
    """
    image_allow: Annotated[list[str], NoDecode] = Field(default=[])
    """Host names and CIDR ranges image URLs in test cases and datasets may reach although not
    public (comma-separated); checked at submit and on every redirect.
    """
    webhook_allow: Annotated[list[str], NoDecode] = Field(default=[])
    """Host names and CIDR ranges webhook receivers may reach although not public (comma-separated);
    checked at registration and on every delivery.
    """
    # Deprecated, both open all three purposes: any non-public address, or these hosts.
    allow_private_urls: bool = False
    """Deprecated: any non-public address, for all three purposes (models, images, webhooks)."""
    fetch_allowlist: Annotated[list[str], NoDecode] = Field(default=[])
    """Deprecated: these host names, for all three purposes (models, images, webhooks)."""
    # A PEM file of extra CAs trusted (with the public ones) for HTTPS image URLs and models:
    # on-premises servers signed by a private CA.
    ca_bundle: Path | None = None
    """PEM file of extra CAs for HTTPS image URLs and models."""
    # Connect: each DNS lookup and TCP/TLS connect. Read: the longest silence while the
    # headers or body arrive. Total: the whole fetch of one URL, redirects included.
    fetch_connect_timeout_seconds: float = Field(default=3.0, gt=0)
    """Per image URL: each DNS lookup and connect (TLS included)."""
    fetch_read_timeout_seconds: float = Field(default=5.0, gt=0)
    """Per image URL: the longest silence while reading the answer."""
    fetch_timeout_seconds: float = Field(default=10.0, gt=0)
    """Per image URL: the whole fetch, redirects included."""
    fetch_max_redirects: int = Field(default=3, ge=0, le=10)
    """Redirects followed per image URL, each checked like the first address."""
    # Image URLs fetched at once while one submission is ingested.
    fetch_concurrency: int = Field(default=8, ge=1)
    """Image URLs fetched at once while one submission is ingested."""

    # The judge: any OpenAI-compatible endpoint. Unset URL/key fall back to OPENAI_BASE_URL /
    # OPENAI_API_KEY (see judge_endpoint_values).
    judge_base_url: str | None = None
    """The judge's OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp); unset:
    `OPENAI_BASE_URL`. The URL needs its scheme and host (`http://127.0.0.1:8080/v1`, not
    `127.0.0.1:8080/v1`), checked at start-up.
    """
    judge_api_key: str | None = Field(default=None, repr=False)
    """The judge endpoint's API key; unset: `OPENAI_API_KEY`."""
    judge_model: str = "gpt-4.1"
    """Judge model when neither the metric nor the evaluation names one."""
    # What OpenAI Evals' `text_similarity` with `cosine` embeds with, on the judge endpoint.
    embedding_model: str = "text-embedding-3-large"
    """Embedding model of OpenAI Evals `text_similarity` graders with `cosine` (on the judge
    endpoint).
    """
    # Judge requests in flight at once per process, shared by every job.
    judge_concurrency: int = Field(default=64, ge=1)
    """Judge requests in flight per process, shared by all jobs (the most: a rate-limited endpoint
    gets fewer, see Operations, provider rate limits).
    """
    judge_timeout_seconds: float = Field(default=60.0, gt=0)
    """Per judge call; retries back off exponentially with jitter and honour `Retry-After`."""
    judge_max_attempts: int = Field(default=5, ge=1)
    """Attempts per judge call, the first included."""
    judge_response_format: Literal["json_schema", "json_object", "text"] = "json_schema"
    """`json_schema`, `json_object` or `text`; steps down by itself when the endpoint refuses one.
    """
    judge_backoff_base_seconds: float = Field(default=0.5, ge=0)
    """Judge and candidate retries wait up to base × 2^(attempt−1), never more than the cap."""
    judge_backoff_cap_seconds: float = Field(default=30.0, ge=0)
    """The longest wait between two attempts of a judge or candidate call."""
    # The most bytes of one judge, candidate or embeddings response body (decoded) read; a
    # larger one is `<role>_malformed`, not retried. A tenant's model may answer anything.
    max_model_response_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    """The most of one judge, candidate or embeddings response body read (after decompression; a
    larger `Content-Length` is refused unread, a chunked body once it passes the cap); the call
    fails as `<role>_malformed` naming the host and the cap, not retried, stored on the result.
    """
    # Answers shared by an evaluation's jobs (G-Eval steps, truths) are made by the job that
    # claims them; a claim its job stopped refreshing for this long (a crash) is taken over.
    judge_claim_stale_seconds: float = Field(default=30.0, gt=0)
    """An answer shared by an evaluation's jobs (G-Eval steps, truths) is made by the job that
    claims it; a claim not refreshed for this long (a crashed job) is taken over.
    """
    # Per model name (as sent to the provider), judge and candidate: a JSON object such as
    # {"gpt-4.1": {"input": 2, "output": 8, "cached_input": 0.5}}. A result whose model has no
    # price here has `cost_usd` null, never 0.
    model_prices: dict[str, ModelPrice] = Field(default_factory=dict)
    """JSON: per model, `input`, `output` (and optional `cached_input`) USD per million tokens;
    results of unpriced models have `cost_usd: null`.
    """

    # Encrypts stored candidate-model API keys and webhook secrets, signs console sessions (any
    # string of at least 32 bytes; a Fernet key is derived from it). Unset: a random key is kept
    # in `secret_key_file`, which suits one machine only, so distributed mode refuses to start
    # without it (`require_shared_secret_key`).
    secret_key: str | None = Field(default=None, repr=False)
    """Encrypts stored model keys and webhook secrets, signs console sessions; any string of at
    least 32 bytes and 8 distinct characters (e.g. `openssl rand -base64 32`); required in
    distributed mode (Redis or PostgreSQL), the same in every process.
    """
    secret_key_file: Path = Path("./var/secret.key")
    """Where the embedded mode keeps a random secret key when `LOUPE_SECRET_KEY` is unset (created
    readable by its owner only; suits one machine only).
    """
    # The web console's sign-in lasts this long (a signed cookie; sign in again after).
    console_session_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    """How long a console sign-in lasts."""
    # Requests without a valid API key (and failed console sign-ins) from one client address:
    # past this many in a window the address gets 429 until the window ends; a valid key is
    # still accepted. Shared through Redis in distributed mode. 0: no limit.
    auth_failure_limit: int = Field(default=30, ge=0)
    """Requests without a valid API key, and failed console sign-ins, one client address may make in
    a window before it gets 429 with `Retry-After` until the window ends (a valid key is still
    accepted; 0 turns the limit off); shared through Redis in distributed mode.
    """
    auth_failure_window_seconds: int = Field(default=60, ge=1, le=24 * 3600)
    """The window `LOUPE_AUTH_FAILURE_LIMIT` counts in."""
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated addresses
    # or networks, `*` for any). Empty: none, so no client can choose the address it is counted
    # under (uvicorn otherwise believes any process on 127.0.0.1).
    forwarded_allow_ips: str = ""
    """Proxies (comma-separated addresses or networks, `*` for any) whose `X-Forwarded-For` /
    `X-Forwarded-Proto` `loupe serve` believes; empty: none, the peer's address is the client's.
    """

    # Candidate models (dataset runs): calls in flight per process, per-call timeout, attempts.
    candidate_concurrency: int = Field(default=32, ge=1)
    """Candidate-model requests in flight per process."""
    candidate_timeout_seconds: float = Field(default=120.0, gt=0)
    """Per candidate-model call, retried like judge calls."""
    candidate_max_attempts: int = Field(default=5, ge=1)
    """Attempts per candidate-model call, the first included."""
    # Dataset uploads: file size, rows per dataset, members and unpacked bytes of a zip.
    max_dataset_bytes: int = Field(default=512 * 1024 * 1024, ge=1024)
    """Dataset upload size (413 above it)."""
    max_dataset_rows: int = Field(default=100_000, ge=1)
    """Rows per dataset."""
    # Bytes one stored dataset row's text may take (media count as references): no model reads
    # more in one prompt, and every row is held in memory until the upload is stored.
    max_dataset_row_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    """Text one dataset row may store (media counted as references; 422 naming the file and line).
    """
    max_archive_members: int = Field(default=10_000, ge=1)
    """Files in an uploaded zip, checked on the zip's directory (413 naming `file`, the member and
    the setting).
    """
    # Unset: LOUPE_MAX_DATASET_BYTES. Never more: an upload may not unpack to more than it may be.
    max_archive_bytes: int | None = Field(default=None, ge=1024)
    """Unpacked bytes of an uploaded zip, checked on the directory and again as they inflate; unset:
    `LOUPE_MAX_DATASET_BYTES`, and a cap above it is refused at start-up.
    """
    # Inflated bytes per compressed byte a zip member may reach (zip bombs are ~1000:1).
    max_archive_ratio: int = Field(default=100, ge=1)
    """Unpacked bytes per compressed byte a zip member may reach, and the whole zip too (unpacked
    total over the upload's size, so splitting a bomb into many members gains nothing); a member, or
    a whole zip, under 1 MiB unpacked is exempt; a zip bomb answers 413 before a byte is inflated.
    """
    # Bytes a tenant's dataset rows, images and audio and uploaded files may occupy; a tenant's
    # own value (`loupe tenants limits --storage-bytes`) replaces it.
    tenant_storage_bytes: int = Field(default=10 * 1024 * 1024 * 1024, ge=1)
    """Bytes a tenant's dataset rows, the images and audio its rows reference, and its uploaded
    files may occupy; a dataset or `/v1/files` upload that would pass it answers 413 naming `file`
    and stores nothing. Per tenant: `loupe tenants limits --tenant NAME --storage-bytes N` (0: back
    to this default).
    """

    webhook_timeout_seconds: float = Field(default=15.0, gt=0)
    """Per delivery attempt; a receiver slower than this is a failed attempt, retried."""
    # Seconds to wait before each retry; the default spans about three days.
    # NoDecode: the env value is parsed below, so both "5,300" and "[5, 300]" work.
    webhook_retry_schedule: Annotated[list[float], NoDecode] = Field(
        default=[5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]
    )
    """Waits before each retry (±10 % jitter, about three days in all); comma-separated or a JSON
    list.
    """

    @model_validator(mode="after")
    def _recovery_outlasts_heartbeats(self) -> "Settings":
        # A live job beating on time must never look stuck: leave room for two missed beats.
        if self.stuck_after_seconds < 2 * self.heartbeat_seconds:
            raise ValueError(
                "LOUPE_STUCK_AFTER_SECONDS must be at least twice LOUPE_HEARTBEAT_SECONDS"
            )
        return self

    @model_validator(mode="after")
    def _archive_within_upload(self) -> "Settings":
        if self.max_archive_bytes is not None and self.max_archive_bytes > self.max_dataset_bytes:
            raise ValueError(
                f"LOUPE_MAX_ARCHIVE_BYTES={self.max_archive_bytes} is more than "
                f"LOUPE_MAX_DATASET_BYTES={self.max_dataset_bytes}: a zip may not unpack to more "
                "than an upload may hold; lower it or leave it unset (it then equals "
                "LOUPE_MAX_DATASET_BYTES)"
            )
        return self

    @property
    def archive_bytes_cap(self) -> int:
        """Most bytes a dataset upload may unpack to: LOUPE_MAX_ARCHIVE_BYTES, else the
        upload cap (LOUPE_MAX_DATASET_BYTES)."""
        return self.max_archive_bytes or self.max_dataset_bytes

    @field_validator("judge_base_url")
    @classmethod
    def _judge_url(cls, value: str | None) -> str | None:
        # Without a scheme every judged result would fail later, one by one.
        if not value:
            return None  # empty: unset (OPENAI_BASE_URL, else the SDK's default)
        check_http_url(value)
        return value

    @model_validator(mode="after")
    def _fallback_judge_url(self) -> "Settings":
        fallback = os.environ.get("OPENAI_BASE_URL")
        if not self.judge_base_url and fallback:
            try:
                check_http_url(fallback)
            except ValueError as error:
                raise ValueError(
                    f"OPENAI_BASE_URL={fallback!r} (the judge's URL while LOUPE_JUDGE_BASE_URL "
                    f"is unset): {error}"
                ) from None
        return self

    @field_validator("secret_key")
    @classmethod
    def _long_secret_key(cls, value: str | None) -> str | None:
        if not value:
            return None  # empty: unset
        problem = secret_key_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("webhook_retry_schedule", mode="before")
    @classmethod
    def _parse_schedule(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().startswith("["):
            return json.loads(value)
        if isinstance(value, str):
            return [float(part) for part in value.split(",") if part.strip()]
        return value

    @field_validator("model_allow", "image_allow", "webhook_allow", mode="after")
    @classmethod
    def _check_allow(cls, value: list[str]) -> list[str]:
        from app.media.netguard import parse_allow

        parse_allow(value)  # a typo fails at start-up, not at the first refused URL
        return value

    @field_validator("ca_bundle", mode="after")
    @classmethod
    def _readable_bundle(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            raise ValueError(f"{value} is not a file (a PEM bundle of CA certificates)")
        return value

    @field_validator(
        "fetch_allowlist", "model_allow", "image_allow", "webhook_allow", mode="before"
    )
    @classmethod
    def _parse_hosts(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().startswith("["):
            value = json.loads(value)
        if isinstance(value, str):
            return [host.strip().lower().rstrip(".") for host in value.split(",") if host.strip()]
        if isinstance(value, list):
            return [str(host).strip().lower().rstrip(".") for host in value]
        return value

    @field_validator("database_url")
    @classmethod
    def _normalise_database_url(cls, value: str) -> str:
        # Users paste libpq URLs; SQLAlchemy needs the psycopg 3 driver named.
        for prefix in ("postgres://", "postgresql://"):
            if value.startswith(prefix):
                return "postgresql+psycopg://" + value[len(prefix) :]
        return value

    def judge_endpoint_values(self) -> tuple[str | None, str]:
        """The judge's base URL and API key, falling back to the OpenAI SDK's variables."""
        base_url = self.judge_base_url or os.environ.get("OPENAI_BASE_URL") or None
        api_key = self.judge_api_key or os.environ.get("OPENAI_API_KEY") or ""
        return base_url, api_key

    def secret_values(self) -> list[str]:
        """Strings no log line may contain: API keys, the secret key, URL passwords."""
        values = [self.judge_endpoint_values()[1], self.secret_key or "", self.metrics_token or ""]
        for url in (self.database_url, self.redis_url):
            password = urlsplit(url).password if url else None
            values.append(password or "")
        return [value for value in values if value]

    @property
    def embedded(self) -> bool:
        """True when jobs run in the API process instead of on RQ workers."""
        return not self.redis_url

    @property
    def distributed(self) -> bool:
        """True when processes may run on several machines (Redis, or a PostgreSQL database)."""
        return not self.embedded or self.database_url.startswith("postgresql")

    def require_shared_secret_key(self) -> None:
        """Raise ConfigError when distributed mode has no LOUPE_SECRET_KEY: each machine would
        make its own key file, and none could read what another encrypted or signed."""
        if self.distributed and not self.secret_key:
            raise ConfigError(
                "LOUPE_SECRET_KEY is not set: distributed mode (LOUPE_REDIS_URL or a PostgreSQL "
                "LOUPE_DATABASE_URL) needs the same key, of at least 32 bytes, in every API and "
                "worker process (make one with `openssl rand -base64 32`)"
            )

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def sqlite_path(self) -> Path | None:
        """The SQLite file, if the database is a file-backed SQLite."""
        if not self.is_sqlite or "///" not in self.database_url:
            return None  # not SQLite, or `sqlite://`: in memory
        # The driver's options (`?timeout=...`) are no part of the file's name.
        path = self.database_url.split("///", 1)[-1].split("?", 1)[0]
        return None if path in ("", ":memory:") else Path(path)


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use.

    Raises ConfigError, naming each LOUPE_ variable at fault, when they are not usable.
    """
    try:
        return Settings()
    except ValidationError as error:
        raise ConfigError("\n".join(_problems(error))) from None
    except SettingsError as error:
        raise ConfigError(_unparsable(error)) from None


def env_name(field: str) -> str:
    """The environment variable of a setting: `port` -> LOUPE_PORT."""
    return ENV_PREFIX + field.upper()


def _problems(error: ValidationError) -> list[str]:
    problems = []
    for problem in error.errors(include_url=False):
        loc = [str(part) for part in problem["loc"]]
        message = str(problem["msg"]).removeprefix("Value error, ")
        if not loc:
            problems.append(message)  # a check across settings: its message names them
            continue
        field, inner = loc[0], ".".join(loc[1:])
        name = env_name(field)
        shown = _shown(field, problem.get("input")) if not inner else ""
        where = f"{name}{shown}: {inner}: " if inner else f"{name}{shown}: "
        problems.append(where + message)
    return problems


def _shown(field: str, value: Any) -> str:
    if field in _SECRET_FIELDS or not isinstance(value, str | int | float):
        return ""
    text = str(value)
    return f"={text!r}" if len(text) <= 80 else f"={text[:77]!r}..."


def _unparsable(error: SettingsError) -> str:
    # pydantic-settings: 'error parsing value for field "x" from source "EnvSettingsSource"'.
    match = re.search(r'field "(\w+)" from source "(\w+)"', str(error))
    if match is None:
        return str(error)
    field, source = match.groups()
    origin = " (in .env)" if source.startswith("DotEnv") else ""
    cause = error.__cause__
    reason = f": {cause}" if isinstance(cause, ValueError) else ""
    return f"{env_name(field)}{origin}: not valid JSON{reason}"
