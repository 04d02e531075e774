"""The settings of what Loupe reaches out to: images fetched for users and where it may connect,
the judge endpoint and its limits, and model prices."""

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_settings import NoDecode

from app.config._service import ServiceFields
from app.config.values import ModelPrice


class OutboundFields(ServiceFields):
    """Settings' fields after the service's (their order is the settings reference's)."""

    # Images (app/media). Caps apply to the bytes as sent; the per-request cap counts each
    # distinct image once, whether it came as a data URL or was fetched.
    max_image_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    """Per image, as sent or fetched."""
    max_request_image_bytes: int = Field(default=100 * 1024 * 1024, ge=1024)
    """A request's distinct images together."""
    # Width x height; refused before Pillow decodes a pixel (decompression bombs).
    max_image_pixels: int = Field(default=50_000_000, ge=1)
    """Width × height, checked before decoding."""
    # Decoding costs memory and time by the pixel: a PNG of 50M blank pixels is 190 kB. The
    # default is four images at the per-image cap (see docs/decisions.md).
    max_request_image_pixels: int = Field(default=200_000_000, ge=1)
    """A request's distinct images together, width × height from each header, counted before
    any is decoded."""
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
    """PEM file of extra CAs for HTTPS image URLs, models and the OpenID provider."""
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
    """Image URLs fetched at once while one submission, or one OTLP export's calls, is ingested."""

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
    """Judge requests in flight per process, shared by all jobs, once the endpoint stated a rate
    limit or answered 429 (a rate-limited endpoint gets fewer, see Operations, provider rate
    limits); where it does neither, the starting point of growth up to
    `LOUPE_JUDGE_MAX_CONCURRENCY`.
    """
    judge_max_concurrency: int = Field(default=1024, ge=1)
    """The most judge requests in flight per process for an endpoint that states no rate limit
    and never answers 429: past `LOUPE_JUDGE_CONCURRENCY` the limit grows while requests wait
    for a slot and the process has CPU to spare.
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
    """The longest backoff between two attempts of a judge or candidate call when the endpoint
    names no wait; a `Retry-After` is honoured as given, up to 60 s, and holds the endpoint's
    pace for every call to it (the provider's limit is the endpoint's, not one call's)."""
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

    # Scores back out (app/online/export.py): each result of an online rule is sent as an
    # OpenTelemetry `gen_ai.evaluation.result` log record to this OTLP/HTTP collector (a rule's
    # own `export_endpoint` takes its place for that rule).
    otlp_export_endpoint: str | None = None
    """OTLP/HTTP base URL online rules' scores are exported to as `gen_ai.evaluation.result` log
    records (`/v1/logs` is appended, as OpenTelemetry exporters do, e.g. `http://collector:4318`);
    unset: only rules naming their own `export_endpoint` export.
    """
    # The OTEL_EXPORTER_OTLP_HEADERS format; a secret (a collector's token): never shown in
    # errors, logs or metrics, and never sent to a rule's own endpoint.
    otlp_export_headers: str | None = Field(default=None, repr=False)
    """Headers sent with every export to `LOUPE_OTLP_EXPORT_ENDPOINT`, as
    `OTEL_EXPORTER_OTLP_HEADERS` writes them (`Authorization=Bearer x,X-Team=evals`, values
    URL-encoded); secret, and never sent to a rule's own `export_endpoint`.
    """
    otlp_export_timeout_seconds: float = Field(default=10.0, gt=0)
    """Per export job: the exporter's attempts at one batch (it retries 429/502/503/504 with
    backoff within it); a batch not accepted in time is tried again by a later job.
    """
    # Results are written by several jobs at once, each committing what it scored at least
    # every LOUPE_RESULT_FLUSH_SECONDS: an id issued before the cursor may commit after it.
    otlp_export_delay_seconds: float = Field(default=10.0, ge=0)
    """A result is exported once it is this old, so one committed late by a slower job is not
    passed over by the export cursor.
    """

    # Signing people in through the company's identity provider (OpenID Connect, authorization
    # code with PKCE; app/people/oidc.py). Unset issuer: no OIDC sign-in.
    oidc_issuer: str | None = None
    """The OpenID provider's issuer URL (its `/.well-known/openid-configuration` is read from it,
    through the outbound address policy, `LOUPE_OIDC_ALLOW`); unset: no OIDC sign-in.
    """
    oidc_client_id: str | None = None
    """The client id Loupe is registered with at the provider (redirect URI
    `<Loupe's URL>/console/oidc/callback`)."""
    oidc_client_secret: str | None = Field(default=None, repr=False)
    """The client's secret at the provider; secret: never logged or shown."""
    oidc_groups_claim: str = "groups"
    """The ID-token claim listing the person's groups (a list of names, or one name)."""
    # JSON: group -> [team name, role], e.g. {"ml-admins": ["ml", "admin"], "ml": ["ml", "member"]}.
    oidc_role_map: dict[str, tuple[str, Literal["admin", "member", "reviewer", "viewer"]]] = Field(
        default={}
    )
    """JSON mapping each provider group to `[team name, role]` (roles: `admin`, `member`,
    `reviewer`, `viewer`), e.g. `{"ml-admins": ["ml", "admin"], "ml": ["ml", "member"]}`; a person
    in several groups of one team gets the highest role.
    """
    oidc_operator_groups: Annotated[list[str], NoDecode] = Field(default=[])
    """Provider groups whose people are operators (comma-separated, or a JSON list, e.g.
    `platform-ops` or `["platform-ops"]`): they
    see the console's Operator page (every team's spend, limits, active jobs, keys and members);
    set at each sign-in from the groups claim.
    """
    oidc_allow: Annotated[list[str], NoDecode] = Field(default=[])
    """Host names and CIDR ranges the OpenID provider may be reached at although not public
    (comma-separated); checked before every request to it.
    """
    console_key_sign_in: bool = True
    """Whether the console also takes an API key to sign in; false: people sign in through the
    identity provider only.
    """

    @model_validator(mode="after")
    def _oidc_complete(self) -> "OutboundFields":
        # Half a configuration would silently offer no OIDC sign-in, or no sign-in at all.
        if bool(self.oidc_issuer) != bool(self.oidc_client_id):
            raise ValueError(
                "LOUPE_OIDC_ISSUER and LOUPE_OIDC_CLIENT_ID go together: set both to sign people "
                "in through the identity provider, or neither"
            )
        if not self.console_key_sign_in and not self.oidc_issuer:
            raise ValueError(
                "LOUPE_CONSOLE_KEY_SIGN_IN=false needs LOUPE_OIDC_ISSUER and LOUPE_OIDC_CLIENT_ID: "
                "otherwise nobody could sign in to the console"
            )
        return self
