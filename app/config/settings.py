"""Typed settings, read once from LOUPE_* environment variables: `Settings` (its fields declared
in groups, app/config/_service.py and app/config/_outbound.py, then its own) and `get_settings`."""

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import NoDecode, SettingsConfigDict, SettingsError

from app.config._outbound import OutboundFields
from app.config.errors import ENV_PREFIX, ConfigError, problem_lines, unparsable
from app.config.values import check_http_url, otlp_headers, secret_key_problem


class Settings(OutboundFields):
    """Every knob Loupe has; defaults give the embedded mode (SQLite + in-process worker)."""

    # Each field's docstring is its description: docs/generate.py writes the settings reference
    # page from them (tests/test_docs_site.py fails while a field has none).
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_file=".env", extra="ignore", use_attribute_docstrings=True
    )

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
    # Standard Webhooks' (and Svix's) five days: a receiver gone for good would otherwise have
    # every event tried for three days, for ever. Fractions of an hour are taken (tests).
    webhook_disable_after_hours: float = Field(default=120.0, ge=0, allow_inf_nan=False)
    """An endpoint whose every attempt has failed for this long (since the first failed attempt
    after its last success) is disabled at its next failed attempt, as a `410 Gone` disables it:
    its pending events are not attempted again, and the audit trail says why (registering its URL
    again turns it back on); 0: never.
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

    @field_validator("otlp_export_endpoint")
    @classmethod
    def _export_url(cls, value: str | None) -> str | None:
        if not value:
            return None  # empty: unset, no export but rules' own endpoints
        check_http_url(value)
        return value.rstrip("/")

    @field_validator("otlp_export_headers")
    @classmethod
    def _export_headers(cls, value: str | None) -> str | None:
        if not value:
            return None
        otlp_headers(value)  # a typo fails at start-up, not at every export
        return value

    def otlp_export_header_map(self) -> dict[str, str]:
        """LOUPE_OTLP_EXPORT_HEADERS as the headers sent to LOUPE_OTLP_EXPORT_ENDPOINT."""
        return otlp_headers(self.otlp_export_headers) if self.otlp_export_headers else {}

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

    @field_validator("model_allow", "image_allow", "webhook_allow", "oidc_allow", mode="after")
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
        "fetch_allowlist",
        "model_allow",
        "image_allow",
        "webhook_allow",
        "oidc_allow",
        mode="before",
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

    @field_validator("oidc_operator_groups", mode="before")
    @classmethod
    def _parse_groups(cls, value: object) -> object:
        # As the other list settings: comma-separated, or a JSON list; names kept as written.
        if isinstance(value, str) and value.strip().startswith("["):
            value = json.loads(value)
        if isinstance(value, str):
            return [group.strip() for group in value.split(",") if group.strip()]
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
        values.append(self.oidc_client_secret or "")
        # A collector's token, and the part after its scheme (`Bearer x`: `x`); short values
        # (a team name) would blank every log line's matching letters and are no secret.
        for value in self.otlp_export_header_map().values():
            values.extend(part for part in (value, value.split(" ")[-1]) if len(part) >= 8)
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
        raise ConfigError("\n".join(problem_lines(error))) from None
    except SettingsError as error:
        raise ConfigError(unparsable(error)) from None
