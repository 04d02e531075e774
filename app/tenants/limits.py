"""Per-tenant limits an operator sets (`loupe tenants limits`), checked at submit."""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, true
from sqlalchemy.orm import Session

from app.config import Settings
from app.db import utcnow
from app.models import Blob, BlobOwner, Dataset, EvalFile, Evaluation, Tenant
from app.problems import FieldError, ProblemError, field_error
from app.usage.service import midnight, spent_today

# A submission refused for too many active evaluations may try again after this many seconds.
ACTIVE_RETRY_AFTER_SECONDS = 30


def admit(
    session: Session, tenant: Tenant, kinds: Sequence[str] | None = None, *, lock: bool = True
) -> None:
    """Raise 429 problem+json when one more evaluation (or run) would exceed a tenant limit.

    `kinds`: those the cap on active evaluations counts (None: all). `lock=False`: a check
    before paid work that is checked again, locked, once the work is done.
    """
    admit_spend(session, tenant)
    limit = tenant.max_active_evaluations
    if limit is None:
        return
    if lock:
        # The tenant row is locked until the submission commits, so two concurrent
        # submissions cannot both take the last slot (PostgreSQL; SQLite serialises writers).
        session.execute(select(Tenant.id).where(Tenant.id == tenant.id).with_for_update())
    active = active_evaluations(session, tenant.id, kinds)
    if active >= limit:
        raise ProblemError(
            429,
            "Too Many Requests",
            f"Tenant limit max_active_evaluations is {limit} and {active} evaluations or runs "
            "are queued or running; submit again when one finishes or is canceled.",
            slug="tenant-limit-exceeded",
            errors=_reached(
                "max_active_evaluations",
                f"{active} evaluations or runs are queued or running; at most {limit}",
            ),
            headers={"Retry-After": str(ACTIVE_RETRY_AFTER_SECONDS)},
        )


def _reached(limit: str, message: str) -> list[FieldError]:
    """The errors[] of a tenant limit's 429: the limit the operator set, named as the tenant's
    (`tenant.daily_usd`), not as a field of the request, which holds no such field."""
    return [field_error(["tenant", limit], message, "tenant_limit_exceeded")]


def active_evaluations(session: Session, tenant_id: str, kinds: Sequence[str] | None = None) -> int:
    """The tenant's evaluations and runs queued or running (`kinds`: of those kinds alone)."""
    active = session.scalar(
        select(func.count())
        .select_from(Evaluation)
        .where(
            Evaluation.tenant_id == tenant_id,
            Evaluation.status.in_(("queued", "in_progress")),
            Evaluation.kind.in_(kinds) if kinds is not None else true(),
        )
    )
    return active or 0


def seconds_to_midnight(now: datetime) -> int:
    """Whole seconds until the next UTC midnight (at least 1), when a daily budget renews."""
    tomorrow = midnight(now.astimezone(UTC).date() + timedelta(days=1))
    return max(1, int((tomorrow - now).total_seconds() + 0.999))


def admit_spend(session: Session, tenant: Tenant) -> None:
    """Raise 429 when the tenant's priced spend today (UTC) has reached its daily budget."""
    budget = tenant.daily_usd
    if budget is None:
        return
    now = utcnow()
    spent, _ = spent_today(session, tenant.id, now)
    if spent >= budget:
        raise ProblemError(
            429,
            "Too Many Requests",
            f"Tenant limit daily_usd is {budget:g} USD and {spent:.6f} USD was spent today "
            "(UTC); submit again after midnight UTC or ask the operator to raise it.",
            slug="tenant-limit-exceeded",
            errors=_reached(
                "daily_usd",
                f"{spent:.6f} USD was spent today (UTC); the daily budget is {budget:g} USD",
            ),
            headers={"Retry-After": str(seconds_to_midnight(now))},
        )


def storage_quota(tenant: Tenant, settings: Settings) -> int:
    """Bytes the tenant may occupy: its own quota, else LOUPE_TENANT_STORAGE_BYTES."""
    return tenant.storage_bytes or settings.tenant_storage_bytes


def storage_used(session: Session, tenant_id: str) -> int:
    """Bytes the tenant occupies: its datasets' rows, the images and audio its rows reference
    (each counted in full for every tenant referencing it) and its uploaded files."""
    rows = select(func.coalesce(func.sum(Dataset.stored_bytes), 0)).where(
        Dataset.tenant_id == tenant_id
    )
    blobs = (
        select(func.coalesce(func.sum(Blob.size), 0))
        .join(BlobOwner, BlobOwner.sha256 == Blob.sha256)
        .where(BlobOwner.tenant_id == tenant_id)
    )
    files = select(func.coalesce(func.sum(EvalFile.bytes), 0)).where(
        EvalFile.tenant_id == tenant_id
    )
    return sum(int(session.scalar(query) or 0) for query in (rows, blobs, files))


def admit_storage(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    adding: int,
    *,
    field: str = "file",
    lock: bool = True,
) -> None:
    """Raise 413 problem+json naming `field` when `adding` more bytes would take the tenant
    past its storage quota; blobs the caller has stored uncommitted already count as used.

    With `lock`, the tenant row is locked until the caller commits, so two uploads cannot both
    take the last bytes (PostgreSQL; SQLite serialises writers anyway).
    """
    if lock:
        session.execute(select(Tenant.id).where(Tenant.id == tenant.id).with_for_update())
    quota = storage_quota(tenant, settings)
    used = storage_used(session, tenant.id)
    if used + adding <= quota:
        return
    setting = "storage_bytes" if tenant.storage_bytes else "LOUPE_TENANT_STORAGE_BYTES"
    raise ProblemError(
        413,
        "Storage quota exceeded",
        f"{field}: storing this upload would take the tenant to {used + adding} bytes; its "
        f"storage quota ({setting}) is {quota} bytes. Delete datasets or files, or ask the "
        "operator to raise it (loupe tenants limits --storage-bytes).",
        slug="storage-quota-exceeded",
        field=[field],
    )


_KEEP = object()


def set_limits(
    session: Session,
    tenant: Tenant,
    *,
    max_active_evaluations: int | None | object = _KEEP,
    daily_usd: float | None | object = _KEEP,
    storage_bytes: int | None | object = _KEEP,
) -> None:
    """Set a tenant's limits; None removes one (the storage quota: back to the default), an
    omitted one is kept."""
    if max_active_evaluations is not _KEEP:
        tenant.max_active_evaluations = max_active_evaluations  # type: ignore[assignment]
    if daily_usd is not _KEEP:
        tenant.daily_usd = daily_usd  # type: ignore[assignment]
    if storage_bytes is not _KEEP:
        tenant.storage_bytes = storage_bytes  # type: ignore[assignment]
    session.flush()
