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

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///./var/loupe.db"
    # No Redis URL means the embedded worker runs jobs in the API process.
    redis_url: str | None = None
    queue_name: str = "loupe"

    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)
    max_test_cases: int = Field(default=10_000, ge=1)
    max_metrics: int = Field(default=20, ge=1)

    # Test cases scored per job; a job holds this many cases' results in flight at most.
    job_slice_size: int = Field(default=1000, ge=1)
    # Metric computations in progress at once inside one job. Twice the judge limit: items
    # waiting on a shared answer (G-Eval steps, truths) or on the database must not leave judge
    # slots idle; the judge limit still bounds the calls in flight.
    worker_concurrency: int = Field(default=128, ge=1)
    # Results buffered before a write; writes also happen every flush interval.
    result_batch_size: int = Field(default=100, ge=1)
    result_flush_seconds: float = Field(default=1.0, gt=0)
    job_timeout_seconds: int = Field(default=3600, ge=10)
    job_retries: int = Field(default=3, ge=0)
    embedded_worker_threads: int = Field(default=2, ge=1)
    # Fair sharing between tenants: waiting jobs are lined up round-robin by tenant, and a job
    # that has run for a turn gives its worker to a waiting job of a tenant running fewer jobs
    # (its remaining cases go back in line). Off: first come, first served.
    fair_sharing: bool = True
    job_turn_seconds: float = Field(default=3.0, gt=0)

    # Running jobs refresh their evaluation's heartbeat this often, on a timer of their own
    # (not only when they write results), so a long judge call never looks like a dead job.
    heartbeat_seconds: float = Field(default=5.0, gt=0)
    # The ticker re-enqueues evaluations without a heartbeat for this long: four missed beats,
    # so a killed worker's evaluation resumes within about stuck_after + tick seconds.
    tick_seconds: float = Field(default=5.0, gt=0)
    stuck_after_seconds: float = Field(default=20.0, gt=0)
    max_dispatch_attempts: int = Field(default=5, ge=1)

    # Log lines: "text" for people, "json" (one object per line) for a log pipeline.
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Each `loupe worker` serves Prometheus metrics here (the API serves GET /metrics itself).
    # Workers sharing a host need a port each; 0 turns the worker's metrics off.
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9101, ge=0, le=65535)
    # When set, /metrics (the API's and each worker's) answers only `Authorization: Bearer
    # <token>`; without it anyone who reaches the port may scrape.
    metrics_token: str | None = Field(default=None, min_length=1, repr=False)

    idempotency_retention_hours: float = Field(default=24.0, gt=0)
    # Finished evaluations and runs older than this (by completion) are deleted by the ticker,
    # with their results and unused images. Unset: kept until deleted.
    retention_days: float | None = Field(default=None, gt=0)

    # Images (app/media). Caps apply to the bytes as sent; the per-request cap counts each
    # distinct image once, whether it came as a data URL or was fetched.
    max_image_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    max_request_image_bytes: int = Field(default=100 * 1024 * 1024, ge=1024)
    # Width x height; refused before Pillow decodes a pixel (decompression bombs).
    max_image_pixels: int = Field(default=50_000_000, ge=1)
    # Providers reject larger images and bill by tile, so the long side is capped.
    judge_image_max_side: int = Field(default=2048, ge=64)
    # Where Loupe may connect for users, one policy per purpose: host names and CIDR ranges
    # allowed although not public (comma-separated). Empty: public addresses only.
    # model: registered models (candidates, tenants' judges); image: image URLs; webhook:
    # webhook receivers. The server's own judge (LOUPE_JUDGE_BASE_URL) is the operator's.
    model_allow: Annotated[list[str], NoDecode] = Field(default=[])
    image_allow: Annotated[list[str], NoDecode] = Field(default=[])
    webhook_allow: Annotated[list[str], NoDecode] = Field(default=[])
    # Deprecated, both open all three purposes: any non-public address, or these hosts.
    allow_private_urls: bool = False
    fetch_allowlist: Annotated[list[str], NoDecode] = Field(default=[])
    # A PEM file of extra CAs trusted (with the public ones) for HTTPS image URLs and models:
    # on-premises servers signed by a private CA.
    ca_bundle: Path | None = None
    # Connect: each DNS lookup and TCP/TLS connect. Read: the longest silence while the
    # headers or body arrive. Total: the whole fetch of one URL, redirects included.
    fetch_connect_timeout_seconds: float = Field(default=3.0, gt=0)
    fetch_read_timeout_seconds: float = Field(default=5.0, gt=0)
    fetch_timeout_seconds: float = Field(default=10.0, gt=0)
    fetch_max_redirects: int = Field(default=3, ge=0, le=10)
    # Image URLs fetched at once while one submission is ingested.
    fetch_concurrency: int = Field(default=8, ge=1)

    # The judge: any OpenAI-compatible endpoint. Unset URL/key fall back to OPENAI_BASE_URL /
    # OPENAI_API_KEY (see judge_endpoint_values).
    judge_base_url: str | None = None
    judge_api_key: str | None = Field(default=None, repr=False)
    judge_model: str = "gpt-4.1"
    # What OpenAI Evals' `text_similarity` with `cosine` embeds with, on the judge endpoint.
    embedding_model: str = "text-embedding-3-large"
    # Judge requests in flight at once per process, shared by every job.
    judge_concurrency: int = Field(default=64, ge=1)
    judge_timeout_seconds: float = Field(default=60.0, gt=0)
    judge_max_attempts: int = Field(default=5, ge=1)
    judge_response_format: Literal["json_schema", "json_object", "text"] = "json_schema"
    judge_backoff_base_seconds: float = Field(default=0.5, ge=0)
    judge_backoff_cap_seconds: float = Field(default=30.0, ge=0)
    # The most bytes of one judge, candidate or embeddings response body (decoded) read; a
    # larger one is `<role>_malformed`, not retried. A tenant's model may answer anything.
    max_model_response_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    # Answers shared by an evaluation's jobs (G-Eval steps, truths) are made by the job that
    # claims them; a claim its job stopped refreshing for this long (a crash) is taken over.
    judge_claim_stale_seconds: float = Field(default=30.0, gt=0)
    # Per model name (as sent to the provider), judge and candidate: a JSON object such as
    # {"gpt-4.1": {"input": 2, "output": 8, "cached_input": 0.5}}. A result whose model has no
    # price here has `cost_usd` null, never 0.
    model_prices: dict[str, ModelPrice] = Field(default_factory=dict)

    # Encrypts stored candidate-model API keys and webhook secrets, signs console sessions (any
    # string of at least 32 bytes; a Fernet key is derived from it). Unset: a random key is kept
    # in `secret_key_file`, which suits one machine only, so distributed mode refuses to start
    # without it (`require_shared_secret_key`).
    secret_key: str | None = Field(default=None, repr=False)
    secret_key_file: Path = Path("./var/secret.key")
    # The web console's sign-in lasts this long (a signed cookie; sign in again after).
    console_session_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    # Requests without a valid API key (and failed console sign-ins) from one client address:
    # past this many in a window the address gets 429 until the window ends; a valid key is
    # still accepted. Shared through Redis in distributed mode. 0: no limit.
    auth_failure_limit: int = Field(default=30, ge=0)
    auth_failure_window_seconds: int = Field(default=60, ge=1, le=24 * 3600)
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated addresses
    # or networks, `*` for any). Empty: none, so no client can choose the address it is counted
    # under (uvicorn otherwise believes any process on 127.0.0.1).
    forwarded_allow_ips: str = ""

    # Candidate models (dataset runs): calls in flight per process, per-call timeout, attempts.
    candidate_concurrency: int = Field(default=32, ge=1)
    candidate_timeout_seconds: float = Field(default=120.0, gt=0)
    candidate_max_attempts: int = Field(default=5, ge=1)
    # Dataset uploads: file size, rows per dataset, members and unpacked bytes of a zip.
    max_dataset_bytes: int = Field(default=512 * 1024 * 1024, ge=1024)
    max_dataset_rows: int = Field(default=100_000, ge=1)
    # Bytes one stored dataset row's text may take (media count as references): no model reads
    # more in one prompt, and every row is held in memory until the upload is stored.
    max_dataset_row_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    max_archive_members: int = Field(default=10_000, ge=1)
    # Unset: LOUPE_MAX_DATASET_BYTES. Never more: an upload may not unpack to more than it may be.
    max_archive_bytes: int | None = Field(default=None, ge=1024)
    # Inflated bytes per compressed byte a zip member may reach (zip bombs are ~1000:1).
    max_archive_ratio: int = Field(default=100, ge=1)
    # Bytes a tenant's dataset rows, images and audio and uploaded files may occupy; a tenant's
    # own value (`loupe tenants limits --storage-bytes`) replaces it.
    tenant_storage_bytes: int = Field(default=10 * 1024 * 1024 * 1024, ge=1)

    webhook_timeout_seconds: float = Field(default=15.0, gt=0)
    # Seconds to wait before each retry; the default spans about three days.
    # NoDecode: the env value is parsed below, so both "5,300" and "[5, 300]" work.
    webhook_retry_schedule: Annotated[list[float], NoDecode] = Field(
        default=[5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]
    )

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
