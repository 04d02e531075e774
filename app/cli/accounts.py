"""Commands on tenants and their API keys: `keys create | list | revoke`, `tenants list |
create | rename | delete | limits`."""

from typing import TYPE_CHECKING

import typer

from app.cli._root import fail, keys, start_up_settings, tenants
from app.config import get_settings

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@keys.command("create")
def create_key(
    tenant: str = typer.Option(..., "--tenant", help="Tenant name (`loupe tenants list`)."),
    create_tenant: bool = typer.Option(
        False, "--create-tenant", help="Create the tenant when there is none of that name."
    ),
    scopes: str | None = typer.Option(
        None,
        "--scopes",
        help="What the key may do, comma-separated: read, write, ingest (OTLP only), review. "
        "Default: every scope.",
    ),
    name: str | None = typer.Option(None, "--name", help="A name to tell the key apart (ci)."),
    expires: str | None = typer.Option(
        None,
        "--expires",
        help="When it stops working: a duration from now (90d, 12h, 30m) or an ISO date or "
        "time (2027-01-31, UTC). Default: never.",
    ),
) -> None:
    """Create an API key for a tenant; the key is the last line printed, shown only once."""
    from app import migrate as migrations
    from app.db import utcnow
    from app.runtime import current
    from app.tenants.scopes import parse_scopes
    from app.tenants.service import UnknownTenant, check_tenant_name, parse_expiry
    from app.tenants.service import create_key as make_key

    try:
        chosen = parse_scopes(scopes) if scopes is not None else None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--scopes") from None
    try:
        expires_at = parse_expiry(expires, utcnow()) if expires is not None else None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--expires") from None
    if create_tenant:
        try:
            check_tenant_name(tenant)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--tenant") from None
    # A newcomer may create a key before the first `serve`; the schema must exist either way.
    migrations.upgrade(start_up_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            try:
                tenant_row, key = make_key(
                    session,
                    tenant,
                    create=create_tenant,
                    scopes=chosen,
                    name=name,
                    expires_at=expires_at,
                )
            except UnknownTenant:
                typer.echo(
                    f"loupe: no tenant named {tenant!r}; create it with this command's "
                    f"--create-tenant, or first `loupe tenants create {tenant}` "
                    "(`loupe tenants list` shows those there are)",
                    err=True,
                )
                raise typer.Exit(1) from None
            _audit_key(session, key, "api_key.create")
            session.commit()
    finally:
        runtime.close()
    what = ",".join(chosen) if chosen is not None else "every scope"
    until = f"expires {_when(expires_at)} UTC" if expires_at is not None else "no expiry"
    typer.echo(
        f"tenant {tenant_row.name} ({tenant_row.id}); {what}; {until}; store this key, it is "
        "not shown again:"
    )
    typer.echo(key)


@keys.command("list")
def list_keys(tenant: str = typer.Option(..., "--tenant", help="Tenant name.")) -> None:
    """List a tenant's keys: id, name, prefix, scopes, expiry, created (and by whom), last
    used, revoked."""
    from app.runtime import current
    from app.tenants.scopes import KEY_SCOPES
    from app.tenants.service import keys_of

    runtime = current()
    with runtime.session() as session:
        found = keys_of(session, tenant)
    runtime.close()
    if found is None:
        typer.echo(f"no tenant named {tenant!r}", err=True)
        raise typer.Exit(1)
    rows = [
        (
            key.id,
            key.name or "-",
            key.prefix + "…",
            ",".join(key.scopes if key.scopes is not None else KEY_SCOPES) or "-",
            _when(key.expires_at),
            _when(key.created_at),
            key.created_by or "-",
            _when(key.last_used_at),
            _when(key.revoked_at) if key.revoked_at else "",
        )
        for key in found
    ]
    header = (
        "id",
        "name",
        "prefix",
        "scopes",
        "expires",
        "created",
        "created by",
        "last used",
        "revoked",
    )
    # Each column as wide as its widest cell, so ids (32 characters) never run into the prefix.
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())


@keys.command("revoke")
def revoke_key(key_id: str = typer.Argument(..., help="The key's id (`loupe keys list`).")) -> None:
    """Revoke a key: every API process answers 401 to it from the next request on."""
    from app import audit
    from app.runtime import current
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import revoke_key as revoke
    from app.unscoped.api_keys import UnscopedApiKeyRepository

    runtime = current()
    with runtime.session() as session:
        found = UnscopedApiKeyRepository(session).get(key_id)
        was_live = found is not None and found.revoked_at is None
        api_key = revoke(session, key_id)
        if api_key is not None and was_live:
            audit.record(
                session,
                OPERATOR,
                "api_key.revoke",
                "api_key",
                api_key.id,
                tenant_id=api_key.tenant_id,
                prefix=api_key.prefix,
            )
        session.commit()
    runtime.close()
    if api_key is None:
        typer.echo(f"no key {key_id!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"revoked {api_key.id} ({api_key.prefix}…)")


def _audit_key(session: "Session", key: str, action: str) -> None:
    """The operator's audit event for the key `key` (its id and prefix, never the secret)."""
    from app import audit
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import hash_key
    from app.unscoped.api_keys import UnscopedApiKeyRepository

    found = UnscopedApiKeyRepository(session).tenant_and_key(hash_key(key))
    if found is not None:
        tenant_row, api_key = found
        audit.record(
            session,
            OPERATOR,
            action,
            "api_key",
            api_key.id,
            tenant_id=tenant_row.id,
            prefix=api_key.prefix,
        )


def _when(moment: object) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "never"  # type: ignore[attr-defined]


@tenants.command("limits")
def tenant_limits(
    tenant: str = typer.Option(..., "--tenant", help="Tenant name."),
    max_active_evaluations: int | None = typer.Option(
        None,
        "--max-active-evaluations",
        min=0,
        help="Evaluations and runs queued or running at once; more are refused with 429. "
        "0 removes the limit.",
    ),
    daily_usd: float | None = typer.Option(
        None,
        "--daily-usd",
        min=0,
        help="USD the tenant may spend per UTC day (priced by LOUPE_MODEL_PRICES): past it "
        "submissions answer 429 and running evaluations stop calling models "
        "(budget_exceeded). 0 removes the limit.",
    ),
    storage_bytes: int | None = typer.Option(
        None,
        "--storage-bytes",
        min=0,
        help="Bytes the tenant's datasets, their images and audio, and uploaded files may "
        "occupy; an upload past it answers 413. 0 goes back to LOUPE_TENANT_STORAGE_BYTES.",
    ),
) -> None:
    """Show or set a tenant's limits (without options: show them)."""
    from app import audit
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants import limits, repository
    from app.tenants.scopes import OPERATOR

    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            row = repository.tenant_by_name(session, tenant)
            if row is None:
                typer.echo(f"no tenant named {tenant!r}", err=True)
                raise typer.Exit(1)
            if max_active_evaluations is not None:
                limits.set_limits(
                    session, row, max_active_evaluations=max_active_evaluations or None
                )
            if daily_usd is not None:
                limits.set_limits(session, row, daily_usd=daily_usd or None)
            if storage_bytes is not None:
                limits.set_limits(session, row, storage_bytes=storage_bytes or None)
            changed = {
                name: value
                for name, value in (
                    ("max_active_evaluations", max_active_evaluations),
                    ("daily_usd", daily_usd),
                    ("storage_bytes", storage_bytes),
                )
                if value is not None
            }
            if changed:
                audit.record(
                    session,
                    OPERATOR,
                    "tenant.limits",
                    "tenant",
                    row.id,
                    tenant_id=row.id,
                    **changed,
                )
            session.commit()
            active = row.max_active_evaluations
            budget = f"{row.daily_usd:g}" if row.daily_usd else "none"
            quota = limits.storage_quota(row, runtime.settings)
            origin = "" if row.storage_bytes else " (LOUPE_TENANT_STORAGE_BYTES)"
            used = limits.storage_used(session, row.id)
            typer.echo(
                f"tenant {row.name}: max_active_evaluations={active or 'none'} daily_usd={budget} "
                f"storage_bytes={quota}{origin} storage_used={used}"
            )
    finally:
        runtime.close()


@tenants.command("list")
def list_tenants() -> None:
    """List every tenant: name, id, created, live keys (neither revoked nor expired)."""
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants.service import all_tenants

    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            found = all_tenants(session)
    finally:
        runtime.close()
    rows = [(t.name, t.id, _when(t.created_at), str(keys)) for t, keys in found]
    header = ("name", "id", "created", "keys")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())


@tenants.command("create")
def create_tenant(name: str = typer.Argument(..., help="The new tenant's name.")) -> None:
    """Create a tenant (then `loupe keys create --tenant NAME`)."""
    from app import audit
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import TenantExists, check_tenant_name
    from app.tenants.service import create_tenant as make_tenant

    try:
        check_tenant_name(name)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            try:
                row = make_tenant(session, name)
            except TenantExists:
                fail(f"a tenant named {name!r} exists already", 1)
            audit.record(session, OPERATOR, "tenant.create", "tenant", row.id, tenant_id=row.id)
            session.commit()
    finally:
        runtime.close()
    typer.echo(f"created tenant {row.name} ({row.id})")


@tenants.command("rename")
def rename_tenant(
    name: str = typer.Argument(..., help="The tenant's name now."),
    new_name: str = typer.Argument(..., help="Its new name."),
) -> None:
    """Rename a tenant; its id, keys and everything it owns stay."""
    from app import audit
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import TenantExists, UnknownTenant, check_tenant_name
    from app.tenants.service import rename_tenant as rename

    try:
        check_tenant_name(new_name)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NEW_NAME") from None
    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            try:
                row = rename(session, name, new_name)
            except UnknownTenant:
                fail(f"no tenant named {name!r} (`loupe tenants list` shows them)", 1)
            except TenantExists:
                fail(f"a tenant named {new_name!r} exists already", 1)
            if name != new_name:
                audit.record(
                    session,
                    OPERATOR,
                    "tenant.rename",
                    "tenant",
                    row.id,
                    tenant_id=row.id,
                    old_name=name,
                    new_name=new_name,
                )
            session.commit()
    finally:
        runtime.close()
    typer.echo(f"renamed tenant {name} to {new_name} ({row.id})")


@tenants.command("delete")
def delete_tenant(
    name: str = typer.Argument(..., help="The tenant to delete."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
) -> None:
    """Delete a tenant with everything it owns: keys, evaluations and runs, datasets, files,
    models, evals, online rules, webhooks, comparisons, images no other tenant uses, and its
    audit trail. Running evaluations stop. There is no undo."""
    import logging

    from app import migrate as migrations
    from app.runtime import current
    from app.tenants import repository
    from app.tenants.service import collect_blobs
    from app.tenants.service import delete_tenant as delete

    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            row = repository.tenant_by_name(session, name)
            if row is None:
                fail(f"no tenant named {name!r} (`loupe tenants list` shows them)", 1)
            tenant_id = row.id
            if not yes and not typer.confirm(
                f"Delete tenant {name} ({tenant_id}) and everything it owns? There is no undo",
                default=False,
            ):
                fail("nothing deleted", 1)
            digests = delete(session, row)
            session.commit()
        with runtime.session() as session:
            removed = collect_blobs(session, tenant_id, digests)
            session.commit()
    finally:
        runtime.close()
    # The tenant's audit trail went with it: the operator's deletion is logged instead.
    logging.getLogger("loupe.audit").info(
        "operator deleted tenant %s (%s) and %d images only it used", name, tenant_id, len(removed)
    )
    typer.echo(f"deleted tenant {name} ({tenant_id}) and everything it owned")
